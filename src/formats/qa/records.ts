import type { Problem } from '../../core/problems.ts';
import { pointer } from '../../core/problems.ts';
import type { QaFinding } from '../../core/vqa/checks.ts';
import { parseJson, type SourceFile } from '../json.ts';
import { withoutBom } from '../text.ts';

/**
 * Records of a JSON or JSON Lines file, each with a way to say where it is: `/3/answer/kind` in a
 * JSON file (under `/items` when the list is wrapped), `line 4 /answer/kind` in a JSON Lines file.
 */
export interface Located {
  value: unknown;
  /** Location of a path inside the record, in the file's own terms. */
  at: (path?: readonly (string | number)[]) => string;
  /** The path prefix of the record for checkShape (JSON files only; empty for JSON Lines). */
  base: (string | number)[];
}

export const isJsonLines = (path: string) => /\.(jsonl|ndjson)$/i.test(path);

/**
 * Split a file into records. A JSON file holds a list, or an object whose `listKey` is the list
 * (its other top-level fields are returned as `top`). A JSON Lines file holds one record per line;
 * blank lines are skipped. Syntax errors are fatal problems at their line and column.
 */
export function recordsOf(file: SourceFile, listKey: string): { records: Located[]; top: Record<string, unknown>; problems: Problem[] } {
  if (isJsonLines(file.path)) return jsonLines(file);
  const parsed = parseJson(file);
  if (!parsed.ok) return { records: [], top: {}, problems: [parsed.problem] };
  const v = parsed.value;
  const wrapped = v !== null && typeof v === 'object' && !Array.isArray(v) && Array.isArray((v as Record<string, unknown>)[listKey]);
  const list = Array.isArray(v) ? v : wrapped ? (v as Record<string, unknown[]>)[listKey]! : null;
  if (!list) {
    return {
      records: [],
      top: {},
      problems: [
        { severity: 'fatal', code: 'schema', file: file.path, location: '', message: `expected a list of items, or an object with an "${listKey}" list` },
      ],
    };
  }
  const prefix: (string | number)[] = wrapped ? [listKey] : [];
  const top = wrapped ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([k]) => k !== listKey)) : {};
  return {
    records: list.map((value, i) => ({ value, base: [...prefix, i], at: (path = []) => pointer([...prefix, i, ...path]) })),
    top,
    problems: [],
  };
}

function jsonLines(file: SourceFile): { records: Located[]; top: Record<string, unknown>; problems: Problem[] } {
  const records: Located[] = [],
    problems: Problem[] = [];
  const text = withoutBom(file.text);
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const n = i + 1;
    const parsed = parseJson({ path: file.path, text: line });
    if (!parsed.ok) {
      problems.push({ ...parsed.problem, location: parsed.problem.location.replace(/^line 1\b/, `line ${n}`) || `line ${n}` });
      return;
    }
    records.push({ value: parsed.value, base: [], at: (path = []) => (path.length ? `line ${n} ${pointer(path)}` : `line ${n}`) });
  });
  return { records, top: {}, problems };
}

/** Re-base checkShape's pointers (relative to the record for JSON Lines) onto the record's location. */
export function relocate(problems: readonly Problem[], rec: Located): Problem[] {
  if (rec.base.length) return [...problems];
  return problems.map((p) => ({
    ...p,
    location: rec.at(
      p.location
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')),
    ),
  }));
}

/** A finding on an item built from a record, as a problem at the matching place in the record. */
export function findingProblem(f: QaFinding, file: string, rec: Located, fieldMap: (field: string) => (string | number)[] = defaultFieldPath): Problem {
  return { severity: f.severity, code: f.code, file, location: rec.at(fieldMap(f.field)), message: f.message };
}

export const defaultFieldPath = (field: string): (string | number)[] => field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k));

/** Keys of a record object outside `known`, as warnings: a misspelt field should not pass unseen. */
export function unknownFields(file: string, rec: Located, value: unknown, known: readonly string[], path: (string | number)[] = []): Problem[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.keys(value)
    .filter((k) => !known.includes(k))
    .map((k) => ({
      severity: 'warning' as const,
      code: 'qa.unknown-field',
      file,
      location: rec.at([...path, k]),
      message: `"${k}" is not a field of this format; ignored`,
    }));
}

/** The most an imported record's fields may hold (issue 25 §12: a 20 MB question froze the page for 31 s). */
export const FIELD_LIMITS = Object.freeze({
  /** Characters of a question. */
  question: 4_000,
  /** Characters of any other text (a trail step, an answer's reference, a label, an id). */
  text: 20_000,
  /** Entries of any list in a record (trail steps, marks, viewpoints, options, anchors). */
  list: 1_000,
  /** Records in one import, all files together. */
  records: 50_000,
});

/**
 * Every string and list of a record past FIELD_LIMITS, as a fatal problem at its place, before the
 * record is examined further (so no check, comparison or drawing ever meets a 20 MB string).
 * `question`: the record's field that holds the question.
 */
export function oversizedFields(file: string, rec: Located, question = 'question'): Problem[] {
  const problems: Problem[] = [];
  const n = (v: number) => v.toLocaleString('en');
  const walk = (v: unknown, path: (string | number)[], depth: number): void => {
    if (problems.length >= 10 || depth > 64) return;
    if (typeof v === 'string') {
      const isQuestion = path.length === 1 && path[0] === question;
      const limit = isQuestion ? FIELD_LIMITS.question : FIELD_LIMITS.text;
      if (v.length > limit)
        problems.push({
          severity: 'fatal',
          code: 'qa.too-large',
          file,
          location: rec.at(path),
          message: `${n(v.length)} characters; ${isQuestion ? 'a question' : 'a text field'} holds at most ${n(limit)}`,
        });
    } else if (Array.isArray(v)) {
      if (v.length > FIELD_LIMITS.list) {
        problems.push({
          severity: 'fatal',
          code: 'qa.too-large',
          file,
          location: rec.at(path),
          message: `${n(v.length)} entries; a list holds at most ${n(FIELD_LIMITS.list)}`,
        });
        return;
      }
      v.forEach((x, i) => walk(x, [...path, i], depth + 1));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.length > FIELD_LIMITS.text)
          problems.push({ severity: 'fatal', code: 'qa.too-large', file, location: rec.at(path), message: `a field name of ${n(k.length)} characters` });
        else walk(x, [...path, k], depth + 1);
      }
    }
  };
  walk(rec.value, [], 0);
  return problems;
}
