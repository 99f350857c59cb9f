import type { AgentName } from './agents.ts';
import { parseSegmentKey, undirectedKey } from './graph.ts';
import type { Label, LabelTable } from './labels.ts';
import type { QaItem } from './vqa/item.ts';

/**
 * Inter-rater agreement: how far two or more people who judged the same things agree beyond what
 * chance alone would give. κ = (P̄ − P̄e) / (1 − P̄e), with P̄ the observed agreement and P̄e the
 * agreement expected by chance; 1 is perfect agreement, 0 agreement at chance, below 0 worse than
 * chance. When chance agreement is already certain (everyone used one category throughout) κ is
 * undefined and reported as null, not as 0 or 1.
 */
export interface KappaResult {
  /** Items (subjects) rated. */
  n: number;
  /** Observed agreement P̄ (Cohen: share of items with the same label). */
  observed: number;
  /** Agreement expected by chance P̄e. */
  expected: number;
  kappa: number | null;
}

const kappaOf = (n: number, observed: number, expected: number): KappaResult => ({
  n,
  observed,
  expected,
  kappa: n === 0 || 1 - expected < 1e-12 ? null : (observed - expected) / (1 - expected),
});

/**
 * Cohen's κ for two raters who labelled the same items, `a[i]` and `b[i]` being their labels of
 * item i. Chance agreement uses each rater's own label frequencies: P̄e = Σ_k p_a(k)·p_b(k).
 */
export function cohenKappa<L>(a: readonly L[], b: readonly L[]): KappaResult {
  if (a.length !== b.length) throw new RangeError(`Cohen's kappa needs both raters to label the same items (${a.length} vs ${b.length} labels)`);
  const n = a.length;
  if (n === 0) return kappaOf(0, 0, 0);
  const countA = new Map<L, number>(),
    countB = new Map<L, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) agree++;
    countA.set(a[i]!, (countA.get(a[i]!) ?? 0) + 1);
    countB.set(b[i]!, (countB.get(b[i]!) ?? 0) + 1);
  }
  return cohenOfCounts(n, agree, countA, countB);
}

/** Cohen's κ from its counts: items, items agreed on, and each rater's count per label. */
function cohenOfCounts<L>(n: number, agree: number, countA: ReadonlyMap<L, number>, countB: ReadonlyMap<L, number>): KappaResult {
  if (n === 0) return kappaOf(0, 0, 0);
  let expected = 0;
  for (const [label, ca] of countA) expected += (ca / n) * ((countB.get(label) ?? 0) / n);
  return kappaOf(n, agree / n, expected);
}

/**
 * Fleiss' κ (1971) for N items each rated by the same number n ≥ 2 of raters, who need not be the
 * same people from item to item. `counts[i][j]` is how many raters put item i in category j.
 * P_i = (Σ_j n_ij² − n) / (n(n − 1)), P̄ = mean P_i, p_j = Σ_i n_ij / (N·n), P̄e = Σ_j p_j².
 * Rows must all sum to the same n: the standard statistic is defined for a fixed number of
 * raters, so callers with varying overlap group items by their number of ratings (as
 * verdictAgreement does) rather than mixing them. A row of another size throws a RangeError.
 */
export function fleissKappa(counts: readonly (readonly number[])[]): KappaResult & { raters: number; categoryShares: number[]; itemAgreement: number[] } {
  const N = counts.length;
  if (N === 0) return { ...kappaOf(0, 0, 0), raters: 0, categoryShares: [], itemAgreement: [] };
  const k = counts[0]!.length;
  const n = counts[0]!.reduce((s, x) => s + x, 0);
  if (n < 2) throw new RangeError(`Fleiss' kappa needs at least two ratings per item (item 0 has ${n})`);
  counts.forEach((row, i) => {
    if (row.length !== k) throw new RangeError(`item ${i} has ${row.length} categories, item 0 has ${k}`);
    if (row.some((x) => !Number.isInteger(x) || x < 0)) throw new RangeError(`item ${i} has a count that is not a whole number ≥ 0`);
    const sum = row.reduce((s, x) => s + x, 0);
    if (sum !== n) throw new RangeError(`item ${i} has ${sum} ratings, item 0 has ${n}: Fleiss' kappa needs the same number of raters per item`);
  });
  const categoryShares = Array.from({ length: k }, (_, j) => counts.reduce((s, row) => s + row[j]!, 0) / (N * n));
  const itemAgreement = counts.map((row) => (row.reduce((s, x) => s + x * x, 0) - n) / (n * (n - 1)));
  const observed = itemAgreement.reduce((s, p) => s + p, 0) / N;
  const expected = categoryShares.reduce((s, p) => s + p * p, 0);
  return { ...kappaOf(N, observed, expected), raters: n, categoryShares, itemAgreement };
}

