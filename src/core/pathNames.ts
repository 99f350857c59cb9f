/**
 * Names that become paths. Scene ids end up in file names (`graphs/<SCENE>-graph.json`,
 * `capnav/<SCENE>_QA.json`) inside zips and folders; an id such as `../../../../tmp/zipslip`
 * would make a naive extractor (or a plain `join`) write outside the folder it was given. These
 * two checks are the one rule for that: at import for ids, and in the zip writer for every entry.
 */

const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `part` cannot be one component of a file name (a folder separator, `.`/`..`, a control character), or null. */
export function pathPartProblem(part: string): string | null {
  if (/[/\\]/.test(part)) return 'contains a folder separator (/ or \\)';
  if (part === '.' || part === '..') return `is "${part}", which names a folder`;
  if (CONTROL.test(part)) return 'contains a control character';
  return null;
}

/**
 * Why `path` is not a safe relative name for a zip entry or a file under an output folder, or
 * null: it must be relative (no leading `/`, no drive letter such as `C:`), use `/` only (a
 * backslash is a separator to Windows extractors), have no empty, `.` or `..` segment, and no
 * NUL or other control character.
 */
export function relativePathProblem(path: string): string | null {
  if (path === '') return 'is empty';
  if (CONTROL.test(path)) return 'contains a control character';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/')) return 'is absolute';
  if (/^[A-Za-z]:/.test(path)) return 'starts with a drive letter';
  for (const segment of path.split('/')) {
    if (segment === '..') return 'has a ".." segment, which leads out of its folder';
    if (segment === '.' || segment === '') return 'has an empty or "." segment';
  }
  return null;
}
