import type { MetricName, MetricSet, ScoredRecord, Weights } from './types.ts';

/** Sufficient statistics of a set of records: every metric is a function of these. */
export interface Tally {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  records: number;
  parseable: number;
  pvValid: number;
  rtaSum: number;
  rtaN: number;
  rvSum: number;
  rvN: number;
  /** Records whose reason the judge failed to judge: their RV is unknown, not absent. */
  rvUnknown: number;
}

export const emptyTally = (): Tally => ({
  tp: 0,
  fp: 0,
  tn: 0,
  fn: 0,
  records: 0,
  parseable: 0,
  pvValid: 0,
  rtaSum: 0,
  rtaN: 0,
  rvSum: 0,
  rvN: 0,
  rvUnknown: 0,
});

/** What the metrics read of a scored record. */
export type Counted = Pick<ScoredRecord, 'outcome' | 'parseable' | 'pathValid' | 'rta' | 'rv' | 'judge'>;

export function addTo(t: Tally, r: Counted): void {
  t.records++;
  const o = r.outcome;
  if (o === 'TP') t.tp++;
  else if (o === 'FP') t.fp++;
  else if (o === 'TN') t.tn++;
  else t.fn++;
  if (r.parseable) {
    t.parseable++;
    if (r.pathValid === true) t.pvValid++;
  }
  if (r.rta !== null) {
    t.rtaSum += r.rta;
    t.rtaN++;
  }
  if (r.rv !== null) {
    t.rvSum += r.rv;
    t.rvN++;
  } else if (isUnjudged(r)) t.rvUnknown++;
}

/** A record the judge was asked about and could not judge: its RV is unknown, not absent. */
export const isUnjudged = (r: Pick<ScoredRecord, 'rv' | 'judge'>): boolean => r.rv === null && r.judge?.error !== undefined;

export function merge(into: Tally, t: Tally): void {
  for (const k of Object.keys(into) as (keyof Tally)[]) into[k] += t[k];
}

const pct = (num: number, den: number): number | null => (den === 0 ? null : (100 * num) / den);

/**
 * CapNav composite: λ-weighted sum of the components. A component with no records (e.g. RV when
 * no record answered "no", or when no judge was run) is left out and the remaining weights are
 * renormalised — as the paper's Table 2 does for Spatial-MLLM, whose RV is "–" and whose
 * composite 30.15 is the mean of the other three.
 */
export function composite(m: Pick<MetricSet, 'f1' | 'pv' | 'rta' | 'rv'>, w: Weights): number | null {
  let sum = 0,
    wsum = 0;
  for (const k of ['f1', 'pv', 'rta', 'rv'] as const) {
    const v = m[k];
    if (v !== null && w[k] > 0) {
      sum += w[k] * v;
      wsum += w[k];
    }
  }
  return wsum === 0 ? null : sum / wsum;
}

export function metricSet(t: Tally, w: Weights): MetricSet {
  const precision = pct(t.tp, t.tp + t.fp);
  const recall = pct(t.tp, t.tp + t.fn);
  const f1 = pct(2 * t.tp, 2 * t.tp + t.fp + t.fn);
  const m = { f1, precision, recall, pv: pct(t.pvValid, t.parseable), rta: pct(t.rtaSum, t.rtaN), rv: pct(t.rvSum, t.rvN) };
  const n = { records: t.records, parseable: t.parseable, rta: t.rtaN, rv: t.rvN, unjudged: t.rvUnknown };
  if (t.rvUnknown === 0) return { ...m, capnav: composite(m, w), n };
  // RV unknown on some records: withheld, with what it would be were they all wrong or all right.
  const den = t.rvN + t.rvUnknown;
  const rv: [number, number] = [(100 * t.rvSum) / den, (100 * (t.rvSum + t.rvUnknown)) / den];
  const low = composite({ ...m, rv: rv[0] }, w),
    high = composite({ ...m, rv: rv[1] }, w);
  return { ...m, rv: null, capnav: null, n, incomplete: { rv, capnav: low === null || high === null ? null : [low, high] } };
}

const mean = (xs: (number | null)[]): number | null => {
  const d = xs.filter((x): x is number => x !== null);
  return d.length ? d.reduce((a, b) => a + b, 0) / d.length : null;
};

/**
 * The unweighted mean over agents of each metric (the paper's macro-average across embodiments).
 * When any agent's RV is unknown on some records, the macro RV and composite are withheld too,
 * with the mean of each agent's low and high values.
 */
export function macroSet(sets: readonly MetricSet[]): MetricSet {
  const pick = (k: MetricName) => mean(sets.map((s) => s[k]));
  const n = { records: 0, parseable: 0, rta: 0, rv: 0, unjudged: 0 };
  for (const s of sets) {
    n.records += s.n.records;
    n.parseable += s.n.parseable;
    n.rta += s.n.rta;
    n.rv += s.n.rv;
    n.unjudged += s.n.unjudged;
  }
  const out: MetricSet = {
    f1: pick('f1'),
    precision: pick('precision'),
    recall: pick('recall'),
    pv: pick('pv'),
    rta: pick('rta'),
    rv: pick('rv'),
    capnav: pick('capnav'),
    n,
  };
  if (n.unjudged === 0) return out;
  const bound = (k: 'rv' | 'capnav', side: 0 | 1) => mean(sets.map((s) => (s.incomplete ? (s.incomplete[k]?.[side] ?? null) : s[k])));
  const rvLow = bound('rv', 0),
    rvHigh = bound('rv', 1),
    low = bound('capnav', 0),
    high = bound('capnav', 1);
  out.rv = null;
  out.capnav = null;
  out.incomplete = { rv: [rvLow ?? 0, rvHigh ?? 100], capnav: low === null || high === null ? null : [low, high] };
  return out;
}