/** The counts table for fleissKappa from each item's list of labels. */
export function countTable<L>(ratings: readonly (readonly L[])[], categories: readonly L[]): number[][] {
  return ratings.map((labels) => categories.map((c) => labels.filter((l) => l === c).length));
}

export interface VerdictAgreement {
  /** The categories compared: accept/reject, or accept/edit-accept/reject. */
  categories: string[];
  /** Items with two or more reviews. */
  items: number;
  /** Of those, items on which every review gave the same verdict. */
  unanimous: number;
  /** Fleiss' κ per overlap: items with 2 reviews, items with 3 reviews, … */
  byRaters: { raters: number; items: number; fleiss: KappaResult }[];
  /** Cohen's κ per pair of reviewers over the items both reviewed. */
  pairs: { reviewers: [string, string]; items: number; cohen: KappaResult }[];
}

/**
 * Agreement of review verdicts on items reviewed by two or more reviewers. By default
 * edit-accept counts as accept: both keep the item, and the question a reviewer answers is
 * whether it belongs in the dataset. Pass `collapseEditAccept: false` to also measure agreement
 * on whether the item needed editing.
 */
export function verdictAgreement(items: readonly QaItem[], options: { collapseEditAccept?: boolean } = {}): VerdictAgreement {
  const collapse = options.collapseEditAccept ?? true;
  const categories = collapse ? ['accept', 'reject'] : ['accept', 'edit-accept', 'reject'];
  const label = (v: string) => (collapse && v === 'edit-accept' ? 'accept' : v);
  const overlapped = items.filter((i) => i.reviews.length >= 2);

  const byK = new Map<number, string[][]>();
  for (const item of overlapped) {
    const k = item.reviews.length;
    byK.set(k, [...(byK.get(k) ?? []), item.reviews.map((r) => label(r.verdict))]);
  }
  const byRaters = [...byK.keys()]
    .sort((x, y) => x - y)
    .map((raters) => {
      const ratings = byK.get(raters)!;
      const { n, observed, expected, kappa } = fleissKappa(countTable(ratings, categories));
      return { raters, items: ratings.length, fleiss: { n, observed, expected, kappa } };
    });

  const pairLabels = new Map<string, { a: string[]; b: string[] }>();
  for (const item of overlapped) {
    const rs = [...item.reviews].sort((x, y) => (x.reviewer < y.reviewer ? -1 : x.reviewer > y.reviewer ? 1 : 0));
    for (let i = 0; i < rs.length; i++) {
      for (let j = i + 1; j < rs.length; j++) {
        const key = JSON.stringify([rs[i]!.reviewer, rs[j]!.reviewer]);
        const entry = pairLabels.get(key) ?? { a: [], b: [] };
        entry.a.push(label(rs[i]!.verdict));
        entry.b.push(label(rs[j]!.verdict));
        pairLabels.set(key, entry);
      }
    }
  }
  const pairs = [...pairLabels.entries()]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([key, { a, b }]) => ({
      reviewers: JSON.parse(key) as [string, string],
      items: a.length,
      cohen: cohenKappa(a, b),
    }));

  const unanimous = overlapped.filter((i) => new Set(i.reviews.map((r) => label(r.verdict))).size === 1).length;
  return { categories, items: overlapped.length, unanimous, byRaters, pairs };
}

export interface AgentLabelAgreement {
  agent: AgentName;
  compared: number;
  agreed: number;
  cohen: KappaResult;
  /** Edges (undirected key `a|b`) the two tables judged differently. */
  disagreements: { edge: string; a: boolean; b: boolean }[];
}

export interface LabelAgreement {
  perAgent: AgentLabelAgreement[];
  /** All agents' segments pooled. */
  overall: { compared: number; agreed: number; cohen: KappaResult };
  /** Segments labelled in both tables but left out, and why. */
  skipped: { agent: AgentName; edge: string; why: 'direction-conflict' | 'auto-approved' }[];
}

/**
 * Agreement between two labellings of the same scene (two annotators, or one annotator twice),
 * per agent and overall, as Cohen's κ on traversable / not traversable. The unit is the
 * undirected segment: a label in one direction stands for both (as CapNav reads it), so a
 * segment labelled a→b in one table and b→a in the other is compared once. Segments are left out
 * when a table's two directions disagree (that table has no single judgement), and, unless
 * `includeAutoApproved`, when either label was auto-approved (the unrestricted human's labels
 * are not anyone's judgement and would inflate agreement).
 */
export function labelAgreement(tableA: LabelTable, tableB: LabelTable, options: { includeAutoApproved?: boolean } = {}): LabelAgreement {
  const agents = [...new Set([...Object.keys(tableA), ...Object.keys(tableB)])];
  return agreementOfTallies(agents.map((agent) => [agent, [agentTally(tableA[agent] ?? {}, tableB[agent] ?? {}, options)]]));
}

