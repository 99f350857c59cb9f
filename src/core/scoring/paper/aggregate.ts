import { REASONS, type ReasonCategory } from '../../rules.ts';
import { bootstrapIntervals, type BootstrapSettings } from '../bootstrap.ts';
import { addTo, emptyTally, isUnjudged, macroSet, merge, metricSet } from './metrics.ts';
import {
  FAILURE_MODES,
  METRICS,
  type Averaging,
  type FailureMode,
  type MetricSet,
  type ObstacleAccuracy,
  type Outcome,
  type PaperReport,
  type ScoredRecord,
  type Weights,
} from './types.ts';

export type Aggregates = Pick<
  PaperReport,
  'overall' | 'perAgent' | 'macro' | 'headline' | 'confusion' | 'byObstacle' | 'failureModes' | 'errorCounts' | 'unjudged'
>;

/**
 * Every aggregate of the scored records (status `scored` only): overall (pooled), per agent in
 * `agents` order, the macro mean over agents, the confusion matrix, accuracy by obstacle type,
 * failure-mode and error counts, and — when asked — bootstrap intervals for every metric of
 * every breakdown.
 */
export function aggregate(
  records: readonly ScoredRecord[],
  agents: readonly string[],
  weights: Weights,
  averaging: Averaging,
  bootstrap: BootstrapSettings,
  judged: boolean,
): Aggregates {
  const slot = new Map(agents.map((a, i) => [a, i]));
  const groups: ScoredRecord[][] = agents.map(() => []);
  const tallies = agents.map(() => emptyTally());
  for (const r of records) {
    const i = slot.get(r.agent)!;
    groups[i]!.push(r);
    addTo(tallies[i]!, r);
  }
  const total = emptyTally();
  for (const t of tallies) merge(total, t);
  const perAgentSets = tallies.map((t) => metricSet(t, weights));
  const overall = metricSet(total, weights);
  const macro = macroSet(perAgentSets);
  const perAgent: Record<string, MetricSet> = {};
  agents.forEach((a, i) => {
    perAgent[a] = perAgentSets[i]!;
  });

  if (bootstrap.resamples > 0) attachIntervals(groups, agents, weights, bootstrap, { overall, macro, perAgent });

  return {
    overall,
    perAgent,
    macro,
    headline: averaging === 'macro' ? macro : overall,
    confusion: { tp: total.tp, fp: total.fp, tn: total.tn, fn: total.fn },
    byObstacle: obstacleAccuracy(records, judged),
    failureModes: failureModeCounts(records),
    errorCounts: errorCounts(records),
    unjudged: unjudgedOf(records),
  };
}

/** Records whose RV is unknown because the judge failed on them, by the judge's error. */
function unjudgedOf(records: readonly ScoredRecord[]): Aggregates['unjudged'] {
  const why = new Map<string, number>();
  for (const r of records) if (isUnjudged(r)) why.set(r.judge!.error!, (why.get(r.judge!.error!) ?? 0) + 1);
  // fromEntries keeps an error text such as "__proto__" as a key, never as the object's prototype.
  return { count: [...why.values()].reduce((a, b) => a + b, 0), why: Object.fromEntries(why) };
}

/**
 * Percentile bootstrap. Records are resampled with replacement within each agent, so every
 * resample keeps each agent's number of records (the per-agent and macro figures are then
 * resampled the way they were measured).
 */
