import { bootstrapIntervals, NO_BOOTSTRAP, type BootstrapSettings } from '../bootstrap.ts';

/**
 * FoMER's reasoning-trail metrics. Reasoning Accuracy (RA): ten rubric criteria, each scored
 * 1–10 by a judge; a criterion whose scale runs the other way ("lower is better") is flipped to
 * 11 − s; RA of an item is the mean over its criteria as a percentage (× 10); RA of a subset is
 * the mean over its items; overall RA is the mean over subsets (macro) or over all items
 * (micro). Final Accuracy (FA) is separate and never mixed into RA: MCQ/TF items score 0 or 10,
 * open items 0–10, as a percentage, aggregated the same way.
 */
export interface Criterion {
  name: string;
  polarity: 'higher-better' | 'lower-better';
}

/**
 * FoMER Table 2's criteria. The judge prompt scores every criterion so that 10 is best (e.g.
 * Hallucination 10 = nothing invented), hence all `higher-better`; a rubric that scores
 * Hallucination, Redundancy or Missing Step as amounts would mark them `lower-better`.
 */
export const FOMER_CRITERIA: readonly Criterion[] = [
  'Faithfulness',
  'Spatial Reasoning',
  'Physical Causality',
  'Safety',
  'Commonsense',
  'Hallucination',
  'Redundancy',
  'Semantic Coverage-Step',
  'Reasoning Alignment',
  'Missing Step',
].map((name) => ({ name, polarity: 'higher-better' as const }));

export interface ReasoningItem {
  id: string;
  /** Source subset, e.g. `RoboVQA`, `Agibot`. */
  subset: string;
  /** Judge scores 1–10 by criterion name. */
  criteria?: Readonly<Record<string, number>>;
  final?: { kind: 'mcq' | 'tf' | 'open'; score: number };
}

export interface ReasoningSettings {
  criteria?: readonly Criterion[];
  averaging?: 'micro' | 'macro';
  bootstrap?: Partial<BootstrapSettings>;
}

export interface SubsetScores {
  ra: number | null;
  fa: number | null;
  nRa: number;
  nFa: number;
  ciRa?: [number, number];
  ciFa?: [number, number];
}

export interface ReasoningReport {
  settings: { criteria: readonly Criterion[]; averaging: 'micro' | 'macro'; bootstrap: BootstrapSettings };
  perSubset: Record<string, SubsetScores>;
  overall: SubsetScores;
  /**
   * Each criterion's normalised score as a percentage, averaged like RA (macro: the mean of its
   * subset means), over the items with a full rubric (`overall.nRa`); their mean is `overall.ra`.
   */
  perCriterion: Record<string, number | null>;
  /** Items left out of RA or FA, and why. */
  skipped: { id: string; metric: 'ra' | 'fa'; reason: string }[];
}

/** RA of one item (percentage), or why it has none. */
export function itemRa(item: ReasoningItem, criteria: readonly Criterion[]): number | string {
  if (!item.criteria) return 'no rubric scores';
  let sum = 0;
  for (const c of criteria) {
    const s = item.criteria[c.name];
    if (typeof s !== 'number' || !(s >= 1 && s <= 10)) return `criterion "${c.name}" ${s === undefined ? 'is missing' : `is ${s}, not 1–10`}`;
    sum += c.polarity === 'higher-better' ? s : 11 - s;
  }
  return (sum / criteria.length) * 10;
}

/** FA of one item (percentage), or why it has none. */
export function itemFa(item: ReasoningItem): number | string {
  const f = item.final;
  if (!f) return 'no final-answer score';
  if (f.kind === 'open') return f.score >= 0 && f.score <= 10 ? f.score * 10 : `open score ${f.score} is not 0–10`;
  return f.score === 0 || f.score === 10 ? f.score * 10 : `${f.kind} score ${f.score} is not 0 or 10`;
}

