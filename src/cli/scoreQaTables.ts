import type { Problem } from '../core/problems.ts';
import type { Stat } from '../core/scoring/vqa/embodied4c.ts';
import { vqaDefinition, type KindAccuracy, type QaAnswersReport, type QaModelReport } from '../core/scoring/vqa/qaAnswers.ts';
import type { FomerReport } from '../core/scoring/vqa/trails.ts';
import type { SameModel } from '../formats/qa/answers.ts';
import { fomerCriterionRows, fomerSubsetRows, fomerSummary, type FomerCell } from '../core/scoring/vqa/trailsTable.ts';
import { table } from './tables.ts';

const num = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
const stat = (s: Stat | undefined) => (!s || s.mean === null ? '–' : s.ci ? `${num(s.mean)} [${num(s.ci[0])}, ${num(s.ci[1])}]` : num(s.mean));
const acc = (k: KindAccuracy) => (k.n ? num(k.accuracy) : '–');
const fail = (k: KindAccuracy) => (k.n ? num(k.failRate) : '–');
const list = (ids: readonly string[], max = 10) => ids.slice(0, max).join(', ') + (ids.length > max ? `, … (${ids.length} in all)` : '');

function capabilityRow(m: QaModelReport): (string | number)[] {
  const b = m.embodied4c.benchmarks[Object.keys(m.embodied4c.benchmarks)[0] ?? ''];
  const c = b?.capabilities;
  return [
    m.model,
    m.items.length,
    stat(c?.semantic),
    stat(c?.spatial),
    stat(c?.temporal),
    stat(c?.physical),
    stat(b?.vqa),
    stat(m.embodied4c.general),
    m.outside.n ? `${num(m.outside.mean)} (${m.outside.n})` : '–',
  ];
}

function kindRow(m: QaModelReport): (string | number)[] {
  return [
    m.model,
    acc(m.mcq),
    fail(m.mcq),
    acc(m.yesno),
    fail(m.yesno),
    m.numeric.n ? num(m.numeric.mean) : '–',
    m.freetext.n ? `${m.freetext.judged}/${m.freetext.n}` : '–',
    m.missing.length,
    m.unmatched.length,
    m.duplicates.length,
  ];
}

/** The report as text: the capability table and the answer-kind table, one row per model, then what each model left out or added. */
export function formatQaSummary(r: QaAnswersReport, problems: readonly Problem[], sameModel: readonly SameModel[] = []): string {
  if (r.models.length === 0) return `no answers were scored (${r.items} ground-truth items)\n`;
  const s = r.settings;
  const out: string[] = [
    `QA answers scored against ${r.items} ground-truth item${r.items === 1 ? '' : 's'} (percent, Embodied4C definitions).`,
    `VQA = ${vqaDefinition(r)}; GEN (general knowledge) reported apart. ` +
      `Numeric τ: ${s.tau === 'per item' ? "each item's own tolerance" : s.tau}. Items without an answer score 0; of repeated answers the last one counts.`,
  ];
  if (s.bootstrap.resamples > 0)
    out.push(`[lo, hi]: ${Math.round(s.bootstrap.level * 100)} % bootstrap intervals, ${s.bootstrap.resamples} resamples, seed ${s.bootstrap.seed}.`);
  out.push('', table(['model', 'items', 'SEM', 'SPA', 'TEM', 'PHY', 'VQA', 'GEN', 'outside (n)'], r.models.map(capabilityRow)));
  out.push(
    '',
    table(['model', 'MCQ acc', 'MCQ fail', 'Y/N acc', 'Y/N fail', 'numeric', 'free judged', 'missing', 'unmatched', 'duplicates'], r.models.map(kindRow)),
  );
  for (const m of r.models) {
    const notes: string[] = [];
    if (m.missing.length) notes.push(`  no answer (scored 0): ${list(m.missing)}`);
    if (m.unmatched.length) notes.push(`  answers to no item (not scored): ${list(m.unmatched.map((u) => u.id))}`);
    if (m.duplicates.length) notes.push(`  answered more than once (the last counts): ${list(m.duplicates.map((d) => `${d.id} ×${d.count}`))}`);
    if (m.freetext.notJudged) notes.push(`  free-text answers not judged (left out of the means): ${m.freetext.notJudged}`);
    if (m.outside.n)
      notes.push(`  ${m.outside.n} item(s) outside the Embodied4C capabilities (${m.outside.capabilities.join(', ')}): scored, not in SEM–PHY, VQA or GEN`);
    if (notes.length) out.push('', `${m.model}:`, ...notes);
  }
  for (const s of sameModel) {
    out.push(
      '',
      `model "${s.model}" is named in ${s.files.length} files, each scored as its own model${s.sharedItems ? ` (${s.sharedItems} item${s.sharedItems === 1 ? '' : 's'} answered in more than one)` : ''}:`,
      ...s.files.map((f) => `  ${f.file}: ${f.answers} answer${f.answers === 1 ? '' : 's'}, scored as "${f.scoredAs}"`),
    );
  }
  const bad = problems.filter((p) => p.severity !== 'warning').length;
  if (problems.length) out.push('', `${bad} error(s) and ${problems.length - bad} warning(s) reading the files (listed on stderr).`);
  return out.join('\n') + '\n';
}

const cell = (c: FomerCell) => (c.value === null ? '–' : c.ci ? `${num(c.value)} [${num(c.ci[0])}, ${num(c.ci[1])}]` : num(c.value));

/** FoMER's reasoning scores as text: RA and FA per subset with their n, the macro (or micro) line, then RA per criterion. */
export function formatFomer(f: FomerReport): string {
  const out = [fomerSummary(f), ''];
  out.push(
    table(
      ['model', 'subset', 'RA', 'n', 'FA', 'n'],
      fomerSubsetRows(f).map((r) => [r.model, r.subset, cell(r.ra), r.nRa, cell(r.fa), r.nFa]),
    ),
  );
  const crit = fomerCriterionRows(f);
  out.push(
    '',
    table(
      ['criterion', ...f.models.map((m) => `${m.model} (n)`)],
      crit.map((r) => [r.criterion, ...r.cells.map((c) => `${cell(c)} (${c.n})`)]),
    ),
  );
  for (const m of f.models) {
    const c = m.counts;
    const notes: string[] = [];
    if (c.noAnswer) notes.push(`  no answer (not in RA; FA 0): ${c.noAnswer}`);
    if (c.noSteps) notes.push(`  answered without reasoning steps (not in RA): ${c.noSteps}`);
    if (c.noTrail) notes.push(`  items without a reasoning trail to judge against (not in RA): ${c.noTrail}`);
    const failed = m.items.filter((i) => i.ra === null && i.note && !/^(no answer|no reasoning steps|the item has no reasoning trail)/.test(i.note));
    if (failed.length)
      notes.push(
        `  not judged (not in RA): ${list(
          failed.map((i) => `${i.id} (${i.note})`),
          5,
        )}`,
      );
    if (notes.length) out.push('', `${m.model}: ${c.judged} of ${c.items} items in RA`, ...notes);
  }
  return out.join('\n') + '\n';
}
