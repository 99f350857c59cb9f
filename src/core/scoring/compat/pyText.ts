import { isDict, type PyValue } from './pyValue.ts';

/**
 * Python `str` semantics the released scorer relies on, where JavaScript differs:
 * which characters are whitespace (`str.strip`, `str.split`, regex `\s`), which are word
 * characters (regex `\w`), how `str()`/`repr()` print values, and how `sorted()` orders strings.
 * Unicode tables are those of the running JavaScript engine; they agree with Python 3.11
 * (Unicode 14) for every character assigned by Unicode 14.
 */

/** Exactly the characters for which Python's `str.isspace()` is true (also what `\s` matches in `re`). */
export const PY_SPACE_CLASS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${PY_SPACE_CLASS}]+`);
const TRAILING = new RegExp(`[${PY_SPACE_CLASS}]+$`);

/** `s.strip()` with no argument. (`String.prototype.trim` also strips U+FEFF but not U+001C–U+001F or U+0085.) */
export function pyStrip(s: string): string {
  if (s === '' || (isPlainEnd(s.charCodeAt(0)) && isPlainEnd(s.charCodeAt(s.length - 1)))) return s;
  return s.replace(LEADING, '').replace(TRAILING, '');
}

/** Printable ASCII other than space: certainly not whitespace, the common case. */
function isPlainEnd(c: number): boolean {
  return c > 0x20 && c < 0x7f;
}

/** Length in code points, as Python's `len()` counts a `str`. */
export function pyLen(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Compare as Python compares `str` (by code point; JavaScript's `<` compares UTF-16 units). */
export function pyCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i),
      y = b.charCodeAt(i);
    if (x === y) continue;
    // Only a surrogate against a unit at or above U+E000 orders differently by code point.
    const xs = x >= 0xd800 && x <= 0xdfff,
      ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Python's `repr(float)` (also what `str(float)` and `json.dumps` print for finite floats). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // Whole numbers below 1e16 print in full with ".0" in both languages' shortest forms: the common case.
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`;
  const sign = x < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest round-tripping digits, as Python's repr does.
  const [mantissa, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  const decpt = exp + 1;
  if (decpt <= -4 || decpt > 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exp);
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** Characters Python's `repr(str)` prints as they are beyond ASCII (`str.isprintable()`). */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Python's `repr(str)`: quotes chosen as Python chooses them, escapes as Python writes them. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\x${hex(c, 2)}`;
    else if (c < 0x7f) out += ch;
    else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) out += c <= 0xff ? `\\x${hex(c, 2)}` : c <= 0xffff ? `\\u${hex(c, 4)}` : `\\U${hex(c, 8)}`;
    else out += ch;
  }
  return out + quote;
}

/** Python's `repr()` of a JSON value. */
export function pyRepr(v: PyValue): string {
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (isDict(v)) return `{${[...v].map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
  return pyStr(v);
}

/** Python's `str()` of a JSON value: `True`, `None`, `1.0`, `['a', 1]`, `{'k': 'v'}`. */
export function pyStr(v: PyValue): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return pyFloatRepr(v);
  return pyRepr(v);
}
