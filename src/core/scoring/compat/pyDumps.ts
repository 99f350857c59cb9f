import { pyFloatRepr } from './pyText.ts';

/**
 * `json.dumps` output, byte for byte: keys in insertion order, `ensure_ascii=True` escapes,
 * `", "`/`": "` separators (`","` and newlines with `indent`), floats as Python's repr.
 * JavaScript numbers do not say whether Python held an int or a float, so the caller names the
 * keys whose numeric values are floats; every other number must be an integer.
 */
export interface DumpOptions {
  indent?: number;
  floatKeys?: ReadonlySet<string>;
}

type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };

export function pyDumps(value: unknown, options: DumpOptions = {}): string {
  return dump(value as Json, null, options, 0);
}

function dump(v: Json, key: string | null, o: DumpOptions, depth: number): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number') return number(v, key !== null && (o.floatKeys?.has(key) ?? false), key);
  const nl = o.indent === undefined ? null : '\n' + ' '.repeat(o.indent * (depth + 1));
  const close = o.indent === undefined ? '' : '\n' + ' '.repeat(o.indent * depth);
  const sep = nl === null ? ', ' : ',' + nl;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const items = (v as readonly Json[]).map((x) => dump(x, key, o, depth + 1));
    return nl === null ? `[${items.join(sep)}]` : `[${nl}${items.join(sep)}${close}]`;
  }
  const obj = v as { [k: string]: Json };
  const keys = Object.keys(obj);
  if (keys.length === 0) return '{}';
  let body = '';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i) body += sep;
    body += quotedKey(k) + ': ' + dump(obj[k]!, k, o, depth + 1);
  }
  return nl === null ? `{${body}}` : `{${nl}${body}${close}}`;
}

function number(n: number, isFloat: boolean, key: string | null): string {
  if (isFloat) {
    if (Number.isNaN(n)) return 'NaN';
    if (n === Infinity) return 'Infinity';
    if (n === -Infinity) return '-Infinity';
    return pyFloatRepr(n);
  }
  if (!Number.isSafeInteger(n)) throw new Error(`pyDumps: "${key}" holds ${n}, which is not an integer and not declared a float`);
  return String(n);
}

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A Python `str` as `json.dumps` writes it. */
export function pyQuote(s: string): string {
  return quote(s);
}

/** Python's `py_encode_basestring_ascii`: everything outside space..~ escaped, astral characters as surrogate pairs. */
/** Record keys repeat on every line of a JSONL file: quote each once. */
const keyCache = new Map<string, string>();
function quotedKey(k: string): string {
  let q = keyCache.get(k);
  if (q === undefined) {
    q = quote(k);
    if (keyCache.size < 1000) keyCache.set(k, q);
  }
  return q;
}

const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function quote(s: string): string {
  if (PLAIN.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 34 && c !== 92) continue;
    out += s.slice(start, i) + (SHORT[s[i]!] ?? `\\u${c.toString(16).padStart(4, '0')}`);
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}