/**
 * What `labelAgreement` counts for one agent's two tables, before κ. Tallies of tables with no
 * segment in common add up (`agreementOfTallies`), so agreement pooled over many scenes can be
 * counted scene by scene and a scene's tally kept until that scene changes.
 */
export interface AgentTally {
  compared: number;
  agreed: number;
  /** Of the compared segments, how many each table judged traversable. */
  traversableA: number;
  traversableB: number;
  disagreements: AgentLabelAgreement['disagreements'];
  skipped: { edge: string; why: 'direction-conflict' | 'auto-approved' }[];
}

export function agentTally(tableA: Record<string, Label>, tableB: Record<string, Label>, options: { includeAutoApproved?: boolean } = {}): AgentTally {
  const a = judgements(tableA),
    b = judgements(tableB);
  const tally: AgentTally = { compared: 0, agreed: 0, traversableA: 0, traversableB: 0, disagreements: [], skipped: [] };
  for (const [edge, ja] of a) {
    const jb = b.get(edge);
    if (!jb) continue;
    if (ja === 'conflict' || jb === 'conflict') {
      tally.skipped.push({ edge, why: 'direction-conflict' });
      continue;
    }
    if (!options.includeAutoApproved && (ja.auto || jb.auto)) {
      tally.skipped.push({ edge, why: 'auto-approved' });
      continue;
    }
    tally.compared++;
    if (ja.traversable) tally.traversableA++;
    if (jb.traversable) tally.traversableB++;
    if (ja.traversable !== jb.traversable) tally.disagreements.push({ edge, a: ja.traversable, b: jb.traversable });
    else tally.agreed++;
  }
  return tally;
}

/** Cohen's κ of traversable / not traversable from a tally's counts (what cohenKappa gives on the judgements themselves). */
function cohenOfTally(t: Pick<AgentTally, 'compared' | 'agreed' | 'traversableA' | 'traversableB'>): KappaResult {
  const counts = (yes: number) =>
    new Map(
      [
        [true, yes],
        [false, t.compared - yes],
      ].filter(([, c]) => (c as number) > 0) as [boolean, number][],
    );
  return cohenOfCounts(t.compared, t.agreed, counts(t.traversableA), counts(t.traversableB));
}

/**
 * The agreement of per-agent tallies, each agent's being the sum of its parts (segments of
 * different scenes, say), in order: the same as `labelAgreement` on the tables pooled.
 */
export function agreementOfTallies(agents: readonly (readonly [AgentName, readonly AgentTally[]])[]): LabelAgreement {
  const perAgent: AgentLabelAgreement[] = [];
  const skipped: LabelAgreement['skipped'] = [];
  const all = { compared: 0, agreed: 0, traversableA: 0, traversableB: 0 };
  for (const [agent, parts] of agents) {
    const sum = { compared: 0, agreed: 0, traversableA: 0, traversableB: 0 };
    const disagreements: AgentLabelAgreement['disagreements'] = [];
    for (const t of parts) {
      sum.compared += t.compared;
      sum.agreed += t.agreed;
      sum.traversableA += t.traversableA;
      sum.traversableB += t.traversableB;
      for (const d of t.disagreements) disagreements.push(d);
      for (const s of t.skipped) skipped.push({ agent, ...s });
    }
    all.compared += sum.compared;
    all.agreed += sum.agreed;
    all.traversableA += sum.traversableA;
    all.traversableB += sum.traversableB;
    perAgent.push({ agent, compared: sum.compared, agreed: sum.agreed, cohen: cohenOfTally(sum), disagreements });
  }
  return { perAgent, overall: { compared: all.compared, agreed: all.agreed, cohen: cohenOfTally(all) }, skipped };
}

export const isAutoApproved = (l: Label) => l.source === 'auto-approved' || /^auto-approved\b/i.test(l.note);

type Judgement = { traversable: boolean; auto: boolean } | 'conflict';

/** One judgement per undirected segment of an agent's table. */
function judgements(table: Record<string, Label>): Map<string, Judgement> {
  const out = new Map<string, Judgement>();
  for (const [key, label] of Object.entries(table)) {
    const seg = parseSegmentKey(key);
    if (!seg) continue;
    const edge = undirectedKey(seg.from, seg.to);
    const prev = out.get(edge);
    const auto = isAutoApproved(label);
    if (prev === undefined) out.set(edge, { traversable: label.traversable, auto });
    else if (prev !== 'conflict') {
      if (prev.traversable !== label.traversable) out.set(edge, 'conflict');
      else out.set(edge, { traversable: prev.traversable, auto: prev.auto && auto });
    }
  }
  return out;
}
