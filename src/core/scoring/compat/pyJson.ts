import { fromChecked, type PyDict, type PyValue } from './pyValue.ts';

/**
 * `json.loads` as CPython's C scanner behaves, for reading the files the released scorer reads.
 * Differences from `JSON.parse` that matter here: `NaN`, `Infinity` and `-Infinity` are accepted;
 * integers stay exact and distinct from floats (`str(1.0)` is `1.0`, `str(1)` is `1`); a leading
 * byte-order mark is an error (Python: "Unexpected UTF-8 BOM"); objects keep Python dict order.
 * Nesting deeper than `MAX_PY_DEPTH` is an error too: Python's own parser stops there with a
 * RecursionError, and this one would overflow the stack a few thousand levels down.
 */
export type PyJsonResult = { ok: true; value: PyValue } | { ok: false; message: string; offset: number };

/** Python's default recursion limit, which its JSON scanner counts each nested array or object against. */
export const MAX_PY_DEPTH = 1000;

class PyJsonError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function pyJsonLoads(text: string): PyJsonResult {
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, message: 'Unexpected UTF-8 BOM (decode using utf-8-sig)', offset: 0 };
  if (fewerBrackets(text, MAX_PY_DEPTH)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return pyJsonLoadsExact(text);
    }
    if (exactAsParsed(parsed)) return { ok: true, value: fromChecked(parsed) };
  }
  return pyJsonLoadsExact(text);
}

/**
 * `JSON.parse` accepts a subset of what json.loads accepts (not NaN or Infinity), with the same
 * strings and the same dict semantics (a repeated key keeps its first place and the last value).
 * What it can get wrong is told apart after the fact, and the exact parser reads the text
 * instead: an integral number (json.loads keeps `2` an int and `2.0` or `1e2` a float, and ints
 * beyond 2**53 exact; a fraction is the same double either way), an object key that is a whole
 * number (a JavaScript object moves it first), and nesting past Python's recursion limit (not
 * possible with fewer than that many arrays and objects). Result files rarely hold any of these.
 */
const WHOLE_NUMBER = /^(?:0|[1-9][0-9]*)$/;

