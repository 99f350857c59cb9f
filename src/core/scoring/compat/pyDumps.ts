import { pyFloatRepr } from './pyText.ts';
import { isDict, type PyDict, type PyValue } from './pyValue.ts';

/**
 * `json.dumps` output, byte for byte: keys in insertion order, `", "`/`": "` separators (`","`
 * and newlines with `indent`), floats as Python's repr (`NaN`, `Infinity`). The released scorer
 * writes with `ensure_ascii=False` (only `"`, `\` and control characters escaped); `ensureAscii`
 * gives Python's default. Values are plain objects and arrays, or Python values as the
 * compat JSON reader makes them (`Map` for dicts, `bigint` for ints, `number` for floats).
 * JavaScript numbers do not say whether Python held an int or a float, so outside Python values
 * the caller names the keys whose numbers are floats; every other number must be an integer.
 */
export interface DumpOptions {
  indent?: number;
  floatKeys?: ReadonlySet<string>;
  /** Python's default (true): everything outside printable ASCII as `\uXXXX`. */
  ensureAscii?: boolean;
}

type Json = null | boolean | number | bigint | string | readonly Json[] | PyDict | { readonly [k: string]: Json };

export function pyDumps(value: unknown, options: DumpOptions = {}): string {
  return dump(value as Json, null, options, 0);
}

function dump(v: Json, key: string | null, o: DumpOptions, depth: number): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return quote(v, o.ensureAscii ?? true);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return number(v, key !== null && (o.floatKeys?.has(key) ?? false), key);
  const nl = o.indent === undefined ? null : '\n' + ' '.repeat(o.indent * (depth + 1));
  const close = o.indent === undefined ? '' : '\n' + ' '.repeat(o.indent * depth);
  const sep = nl === null ? ', ' : ',' + nl;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const items = (v as readonly Json[]).map((x) => dump(x, key, o, depth + 1));
    return nl === null ? `[${items.join(sep)}]` : `[${nl}${items.join(sep)}${close}]`;
  }
  const py = isDict(v as PyValue);
  const entries: [string, Json][] = py ? [...(v as unknown as Iterable<[string, Json]>)] : Object.entries(v as { [k: string]: Json });
  if (entries.length === 0) return '{}';
  let body = '';
  for (let i = 0; i < entries.length; i++) {
    const [k, x] = entries[i]!;
    if (i) body += sep;
    body += quote(k, o.ensureAscii ?? true) + ': ' + dump(x, py ? FLOATS_ARE_NUMBERS : k, o, depth + 1);
  }
  return nl === null ? `{${body}}` : `{${nl}${body}${close}}`;
}

/** Inside a Python value a `number` is a float (ints are `bigint`), whatever its key. */
const FLOATS_ARE_NUMBERS = '\u0000float';

function number(n: number, isFloat: boolean, key: string | null): string {
  if (isFloat || key === FLOATS_ARE_NUMBERS) return pyJsonFloat(n);
  if (!Number.isSafeInteger(n)) throw new Error(`pyDumps: "${key}" holds ${n}, which is not an integer and not declared a float`);
  return String(n);
}

/** A Python float as `json.dumps` writes it. */
export function pyJsonFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return pyFloatRepr(n);
}

/**
 * A Python value (as the compat JSON reader makes it) as `json.dumps(v, ensure_ascii=False)`
 * writes it, compact. In a Python value a `number` is always a float.
 */
export function pyDumpValue(v: unknown): string {
  if (typeof v === 'string') return pyQuote(v);
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return pyJsonFloat(v);
  return dump(v as Json, FLOATS_ARE_NUMBERS, { ensureAscii: false }, 0);
}

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A string as the released scorer's `json.dumps(..., ensure_ascii=False)` writes it. */
export function pyQuote(s: string): string {
  return quote(s, false);
}

/** Nothing to escape either way: printable ASCII without `"` or `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** Nothing to escape without ensure_ascii: no control character, `"`, `\` or surrogate. */
const PLAIN_UNICODE = /^[^\x00-\x1f"\\\ud800-\udfff]*$/;

function quote(s: string, ensureAscii: boolean): string {
  if (PLAIN.test(s) || (!ensureAscii && PLAIN_UNICODE.test(s))) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 34 && c !== 92 && (ensureAscii ? c < 0x7f : !isLoneSurrogate(s, i, c))) {
      if (!ensureAscii && c >= 0xd800 && c <= 0xdbff) i++; // the rest of a pair
      continue;
    }
    // Python writes a lone surrogate as it is (and then cannot encode the file); it is escaped here, so the output stays UTF-8.
    out += s.slice(start, i) + (SHORT[s[i]!] ?? `\\u${c.toString(16).padStart(4, '0')}`);
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

function isLoneSurrogate(s: string, i: number, c: number): boolean {
  if (c < 0xd800 || c > 0xdfff) return false;
  if (c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    return !(d >= 0xdc00 && d <= 0xdfff);
  }
  return true; // a low surrogate reached here was not preceded by a high one (pairs are skipped whole)
}
