import { describe, expect, it } from 'vitest';
import { CAPABILITIES, scoreEmbodied4C, type Capability, type VqaItem, type VlnTask } from '../../../../src/core/scoring/vqa/embodied4c.ts';
import { FOMER_CRITERIA, scoreReasoning, type Criterion, type ReasoningItem } from '../../../../src/core/scoring/vqa/fomer.ts';
import { append } from '../../../../src/core/arrays.ts';

const round2 = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);

/**
 * Items of one capability whose scores average to `target`, scored through the real item scorers:
 * an exact numeric answer (100) or a wrong multiple-choice answer (0), plus a judge-scored
 * free-form answer that makes up the difference.
 */
function itemsAveraging(benchmark: string, capability: Capability | 'general', target: number): VqaItem[] {
  const id = `${benchmark}-${capability}`;
  const anchor: VqaItem =
    target >= 50
      ? { id: `${id}-num`, benchmark, capability, kind: 'numeric', reply: 'Answer: 12.5 m', truth: 12.5 }
      : { id: `${id}-mcq`, benchmark, capability, kind: 'mcq', reply: '(B)', answer: 'A' };
  const judged: VqaItem = { id: `${id}-free`, benchmark, capability, kind: 'free', judgeScore: target >= 50 ? 2 * target - 100 : 2 * target };
  return [anchor, judged];
}

/** Embodied4C Table 2, GPT-5-mini: SEM, SPA, TEM, PHY and VLN per sub-benchmark. */
const GPT5_MINI: Record<string, [number, number, number, number, number]> = {
  driving: [60.23, 37.12, 38.66, 59.86, 31.25],
  aerial: [57.82, 36.33, 52.05, 50.32, 31.29],
  manipulation: [72.89, 46.7, 52.29, 86.18, 12.36],
};

function gpt5MiniItems(): { items: VqaItem[]; vln: VlnTask[] } {
  const items: VqaItem[] = [];
  const vln: VlnTask[] = [];
  for (const [b, scores] of Object.entries(GPT5_MINI)) {
    CAPABILITIES.forEach((c, i) => append(items, itemsAveraging(b, c, scores[i]!)));
    // Two VLN tasks per sub-benchmark averaging to the table's VLN score.
    vln.push({ benchmark: b, score: scores[4]! + 10 }, { benchmark: b, score: scores[4]! - 10 });
    append(items, itemsAveraging(b, 'general', 99.97));
  }
  return { items, vln };
}

describe("Embodied4C aggregation reproduces the paper's GPT-5-mini figures", () => {
  const report = scoreEmbodied4C(gpt5MiniItems().items, gpt5MiniItems().vln);

  it('per-capability means, the VQA mean over the four, and the driving score (VQA + VLN) / 2', () => {
    const d = report.benchmarks.driving!;
    expect(CAPABILITIES.map((c) => round2(d.capabilities[c].mean))).toEqual([60.23, 37.12, 38.66, 59.86]);
    expect(round2(d.vqa.mean)).toBe(48.97);
    expect(round2(d.vln.mean)).toBe(31.25);
    expect(round2(d.score.mean)).toBe(40.11);
  });

  it('aerial 40.21, manipulation 38.44, overall E4C-S 39.59', () => {
    expect(round2(report.benchmarks.aerial!.score.mean)).toBe(40.21);
    expect(round2(report.benchmarks.manipulation!.score.mean)).toBe(38.44);
    expect(round2(report.overall.mean)).toBe(39.59);
  });

  it('domain-far (general-knowledge) items are reported apart and never mixed into the score', () => {
    expect(round2(report.general.mean)).toBe(99.97);
    const withoutGeneral = scoreEmbodied4C(
      gpt5MiniItems().items.filter((i) => i.capability !== 'general'),
      gpt5MiniItems().vln,
    );
    expect(withoutGeneral.overall.mean).toBe(report.overall.mean);
  });

  it("micro averaging pools a sub-benchmark's items instead of averaging its capability means", () => {
    const items: VqaItem[] = [
      { id: '1', benchmark: 'b', capability: 'semantic', kind: 'score', score: 100 },
      { id: '2', benchmark: 'b', capability: 'semantic', kind: 'score', score: 100 },
      { id: '3', benchmark: 'b', capability: 'spatial', kind: 'score', score: 0 },
    ];
    expect(scoreEmbodied4C(items, [], { averaging: 'macro' }).benchmarks.b!.vqa.mean).toBe(50);
    expect(scoreEmbodied4C(items, [], { averaging: 'micro' }).benchmarks.b!.vqa.mean).toBeCloseTo(200 / 3, 10);
  });

  it('items that cannot be scored say why; bootstrap intervals cover every figure and are seeded', () => {
    const items: VqaItem[] = [
      ...gpt5MiniItems().items,
      { id: 'x', benchmark: 'driving', capability: 'semantic', kind: 'free', judgeScore: null },
      { id: 'y', benchmark: 'driving', capability: 'spatial', kind: 'numeric', reply: 'far away', truth: 3 },
    ];
    const r = scoreEmbodied4C(items, gpt5MiniItems().vln, { bootstrap: { resamples: 200, seed: 5 } });
    expect(r.items.filter((i) => i.note)).toEqual([
      { id: 'x', benchmark: 'driving', capability: 'semantic', score: null, note: 'not judged' },
      { id: 'y', benchmark: 'driving', capability: 'spatial', score: 0, note: 'no number in the reply' },
    ]);
    expect(r.overall.ci).toBeDefined();
    expect(r.benchmarks.driving!.capabilities.semantic.ci).toBeDefined();
    const [lo, hi] = r.overall.ci!;
    expect(lo).toBeLessThanOrEqual(r.overall.mean!);
    expect(hi).toBeGreaterThanOrEqual(r.overall.mean!);
    expect(scoreEmbodied4C(items, gpt5MiniItems().vln, { bootstrap: { resamples: 200, seed: 5 } }).overall.ci).toEqual(r.overall.ci);
  });

  it('τ is a setting: the same numeric reply scores differently under eq. 2 (0.01) and the judge prompt (0.10)', () => {
    const item: VqaItem = { id: 'n', benchmark: 'b', capability: 'spatial', kind: 'numeric', reply: '10.5', truth: 10 };
    expect(scoreEmbodied4C([item]).items[0]!.score).toBe(0);
    expect(scoreEmbodied4C([item], [], { tau: 0.1 }).items[0]!.score).toBeCloseTo(50, 9);
  });
});