/** Whether JSON.parse output holds nothing it may have read differently from json.loads (see above). */
function exactAsParsed(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isInteger(v);
  if (v === null || typeof v !== 'object') return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!exactAsParsed(v[i])) return false;
    return true;
  }
  for (const k in v) {
    const c = k.charCodeAt(0);
    if (c >= 48 && c <= 57 && WHOLE_NUMBER.test(k)) return false;
    if (!exactAsParsed((v as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Whether the text holds fewer than `limit` "[" and "{" in all (so it cannot nest that deep). */
function fewerBrackets(text: string, limit: number): boolean {
  let n = 0;
  for (const bracket of ['[', '{']) {
    for (let i = text.indexOf(bracket); i >= 0; i = text.indexOf(bracket, i + 1)) if (++n >= limit) return false;
  }
  return true;
}

/** `json.loads` by a parser of its own: the exact reading, errors and their messages included. */
export function pyJsonLoadsExact(text: string): PyJsonResult {
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, message: 'Unexpected UTF-8 BOM (decode using utf-8-sig)', offset: 0 };
  const p = new Parser(text);
  try {
    p.skipSpace();
    const value = p.value();
    p.skipSpace();
    if (p.i !== text.length) throw new PyJsonError('Extra data', p.i);
    return { ok: true, value };
  } catch (e) {
    if (e instanceof PyJsonError) return { ok: false, message: e.message, offset: e.offset };
    throw e;
  }
}

const isDigit = (c: number) => c >= 48 && c <= 57;

class Parser {
  i = 0;
  private depth = 0;
  constructor(readonly s: string) {}

  /** Enter an array or object; `leave` when it is closed. */
  private enter(): void {
    if (++this.depth > MAX_PY_DEPTH) throw new PyJsonError(`Nested deeper than ${MAX_PY_DEPTH} levels (Python stops with RecursionError)`, this.i);
  }

  /** JSON whitespace only: space, tab, newline, carriage return. */
  skipSpace(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      this.i++;
    }
  }

  value(): PyValue {
    const s = this.s,
      i = this.i;
    const c = s.charCodeAt(i);
    if (c === 34) return this.string();
    if (c === 123) return this.object();
    if (c === 91) return this.array();
    if (s.startsWith('null', i)) {
      this.i += 4;
      return null;
    }
    if (s.startsWith('true', i)) {
      this.i += 4;
      return true;
    }
    if (s.startsWith('false', i)) {
      this.i += 5;
      return false;
    }
    if (s.startsWith('NaN', i)) {
      this.i += 3;
      return NaN;
    }
    if (s.startsWith('Infinity', i)) {
      this.i += 8;
      return Infinity;
    }
    if (s.startsWith('-Infinity', i)) {
      this.i += 9;
      return -Infinity;
    }
    if (c === 45 || isDigit(c)) return this.number();
    throw new PyJsonError('Expecting value', i);
  }

  number(): PyValue {
    const s = this.s,
      start = this.i;
    let i = start;
    if (s.charCodeAt(i) === 45) i++;
    if (s.charCodeAt(i) === 48) i++;
    else if (isDigit(s.charCodeAt(i))) while (isDigit(s.charCodeAt(i))) i++;
    else throw new PyJsonError('Expecting value', start);
    let isFloat = false;
    // A fraction or exponent only counts when digits follow; otherwise the number ends before it.
    if (s.charCodeAt(i) === 46 && isDigit(s.charCodeAt(i + 1))) {
      i += 2;
      while (isDigit(s.charCodeAt(i))) i++;
      isFloat = true;
    }
    const e = s.charCodeAt(i);
    if (e === 101 || e === 69) {
      let j = i + 1;
      const sign = s.charCodeAt(j);
      if (sign === 43 || sign === 45) j++;
      if (isDigit(s.charCodeAt(j))) {
        while (isDigit(s.charCodeAt(j))) j++;
        i = j;
        isFloat = true;
      }
    }
    this.i = i;
    const lexeme = s.slice(start, i);
    return isFloat ? Number(lexeme) : BigInt(lexeme);
  }

  string(): string {
    const s = this.s;
    let i = this.i + 1;
    let out = '';
    let chunk = i;
    for (;;) {
      if (i >= s.length) throw new PyJsonError('Unterminated string starting at', this.i);
      const c = s.charCodeAt(i);
      if (c === 34) break;
      if (c < 0x20) throw new PyJsonError('Invalid control character at', i);
      if (c !== 92) {
        i++;
        continue;
      }
      out += s.slice(chunk, i);
      const esc = s[i + 1];
      switch (esc) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const h = s.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(h)) throw new PyJsonError('Invalid \\uXXXX escape', i + 1);
          // Surrogate pairs written as two escapes combine by themselves in UTF-16; lone ones stay, as in Python.
          out += String.fromCharCode(parseInt(h, 16));
          i += 4;
          break;
        }
        default:
          throw new PyJsonError('Invalid \\escape', i);
      }
      i += 2;
      chunk = i;
    }
    out += s.slice(chunk, i);
    this.i = i + 1;
    return out;
  }

  object(): PyDict {
    const s = this.s;
    const obj = new Map<string, PyValue>();
    this.enter();
    this.i++;
    this.skipSpace();
    if (s.charCodeAt(this.i) === 125) {
      this.i++;
      this.depth--;
      return obj;
    }
    for (;;) {
      if (s.charCodeAt(this.i) !== 34) throw new PyJsonError('Expecting property name enclosed in double quotes', this.i);
      const key = this.string();
      this.skipSpace();
      if (s.charCodeAt(this.i) !== 58) throw new PyJsonError("Expecting ':' delimiter", this.i);
      this.i++;
      this.skipSpace();
      // A repeated key keeps its first position and takes the last value, as a Python dict does.
      obj.set(key, this.value());
      this.skipSpace();
      const c = s.charCodeAt(this.i);
      if (c === 125) {
        this.i++;
        this.depth--;
        return obj;
      }
      if (c !== 44) throw new PyJsonError("Expecting ',' delimiter", this.i);
      this.i++;
      this.skipSpace();
    }
  }

  array(): PyValue[] {
    const s = this.s;
    const arr: PyValue[] = [];
    this.enter();
    this.i++;
    this.skipSpace();
    if (s.charCodeAt(this.i) === 93) {
      this.i++;
      this.depth--;
      return arr;
    }
    for (;;) {
      arr.push(this.value());
      this.skipSpace();
      const c = s.charCodeAt(this.i);
      if (c === 93) {
        this.i++;
        this.depth--;
        return arr;
      }
      if (c !== 44) throw new PyJsonError("Expecting ',' delimiter", this.i);
      this.i++;
      this.skipSpace();
    }
  }
}
