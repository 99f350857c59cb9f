import type { z } from 'zod';
import { pointer, type Problem } from '../core/problems.ts';

/** A file handed to a reader: its path relative to the imported folder and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1, last = -1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) { line++; last = i; }
  return { line, column: offset - last };
}

/** Parse JSON, reporting a syntax error with its line and column instead of throwing. */
export function parseJson(file: SourceFile): { ok: true; value: unknown } | { ok: false; problem: Problem } {
  const text = file.text.charCodeAt(0) === 0xfeff ? file.text.slice(1) : file.text;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const lc = /line (\d+) column (\d+)/.exec(message);
    const pos = /position (\d+)/.exec(message);
    const at = lc ? { line: Number(lc[1]), column: Number(lc[2]) } : pos ? lineColumn(text, Number(pos[1])) : text.trim() === '' ? null : lineColumn(text, text.length);
    return {
      ok: false,
      problem: {
        severity: 'fatal', code: 'json.malformed', file: file.path,
        location: at ? `line ${at.line}, column ${at.column}` : '',
        message: text.trim() === '' ? 'the file is empty' : `not valid JSON: ${message.replace(/^JSON\.parse: /, '')}`,
      },
    };
  }
}

/** Check a parsed value against a schema; every issue becomes a fatal problem at its JSON pointer. */
export function checkShape<T>(file: string, value: unknown, schema: z.ZodType<T>, base: (string | number)[] = []):
  { ok: true; value: T } | { ok: false; problems: Problem[] } {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return { ok: true, value: r.data };
  return {
    ok: false,
    problems: r.error.issues.map((issue) => ({
      severity: 'fatal' as const, code: 'schema', file,
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
  const extra: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(obj)) if (!known.includes(k)) { extra[k] = v; any = true; }
  return any ? extra : undefined;
}