/** FoMER Table 3, OpenAI o4-mini reasoning accuracy per source subset. */
const O4_MINI_RA: Record<string, number> = {
  RoboVQA: 79.8,
  Agibot: 74.2,
  Robofail: 77.3,
  HoloAssist: 80.0,
  BridgeDataV2: 71.5,
  Pbench: 79.3,
  RoboSet: 75.3,
  Recon: 82.1,
  'NYU VINN': 78.1,
  HRIBench: 65.8,
};

/** Ten items of ten 1–10 criteria whose mean is ra / 10 (100 integer scores summing to 10·ra); stored with each criterion's polarity. */
function subsetItems(subset: string, ra: number, criteria: readonly Criterion[]): ReasoningItem[] {
  let remaining = Math.round(ra * 10);
  const items: ReasoningItem[] = [];
  for (let i = 0; i < 10; i++) {
    const scores: Record<string, number> = {};
    criteria.forEach((c, j) => {
      const left = 100 - (i * 10 + j);
      const s = Math.min(10, Math.max(1, Math.round(remaining / left)));
      remaining -= s;
      scores[c.name] = c.polarity === 'higher-better' ? s : 11 - s;
    });
    items.push({ id: `${subset}-${i}`, subset, criteria: scores, final: { kind: i % 2 ? 'mcq' : 'open', score: i % 2 ? 10 : 7 } });
  }
  return items;
}

describe('FoMER reasoning accuracy reproduces o4-mini', () => {
  // One criterion scored as an amount (lower is better) checks the polarity flip.
  const criteria: Criterion[] = FOMER_CRITERIA.map((c) => (c.name === 'Hallucination' ? { ...c, polarity: 'lower-better' } : c));
  const items = Object.entries(O4_MINI_RA).flatMap(([s, ra]) => subsetItems(s, ra, criteria));
  const report = scoreReasoning(items, { criteria });

  it('RA per subset, and the macro over subsets 76.34', () => {
    for (const [s, ra] of Object.entries(O4_MINI_RA)) expect(round2(report.perSubset[s]!.ra)).toBe(ra);
    expect(round2(report.overall.ra)).toBe(76.34);
  });

  it('final accuracy is computed apart and never changes RA', () => {
    expect(report.overall.fa).toBeCloseTo(85, 9); // half the items 7/10 (open), half 10/10 (MCQ)
    const noFinal = scoreReasoning(
      items.map(({ final: _f, ...rest }) => rest),
      { criteria },
    );
    expect(noFinal.overall.ra).toBe(report.overall.ra);
    expect(noFinal.overall.fa).toBeNull();
  });

  it('out-of-range scores leave the item out with a reason; micro pools items; intervals are seeded', () => {
    const bad: ReasoningItem[] = [
      { id: 'b1', subset: 'X', criteria: { ...items[0]!.criteria, Safety: 0 } },
      { id: 'b2', subset: 'X', final: { kind: 'tf', score: 5 } },
    ];
    const r = scoreReasoning([...items, ...bad], { criteria, averaging: 'micro', bootstrap: { resamples: 100, seed: 2 } });
    expect(r.skipped).toEqual([
      { id: 'b1', metric: 'ra', reason: 'criterion "Safety" is 0, not 1–10' },
      { id: 'b1', metric: 'fa', reason: 'no final-answer score' },
      { id: 'b2', metric: 'ra', reason: 'no rubric scores' },
      { id: 'b2', metric: 'fa', reason: 'tf score 5 is not 0 or 10' },
    ]);
    expect(r.overall.ra).toBeCloseTo(Object.values(O4_MINI_RA).reduce((a, b) => a + b, 0) / 10, 9); // equal-sized subsets: micro = macro
    expect(r.overall.ciRa).toEqual(scoreReasoning([...items, ...bad], { criteria, averaging: 'micro', bootstrap: { resamples: 100, seed: 2 } }).overall.ciRa);
  });
});
