import type { Problem } from '../core/problems.ts';
import type { Stat } from '../core/scoring/vqa/embodied4c.ts';
import type { KindAccuracy, QaAnswersReport, QaModelReport } from '../core/scoring/vqa/qaAnswers.ts';
import { table } from './tables.ts';

const num = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
const stat = (s: Stat | undefined) => (!s || s.mean === null ? '–' : s.ci ? `${num(s.mean)} [${num(s.ci[0])}, ${num(s.ci[1])}]` : num(s.mean));
const acc = (k: KindAccuracy) => (k.n ? num(k.accuracy) : '–');
const fail = (k: KindAccuracy) => (k.n ? num(k.failRate) : '–');
const list = (ids: readonly string[], max = 10) => ids.slice(0, max).join(', ') + (ids.length > max ? `, … (${ids.length} in all)` : '');

function capabilityRow(m: QaModelReport): (string | number)[] {
  const b = m.embodied4c.benchmarks[Object.keys(m.embodied4c.benchmarks)[0] ?? ''];
  const c = b?.capabilities;
  return [m.model, m.items.length, stat(c?.semantic), stat(c?.spatial), stat(c?.temporal), stat(c?.physical), stat(b?.vqa), stat(m.embodied4c.general),
    m.outside.n ? `${num(m.outside.mean)} (${m.outside.n})` : '–'];
}

function kindRow(m: QaModelReport): (string | number)[] {
  return [m.model, acc(m.mcq), fail(m.mcq), acc(m.yesno), fail(m.yesno), m.numeric.n ? num(m.numeric.mean) : '–',
    m.freetext.n ? `${m.freetext.judged}/${m.freetext.n}` : '–', m.missing.length, m.unmatched.length, m.duplicates.length];
}

/** The report as text: the capability table and the answer-kind table, one row per model, then what each model left out or added. */
export function formatQaSummary(r: QaAnswersReport, problems: readonly Problem[]): string {
  if (r.models.length === 0) return `no answers were scored (${r.items} ground-truth items)\n`;
  const s = r.settings;
  const out: string[] = [
    `QA answers scored against ${r.items} ground-truth item${r.items === 1 ? '' : 's'} (percent, Embodied4C definitions).`,
    `VQA = ${s.averaging === 'macro' ? 'mean of the four capability means (macro)' : 'mean of all capability items pooled (micro)'}; GEN (general knowledge) reported apart. ` +
      `Numeric τ: ${s.tau === 'per item' ? "each item's own tolerance" : s.tau}. Items without an answer score 0; of repeated answers the last one counts.`,
  ];
  if (s.bootstrap.resamples > 0) out.push(`[lo, hi]: ${Math.round(s.bootstrap.level * 100)} % bootstrap intervals, ${s.bootstrap.resamples} resamples, seed ${s.bootstrap.seed}.`);
  out.push('', table(['model', 'items', 'SEM', 'SPA', 'TEM', 'PHY', 'VQA', 'GEN', 'outside (n)'], r.models.map(capabilityRow)));
  out.push('', table(['model', 'MCQ acc', 'MCQ fail', 'Y/N acc', 'Y/N fail', 'numeric', 'free judged', 'missing', 'unmatched', 'duplicates'], r.models.map(kindRow)));
  for (const m of r.models) {
    const notes: string[] = [];
    if (m.missing.length) notes.push(`  no answer (scored 0): ${list(m.missing)}`);
    if (m.unmatched.length) notes.push(`  answers to no item (not scored): ${list(m.unmatched.map((u) => u.id))}`);
    if (m.duplicates.length) notes.push(`  answered more than once (the last counts): ${list(m.duplicates.map((d) => `${d.id} ×${d.count}`))}`);
    if (m.freetext.notJudged) notes.push(`  free-text answers not judged (left out of the means): ${m.freetext.notJudged}`);
    if (m.outside.n) notes.push(`  ${m.outside.n} item(s) outside the Embodied4C capabilities (${m.outside.capabilities.join(', ')}): scored, not in SEM–PHY, VQA or GEN`);
    if (notes.length) out.push('', `${m.model}:`, ...notes);
  }
  const bad = problems.filter((p) => p.severity !== 'warning').length;
  if (problems.length) out.push('', `${bad} error(s) and ${problems.length - bad} warning(s) reading the files (listed on stderr).`);
  return out.join('\n') + '\n';
}