export function scoreReasoning(items: readonly ReasoningItem[], settings: ReasoningSettings = {}): ReasoningReport {
  const criteria = settings.criteria ?? FOMER_CRITERIA;
  const averaging = settings.averaging ?? 'macro';
  const bootstrap = { ...NO_BOOTSTRAP, ...settings.bootstrap };
  const skipped: ReasoningReport['skipped'] = [];
  const subsets = [...new Set(items.map((i) => i.subset))];
  const ra = new Map(subsets.map((s) => [s, [] as number[]]));
  const fa = new Map(subsets.map((s) => [s, [] as number[]]));
  // Per subset, per criterion: the normalised scores of the items with a full rubric.
  const crit = new Map(subsets.map((s) => [s, new Map(criteria.map((c) => [c.name, [] as number[]]))]));
  for (const it of items) {
    const r = itemRa(it, criteria);
    if (typeof r === 'number') {
      ra.get(it.subset)!.push(r);
      for (const c of criteria)
        crit
          .get(it.subset)!
          .get(c.name)!
          .push(c.polarity === 'higher-better' ? it.criteria![c.name]! : 11 - it.criteria![c.name]!);
    } else skipped.push({ id: it.id, metric: 'ra', reason: r });
    const f = itemFa(it);
    if (typeof f === 'number') fa.get(it.subset)!.push(f);
    else skipped.push({ id: it.id, metric: 'fa', reason: f });
  }
  const groups = [...subsets.map((s) => Float64Array.from(ra.get(s)!)), ...subsets.map((s) => Float64Array.from(fa.get(s)!))];
  const k = subsets.length;
  const figures = (pick: (g: number) => { sum: number; n: number }) => {
    const out: Record<string, number | null> = {};
    for (const metric of ['ra', 'fa'] as const) {
      const off = metric === 'ra' ? 0 : k;
      let sum = 0,
        n = 0;
      const means: number[] = [];
      subsets.forEach((s, i) => {
        const g = pick(off + i);
        out[`${s}|${metric}`] = g.n ? g.sum / g.n : null;
        if (g.n) {
          means.push(g.sum / g.n);
          sum += g.sum;
          n += g.n;
        }
      });
      out[`overall|${metric}`] = averaging === 'macro' ? (means.length ? means.reduce((a, b) => a + b, 0) / means.length : null) : n ? sum / n : null;
    }
    return out;
  };
  const total = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0);
  const point = figures((g) => ({ sum: total(groups[g]!), n: groups[g]!.length }));
  const ci = bootstrapIntervals<string>(
    groups.map((g) => g.length),
    bootstrap,
    (idx) =>
      figures((g) => {
        let s = 0;
        for (const i of idx[g]!) s += groups[g]![i]!;
        return { sum: s, n: groups[g]!.length };
      }),
  );
  const scores = (key: string, nRa: number, nFa: number): SubsetScores => {
    const out: SubsetScores = { ra: point[`${key}|ra`] ?? null, fa: point[`${key}|fa`] ?? null, nRa, nFa };
    if (ci[`${key}|ra`]) out.ciRa = ci[`${key}|ra`];
    if (ci[`${key}|fa`]) out.ciFa = ci[`${key}|fa`];
    return out;
  };
  const perSubset = Object.fromEntries(subsets.map((s) => [s, scores(s, ra.get(s)!.length, fa.get(s)!.length)]));
  const perCriterion = Object.fromEntries(
    criteria.map((c) => {
      const lists = subsets.map((s) => crit.get(s)!.get(c.name)!).filter((l) => l.length > 0);
      const sum = (l: readonly number[]) => l.reduce((a, b) => a + b, 0);
      if (!lists.length) return [c.name, null];
      const mean = averaging === 'macro' ? lists.reduce((a, l) => a + sum(l) / l.length, 0) / lists.length : sum(lists.flat()) / lists.flat().length;
      return [c.name, mean * 10];
    }),
  );
  const nRa = [...ra.values()].reduce((a, l) => a + l.length, 0),
    nFa = [...fa.values()].reduce((a, l) => a + l.length, 0);
  return { settings: { criteria, averaging, bootstrap }, perSubset, overall: scores('overall', nRa, nFa), perCriterion, skipped };
}
