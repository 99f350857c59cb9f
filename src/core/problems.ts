/**
 * Problems found while reading, checking or importing data. Every bad record is reported by the
 * file it came from and a location inside it, and never silently repaired.
 *
 * Severity:
 * - `fatal`: the input cannot be turned into a consistent document (malformed JSON, wrong types,
 *   duplicate ids). An import with any fatal problem applies nothing.
 * - `error`: the document is representable but wrong as a benchmark (a question reference that
 *   matches no node, an edge to a missing node, a label on a segment that is not an edge). It
 *   imports, and is listed.
 * - `warning`: suspicious but usable (the two directions of a segment disagree, a label key the
 *   tool does not understand, which is kept verbatim).
 */
export type Severity = 'fatal' | 'error' | 'warning';

export interface Problem {
  severity: Severity;
  /** Stable machine-readable kind, e.g. `json.malformed`, `question.unresolved-ref`. */
  code: string;
  /** Path of the file, relative to the imported folder (e.g. `qa/HM3D00003_QA.json`). */
  file: string;
  /** JSON pointer inside the file (`/3/nodes_involved/end`), or `line 4, column 9` for syntax errors, or `` for the whole file. */
  location: string;
  message: string;
}

export const hasBlocking = (problems: readonly Problem[]): boolean => problems.some((p) => p.severity === 'fatal');
export const hasErrors = (problems: readonly Problem[]): boolean => problems.some((p) => p.severity !== 'warning');

/** JSON pointer (RFC 6901) for a path of keys and indices. */
export function pointer(path: readonly (string | number | symbol)[]): string {
  return path.map((k) => '/' + String(k).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function formatProblem(p: Problem): string {
  const where = p.location ? `${p.file} ${p.location}` : p.file;
  return `${where}: ${p.severity}: ${p.message}`;
}
