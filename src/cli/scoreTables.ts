import { pooledRowName, REFERENCE_COLUMNS, referenceRows, type CompatSummary } from '../core/scoring/compat/index.ts';
import { REASON_LABEL, REASONS } from '../core/rules.ts';
import type { PaperSummary } from '../core/scoring/paper/export.ts';
import { unjudgedText } from '../core/scoring/paper/unjudged.ts';
import type { MetricName, MetricSet } from '../core/scoring/paper/types.ts';
import { table } from './tables.ts';

const num = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
const withCi = (m: MetricSet, k: MetricName) => {
  // Withheld (the judge failed on some records): the range, every unjudged reason wrong … right.
  const range = k === 'rv' || k === 'capnav' ? m.incomplete?.[k] : undefined;
  if (m[k] === null && range !== undefined) return range ? `withheld (${num(range[0])}…${num(range[1])})` : 'withheld';
  const ci = m.ci?.[k];
  return ci ? `${num(m[k])} [${num(ci[0])}, ${num(ci[1])}]` : num(m[k]);
};

function metricRows(name: string, m: MetricSet): string[] {
  return [name, String(m.n.records), withCi(m, 'f1'), withCi(m, 'pv'), withCi(m, 'rta'), withCi(m, 'rv'), withCi(m, 'capnav')];
}

/** The paper-mode summary as text: per model, the metric table, confusion, failure modes, obstacles. */
export function formatPaperSummary(s: { models: Record<string, PaperSummary>; problems: unknown[] }): string {
  const out: string[] = [];
  const models = Object.entries(s.models);
  if (models.length === 0) return 'no predictions were scored\n';
  const first = models[0]![1].settings;
  const w = first.weights;
  out.push(`CapNav scores, paper definitions (percent). RV judge: ${first.judge.label}.`);
  out.push(`Composite = ${w.f1}·F1 + ${w.pv}·PV + ${w.rta}·RTA + ${w.rv}·RV (a missing component is left out and the weights renormalised).`);
  if (first.bootstrap.resamples > 0)
    out.push(
      `[lo, hi]: ${Math.round(first.bootstrap.level * 100)} % bootstrap intervals, ${first.bootstrap.resamples} resamples, seed ${first.bootstrap.seed}.`,
    );
  for (const [model, r] of models) {
    out.push('', `== ${model} ==`);
    out.push(
      `${r.counts.records} records scored; ${r.counts.unmatched} unmatched; ${r.excludedHallucinated} on hallucinated questions and ${r.excludedUnresolved} on unresolved questions excluded`,
    );
    const rows = [
      ...Object.entries(r.perAgent).map(([a, m]) => metricRows(a, m)),
      metricRows('overall (micro)', r.overall),
      metricRows('macro over agents', r.macro),
    ];
    if (r.unjudged.count) out.push(unjudgedText(r.unjudged, r.counts.records));
    out.push(table(['agent', 'records', 'Feas-F1', 'PV', 'RTA', 'RV', 'CapNav'], rows));
    const c = r.confusion;
    out.push(`confusion: TP ${c.tp}  FP ${c.fp}  TN ${c.tn}  FN ${c.fn}   precision ${num(r.overall.precision)}  recall ${num(r.overall.recall)}`);
    out.push(
      `failure modes: ${Object.entries(r.failureModes)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    const errors = Object.entries(r.errorCounts).filter(([, v]) => v > 0);
    if (errors.length) out.push(`errors: ${errors.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    const obstacles = REASONS.filter((c2) => r.byObstacle[c2].n > 0).map((c2) => [
      REASON_LABEL[c2],
      r.byObstacle[c2].n,
      r.byObstacle[c2].answeredNo,
      r.byObstacle[c2].correct,
      num(r.byObstacle[c2].accuracy),
    ]);
    if (obstacles.length) out.push('', table(['obstacle (infeasible tasks)', 'tasks', 'said no', 'no + reason ok', 'accuracy'], obstacles));
  }
  if (s.problems.length) out.push('', `${s.problems.length} problem(s) with the predictions: see scored_summary.json`);
  return out.join('\n') + '\n';
}

/**
 * The reference-compatible summaries as text: one row per model folder (what the released scorer
 * prints when run on that folder) and the pooled row (what it prints when run on the whole root).
 */
export function formatReferenceSummary(pooled: CompatSummary, perModel: readonly [string, CompatSummary][], root: string): string {
  const pooledName = pooledRowName(perModel.length);
  const b = pooled.binary_classification;
  const lines = [
    'CapNav scores as the released Python scorer computes them (--compat reference; every reason is dropped, so RV is 0).',
    table([...REFERENCE_COLUMNS], referenceRows({ pooled, perModel: [...perModel] })),
    perModel.length
      ? `Each model row is what the released scorer prints when run on ${root}/<model> (scored_<model>_summary.json); "${pooledName}" is what it prints for ${root} itself, every model's records together (scored_summary.json, scored_per_record.jsonl).`
      : `What the released scorer prints for ${root} (scored_summary.json, scored_per_record.jsonl).`,
    `confusion${perModel.length ? ' (pooled)' : ''}: TP ${b.TP}  FP ${b.FP}  TN ${b.TN}  FN ${b.FN}`,
    Object.keys(pooled.fail_reason_count).length
      ? `failed records${perModel.length ? ' (pooled)' : ''}: ${Object.entries(pooled.fail_reason_count)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`
      : '',
  ];
  return lines.filter(Boolean).join('\n') + '\n';
}
