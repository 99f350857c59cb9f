import type { z } from 'zod';
import { pointer, type Problem } from '../core/problems.ts';
import { withoutBom } from './text.ts';
import { MAX_DEPTH } from '../core/records/storable.ts';
import { pyJsonLoads } from '../core/scoring/compat/pyJson.ts';

/** A file handed to a reader: its path relative to the imported folder and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1,
    last = -1;
  for (let i = 0; i < offset && i < text.length; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  return { line, column: offset - last };
}

/**
 * Parse JSON, reporting a problem instead of throwing: a syntax error with its line and column, a
 * value nested deeper than `MAX_DEPTH` (64) levels, or an object key `__proto__` (by JSON pointer).
 * Deeper values cannot be stored in the browser nor written back without overflowing the stack;
 * a `__proto__` key would be dropped without a word by every object it is copied into, or would
 * replace that object's prototype. A syntax error quotes at most the one character that is wrong,
 * never the file's text (V8's message quotes its first characters, which could be anything —
 * `/etc/passwd` behind a link, say).
 */
export function parseJson(file: SourceFile): { ok: true; value: unknown } | { ok: false; problem: Problem } {
  const text = withoutBom(file.text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = text.trim() === '' ? null : errorPosition(text, message);
    return {
      ok: false,
      problem: {
        severity: 'fatal',
        code: 'json.malformed',
        file: file.path,
        location: at ? `line ${at.line}, column ${at.column}` : '',
        message: text.trim() === '' ? 'the file is empty' : `not valid JSON: ${withoutExcerpt(message)}`,
      },
    };
  }
  const hazard = jsonHazard(value);
  if (!hazard) return { ok: true, value };
  return {
    ok: false,
    problem:
      hazard.kind === 'deep'
        ? {
            severity: 'fatal',
            code: 'json.too-deep',
            file: file.path,
            location: pointer(hazard.path),
            message: `nested more than ${MAX_DEPTH} levels deep (the limit for every file Traversa reads)`,
          }
        : {
            severity: 'fatal',
            code: 'json.reserved-key',
            file: file.path,
            location: pointer(hazard.path),
            message: 'the key "__proto__" cannot be kept (objects would drop it or take it as their prototype); rename or remove it',
          },
  };
}

/** V8's reason without the excerpt of the text it may quote (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`). */
const withoutExcerpt = (message: string): string =>
  message
    .replace(/^JSON\.parse: /, '')
    .split(/, (?:\.\.\.)?"| in JSON at position \d| at position \d/)[0]!
    .slice(0, 120);

/** Where the syntax error is: V8's position when it gives one, else where a strict parser stops. */
function errorPosition(text: string, message: string): { line: number; column: number } | null {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  if (pos) return lineColumn(text, Number(pos[1]));
  const strict = pyJsonLoads(text);
  return strict.ok ? null : lineColumn(text, strict.offset);
}

type Hazard = { kind: 'deep' | 'proto'; path: (string | number)[] };

/**
 * The first place a parsed value nests deeper than `MAX_DEPTH` or has a `__proto__` key. Almost
 * every file has neither: the first walk builds no paths (it would double the cost of a parse),
 * and only a file that fails it is walked again to name the place. Iterative: neither overflows.
 */
function jsonHazard(value: unknown): Hazard | null {
  return hasHazard(value) ? locateHazard(value) : null;
}

function hasHazard(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const values: object[] = [value],
    depths: number[] = [0];
  while (values.length) {
    const v = values.pop()!,
      depth = depths.pop()!;
    if (depth >= MAX_DEPTH || (!Array.isArray(v) && Object.hasOwn(v, '__proto__'))) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof x === 'object' && x !== null) {
        values.push(x);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

function locateHazard(value: unknown): Hazard | null {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (path.length >= MAX_DEPTH) return { kind: 'deep', path };
    if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push({ v: x, path: [...path, i] }));
      continue;
    }
    if (Object.hasOwn(v, '__proto__')) return { kind: 'proto', path: [...path, '__proto__'] };
    for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: [...path, k] });
  }
  return null;
}

/** Check a parsed value against a schema; every issue becomes a fatal problem at its JSON pointer. */
export function checkShape<T>(
  file: string,
  value: unknown,
  schema: z.ZodType<T>,
  base: (string | number)[] = [],
): { ok: true; value: T } | { ok: false; problems: Problem[] } {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return { ok: true, value: r.data };
  return {
    ok: false,
    problems: r.error.issues.map((issue) => ({
      severity: 'fatal' as const,
      code: 'schema',
      file,
      location: pointer([...base, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))]),
      message: describeIssue(issue),
    })),
  };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length ? `"${String(issue.path[issue.path.length - 1])}"` : 'the file';
  if (issue.code === 'invalid_type') {
    const received = (issue as { input?: unknown }).input;
    return received === undefined ? `${field} is missing (expected ${issue.expected})` : `${field} should be ${issue.expected}, not ${describe(received)}`;
  }
  return `${field}: ${issue.message}`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? v.slice(0, 37) + '…' : v)}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

/** Keys of `obj` other than `known`, with their values: fields we keep but do not model. */
export function extraFields(obj: Record<string, unknown>, known: readonly string[]): Record<string, unknown> | undefined {
  // No entry arrays: a large release reads this for ~100,000 objects.
  let extra: Record<string, unknown> | undefined;
  for (const k in obj) if (Object.hasOwn(obj, k) && !known.includes(k)) (extra ??= {})[k] = obj[k];
  return extra;
}