function attachIntervals(
  groups: ScoredRecord[][],
  agents: readonly string[],
  weights: Weights,
  settings: BootstrapSettings,
  sets: { overall: MetricSet; macro: MetricSet; perAgent: Record<string, MetricSet> },
): void {
  // Columns of what the metrics read (NaN = not applicable), so a resample is a loop over typed arrays.
  const cols = groups.map((rs) => ({
    outcome: Uint8Array.from(rs, (r) => OUTCOME_CODE[r.outcome!]),
    parseable: Uint8Array.from(rs, (r) => (r.parseable ? 1 : 0)),
    valid: Uint8Array.from(rs, (r) => (r.pathValid ? 1 : 0)),
    rta: Float64Array.from(rs, (r) => r.rta ?? NaN),
    rv: Float64Array.from(rs, (r) => r.rv ?? NaN),
    unjudged: Uint8Array.from(rs, (r) => (isUnjudged(r) ? 1 : 0)),
  }));
  const ci = bootstrapIntervals<string>(
    groups.map((g) => g.length),
    settings,
    (indices) => {
      const out: Record<string, number | null> = {};
      const total = emptyTally();
      const sets: MetricSet[] = [];
      indices.forEach((idx, g) => {
        const c = cols[g]!;
        const t = emptyTally();
        for (let k = 0; k < idx.length; k++) {
          const i = idx[k]!;
          const o = c.outcome[i]!;
          if (o === 0) t.tp++;
          else if (o === 1) t.fp++;
          else if (o === 2) t.tn++;
          else t.fn++;
          if (c.parseable[i]) {
            t.parseable++;
            if (c.valid[i]) t.pvValid++;
          }
          const rta = c.rta[i]!,
            rv = c.rv[i]!;
          if (rta === rta) {
            t.rtaSum += rta;
            t.rtaN++;
          }
          if (rv === rv) {
            t.rvSum += rv;
            t.rvN++;
          } else if (c.unjudged[i]) t.rvUnknown++;
        }
        t.records = idx.length;
        merge(total, t);
        const s = metricSet(t, weights);
        sets.push(s);
        for (const m of METRICS) out[`agent:${agents[g]}:${m}`] = s[m];
      });
      const o = metricSet(total, weights),
        mac = macroSet(sets);
      for (const m of METRICS) {
        out[`overall:${m}`] = o[m];
        out[`macro:${m}`] = mac[m];
      }
      return out;
    },
  );
  // No interval for a withheld value (RV and composite where the judge failed on some records).
  const pickCi = (prefix: string, set: MetricSet) => {
    const got: MetricSet['ci'] = {};
    for (const m of METRICS) {
      const v = ci[`${prefix}:${m}`];
      if (v && set[m] !== null) got[m] = v;
    }
    return got;
  };
  sets.overall.ci = pickCi('overall', sets.overall);
  sets.macro.ci = pickCi('macro', sets.macro);
  for (const a of agents) sets.perAgent[a]!.ci = pickCi(`agent:${a}`, sets.perAgent[a]!);
}

const OUTCOME_CODE: Record<Outcome, number> = { TP: 0, FP: 1, TN: 2, FN: 3 };

/**
 * CapNav Fig. 5: over tasks the agent cannot do, per obstacle type on their work list, how often
 * the model said "no" with a reason the judge accepted. Without a judge only the "no" counts.
 */
function obstacleAccuracy(records: readonly ScoredRecord[], judged: boolean): Record<ReasonCategory, ObstacleAccuracy> {
  const out = Object.fromEntries(REASONS.map((c) => [c, { n: 0, correct: 0, accuracy: null, answeredNo: 0 }])) as Record<ReasonCategory, ObstacleAccuracy>;
  for (const r of records) {
    if (r.gtFeasible !== false) continue;
    for (const c of r.obstacleTypes) {
      const o = out[c];
      o.n++;
      if (r.answer === 'no') {
        o.answeredNo++;
        if (!judged || r.rv === 1) o.correct++;
      }
    }
  }
  for (const o of Object.values(out)) o.accuracy = o.n ? (100 * o.correct) / o.n : null;
  return out;
}

function failureModeCounts(records: readonly ScoredRecord[]): Record<FailureMode, number> {
  const out = Object.fromEntries(FAILURE_MODES.map((m) => [m, 0])) as Record<FailureMode, number>;
  for (const r of records) for (const m of r.failureModes) out[m]++;
  return out;
}

/** Records with each kind of error (a record counts once per kind). */
function errorCounts(records: readonly ScoredRecord[]): Record<string, number> {
  const out: Record<string, number> = {
    'unparseable-answer': 0,
    'empty-path': 0,
    'unknown-node': 0,
    'no-edge': 0,
    'wrong-start': 0,
    'wrong-end': 0,
    'repeated-node': 0,
    'yes-with-invalid-path': 0,
    'no-without-route': 0,
    'no-without-reason': 0,
    'judge-rejected': 0,
    'judge-failed': 0,
    'rta-below-1': 0,
  };
  for (const r of records) {
    if (!r.parseable) out['unparseable-answer']!++;
    if (r.pathErrors.length) for (const kind of new Set(r.pathErrors.map((e) => (e.kind === 'empty' ? 'empty-path' : e.kind)))) out[kind]!++;
    if (r.answer === 'yes' && r.pathValid === false) out['yes-with-invalid-path']!++;
    if (r.rvRule === 'no-route') out['no-without-route']!++;
    if (r.rvRule === 'no-reason') out['no-without-reason']!++;
    if (r.judge?.error) out['judge-failed']!++;
    else if (r.judge && !r.judge.correct) out['judge-rejected']!++;
    if (r.rta !== null && r.rta < 1) out['rta-below-1']!++;
  }
  return out;
}
