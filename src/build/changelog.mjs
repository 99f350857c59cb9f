// CHANGELOG.md from the commit subjects (`npm run changelog`): every commit, newest first, by day.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const log = execFileSync('git', ['log', '--format=%ad %s', '--date=short'], { cwd: process.cwd(), encoding: 'utf8', maxBuffer: 1 << 26 });
const LIMIT = 160;
// Clause boundaries outside brackets: ": ", "; ", " — ", " – ".
function boundaries(s) {
  const out = [];
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (depth === 0) {
      if ((c === ':' || c === ';') && s[i + 1] === ' ') out.push(i);
      else if ((c === '—' || c === '–') && s[i - 1] === ' ' && s[i + 1] === ' ') out.push(i - 1);
    }
  }
  return out;
}
function shorten(s) {
  if (s.length <= LIMIT) return s;
  const b = boundaries(s);
  // The first clause; a lead-in too short to say anything ("Review mends") takes the next one too.
  let cut = b.find((i) => i >= 30);
  if (cut !== undefined && cut <= LIMIT) return s.slice(0, cut).trimEnd();
  // A parenthesis that opens after the main clause ends it.
  const paren = s.indexOf(' (', 30);
  if (paren > 0 && paren <= LIMIT) return s.slice(0, paren);
  // No clause boundary early enough: cut at the last comma (outside brackets) before the limit.
  let depth = 0,
    comma = -1;
  for (let i = 0; i < LIMIT; i++) {
    const c = s[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (depth === 0 && c === ',' && s[i + 1] === ' ' && i >= 30) comma = i;
  }
  if (comma > 0) return s.slice(0, comma);
  const sp = s.lastIndexOf(' ', LIMIT);
  return s.slice(0, sp) + ' …';
}
const byDate = new Map();
for (const line of log.split('\n')) {
  if (!line) continue;
  const date = line.slice(0, 10),
    subject = line.slice(11);
  if (!byDate.has(date)) byDate.set(date, []);
  byDate.get(date).push(shorten(subject));
}
let md =
  "# Changelog\n\nEvery commit, newest first, grouped by day: built from `git log --format='%ad %s' --date=short`.\nSubjects over ~160 characters are cut to their first clause; `git log` has them whole.\n";
for (const [date, subjects] of byDate) {
  md += `\n## ${date}\n\n`;
  for (const s of subjects) md += `- ${s}\n`;
}
writeFileSync('CHANGELOG.md', md);
const all = [...byDate.values()].flat();
console.log(`CHANGELOG.md: ${all.length} commits`);
