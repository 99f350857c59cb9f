/**
 * The one CSV writer: every CSV the studio or the command line produces goes through it.
 *
 * RFC 4180 quoting (fields with commas, quotes or line breaks quoted, quotes doubled), and the
 * OWASP rule against formula injection: a text cell that a spreadsheet would evaluate — one
 * starting with `=`, `+`, `-` or `@` (after any leading white space), or with a tab or carriage
 * return — is written with a leading `'` and quoted, so it opens as the text it is. Model names,
 * reasons, raw answers and file paths come from outside and may be such text.
 *
 * Numbers we computed are written as numbers, negative ones included: `-0.5` is a value, not a
 * formula, and a spreadsheet should sort and sum it. Only JavaScript numbers get that pass; a
 * string that looks like a number is text from outside and neutralised like any other.
 */
const EVALUATED = /^(?:\s*[=+\-@]|[\t\r])/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let s = String(value);
  if (EVALUATED.test(s)) s = `'${s}`;
  else if (!NEEDS_QUOTES.test(s)) return s;
  return `"${s.replace(/"/g, '""')}"`;
}

/** A header row and data rows as CSV text, CRLF line ends (RFC 4180), ending with a line break. */
export function csvTable(header: readonly string[], rows: Iterable<readonly unknown[]>): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}
