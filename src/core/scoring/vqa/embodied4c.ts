import { bootstrapIntervals, NO_BOOTSTRAP, type BootstrapSettings } from '../bootstrap.ts';
import { parseOption } from './mcq.ts';
import { extractNumber, numericScore, TAU_EQUATION } from './numeric.ts';

/** Embodied4C's four capabilities; `general` is its domain-far (GEN) category, reported apart. */
export const CAPABILITIES = ['semantic', 'spatial', 'temporal', 'physical'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type ItemCategory = Capability | 'general';

interface ItemBase {
  id: string;
  /** Sub-benchmark, e.g. `driving`, `aerial`, `manipulation`. */ benchmark: string;
  capability: ItemCategory;
}
/** A VQA item with what is needed to score it (0–100). */
export type VqaItem = ItemBase &
  (
    | { kind: 'numeric'; reply: string; truth: number }
    /** Free-form: the judge's 0–100 score, imported or from a cache; null when not judged yet. */
    | { kind: 'free'; judgeScore: number | null }
    | { kind: 'mcq'; reply: string; answer: string; options?: readonly string[]; choices?: Readonly<Record<string, string>> }
    /** Already scored elsewhere. */
    | { kind: 'score'; score: number }
  );

/** One VLN task's score (0–100, Embodied4C eq. 5/6), per sub-benchmark. */
export interface VlnTask {
  benchmark: string;
  score: number;
}

export interface VqaSettings {
  /** τ of the numeric score (default 0.01, eq. 2). */
  tau?: number;
  /** macro: VQA = mean of the four capability means (eq. 4); micro: mean of all their items pooled. */
  averaging?: 'micro' | 'macro';
  bootstrap?: Partial<BootstrapSettings>;
}

export interface Stat {
  mean: number | null;
  n: number;
  ci?: [number, number];
}
export interface BenchmarkScores {
  capabilities: Record<Capability, Stat>;
  vqa: Stat;
  vln: Stat;
  /** (VQA + VLN) / 2 (eq. 8); VQA alone when the sub-benchmark has no VLN tasks. */
  score: Stat;
  general: Stat;
}
export interface Embodied4CReport {
  settings: { tau: number; averaging: 'micro' | 'macro'; bootstrap: BootstrapSettings };
  items: { id: string; benchmark: string; capability: ItemCategory; score: number | null; note?: string }[];
  benchmarks: Record<string, BenchmarkScores>;
  /** E4C-S: the mean of the sub-benchmark scores. */
  overall: Stat;
  /** GEN: mean of the domain-far items over all sub-benchmarks (never mixed into E4C-S). */
  general: Stat;
}

/** The score of one item (0–100), or null with a note when it cannot be scored. */
export function scoreItem(item: VqaItem, tau: number): { score: number | null; note?: string } {
  switch (item.kind) {
    case 'numeric': {
      const v = extractNumber(item.reply);
      return v === null ? { score: 0, note: 'no number in the reply' } : { score: numericScore(v, item.truth, tau) };
    }
    case 'free':
      if (item.judgeScore === null) return { score: null, note: 'not judged' };
      return item.judgeScore >= 0 && item.judgeScore <= 100
        ? { score: item.judgeScore }
        : { score: null, note: `judge score ${item.judgeScore} is outside 0–100` };
    case 'mcq': {
      const parsed = parseOption(item.reply, item.options, item.choices);
      return parsed === null ? { score: 0, note: 'unparseable option' } : { score: parsed === item.answer.trim().toUpperCase() ? 100 : 0 };
    }
    case 'score':
      return { score: item.score };
  }
}

type Group = { key: string; scores: Float64Array };

/** Embodied4C aggregation (eqs. 3, 4, 7, 8 and the E4C-S mean), with bootstrap intervals for every figure. */
export function scoreEmbodied4C(items: readonly VqaItem[], vln: readonly VlnTask[] = [], settings: VqaSettings = {}): Embodied4CReport {
  const tau = settings.tau ?? TAU_EQUATION;
  const averaging = settings.averaging ?? 'macro';
  const bootstrap = { ...NO_BOOTSTRAP, ...settings.bootstrap };
  const scoredItems = items.map((it) => ({ id: it.id, benchmark: it.benchmark, capability: it.capability, ...scoreItem(it, tau) }));
  const benchmarks = [...new Set([...items.map((i) => i.benchmark), ...vln.map((v) => v.benchmark)])];
  const collect = new Map<string, number[]>();
  const push = (key: string, v: number) => {
    const l = collect.get(key);
    if (l) l.push(v);
    else collect.set(key, [v]);
  };
  for (const it of scoredItems) if (it.score !== null) push(`${it.benchmark}|${it.capability}`, it.score);
  for (const t of vln) push(`${t.benchmark}|vln`, t.score);
  const groups: Group[] = [...collect].map(([key, list]) => ({ key, scores: Float64Array.from(list) }));

  const sums = (pick: (g: Group, k: number) => number) =>
    new Map(
      groups.map((g) => {
        let s = 0;
        for (let k = 0; k < g.scores.length; k++) s += pick(g, k);
        return [g.key, { sum: s, n: g.scores.length }];
      }),
    );
  const point = figures(
    sums((g, k) => g.scores[k]!),
    benchmarks,
    averaging,
  );
  const ci = bootstrapIntervals<string>(
    groups.map((g) => g.scores.length),
    bootstrap,
    (indices) => {
      const m = new Map(
        groups.map((g, gi) => {
          let s = 0;
          for (const i of indices[gi]!) s += g.scores[i]!;
          return [g.key, { sum: s, n: g.scores.length }];
        }),
      );
      return figures(m, benchmarks, averaging);
    },
  );
  const stat = (key: string, n: number): Stat => {
    const s: Stat = { mean: point[key] ?? null, n };
    if (ci[key]) s.ci = ci[key];
    return s;
  };
  const count = (key: string) => collect.get(key)?.length ?? 0;
  const out: Record<string, BenchmarkScores> = {};
  for (const b of benchmarks) {
    const capN = CAPABILITIES.reduce((a, c) => a + count(`${b}|${c}`), 0);
    out[b] = {
      capabilities: Object.fromEntries(CAPABILITIES.map((c) => [c, stat(`${b}|${c}`, count(`${b}|${c}`))])) as Record<Capability, Stat>,
      vqa: stat(`${b}|vqa`, capN),
      vln: stat(`${b}|vln`, count(`${b}|vln`)),
      score: stat(`${b}|score`, capN + count(`${b}|vln`)),
      general: stat(`${b}|general`, count(`${b}|general`)),
    };
  }
  const generalN = benchmarks.reduce((a, b) => a + count(`${b}|general`), 0);
  return {
    settings: { tau, averaging, bootstrap },
    items: scoredItems.map(({ note, ...rest }) => (note ? { ...rest, note } : rest)),
    benchmarks: out,
    overall: stat('overall', benchmarks.length),
    general: stat('general', generalN),
  };
}

const meanOf = (xs: (number | null | undefined)[]): number | null => {
  const d = xs.filter((x): x is number => typeof x === 'number');
  return d.length ? d.reduce((a, b) => a + b, 0) / d.length : null;
};

/** Every figure from per-group sums: `<b>|<capability>`, `<b>|vqa`, `<b>|vln`, `<b>|score`, `<b>|general`, `overall`, `general`. */
function figures(g: Map<string, { sum: number; n: number }>, benchmarks: readonly string[], averaging: 'micro' | 'macro'): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const mean = (key: string) => {
    const s = g.get(key);
    return s && s.n ? s.sum / s.n : null;
  };
  let genSum = 0,
    genN = 0;
  for (const b of benchmarks) {
    for (const c of CAPABILITIES) out[`${b}|${c}`] = mean(`${b}|${c}`);
    if (averaging === 'macro') out[`${b}|vqa`] = meanOf(CAPABILITIES.map((c) => out[`${b}|${c}`]));
    else {
      let s = 0,
        n = 0;
      for (const c of CAPABILITIES) {
        const x = g.get(`${b}|${c}`);
        if (x) {
          s += x.sum;
          n += x.n;
        }
      }
      out[`${b}|vqa`] = n ? s / n : null;
    }
    out[`${b}|vln`] = mean(`${b}|vln`);
    out[`${b}|score`] = meanOf([out[`${b}|vqa`], out[`${b}|vln`]]);
    out[`${b}|general`] = mean(`${b}|general`);
    const gs = g.get(`${b}|general`);
    if (gs) {
      genSum += gs.sum;
      genN += gs.n;
    }
  }
  out.overall = meanOf(benchmarks.map((b) => out[`${b}|score`]));
  out.general = averaging === 'macro' ? meanOf(benchmarks.map((b) => out[`${b}|general`])) : genN ? genSum / genN : null;
  return out;
}
