import { describe, expect, it } from 'vitest';
import type { AugmentedTask } from '../../../../src/core/research/augment.ts';
import { leaks, planSplits, SPLITS, stratumOf } from '../../../../src/core/research/split.ts';

/** Tasks of `scenes` scenes, of sizes and mixes that differ scene to scene. */
function tasks(scenes: number): AugmentedTask[] {
  const out: AugmentedTask[] = [];
  for (let s = 0; s < scenes; s++)
    for (let i = 0; i < 20 + ((s * 37) % 60); i++) {
      const feasible = (i + s) % 3 !== 0;
      out.push({
        id: `S${s}/${i}`,
        scene: `HM3D000${String(s).padStart(2, '0')}`,
        agent: ['HUMAN', 'WHEELCHAIR', 'SWEEPER'][i % 3]!,
        start: { id: 'a', name: 'A' },
        end: { id: 'b', name: 'B' },
        question: 'Can [Agent] move from the A to the B?',
        feasible,
        route: feasible ? ['a', 'b'] : null,
        blocking: feasible ? null : { categories: [(['stairs', 'narrow', 'step'] as const)[(i + 2 * s) % 3]!], segments: [] },
        provenance: { method: 'graph-pairs', labelledSegments: 1, releaseQuestion: null },
      });
    }
  return out;
}

describe('splits by scene', () => {
  const all = tasks(30);
  const plan = planSplits(all, { train: 0.8, val: 0.1, test: 0.1 }, 4);

  it('puts every scene in exactly one split, every split holds scenes, and the counts add up', () => {
    const scenes = new Set(all.map((t) => t.scene));
    expect(Object.keys(plan.sceneSplit).sort()).toEqual([...scenes].sort());
    const listed = SPLITS.flatMap((k) => plan.splits[k].scenes);
    expect(listed.sort()).toEqual([...scenes].sort());
    for (const k of SPLITS) expect(plan.splits[k].scenes.length, k).toBeGreaterThan(0);
    expect(SPLITS.reduce((n, k) => n + plan.splits[k].tasks, 0)).toBe(all.length);
  });

  it('keeps each split near its share of the tasks and of each stratum', () => {
    expect(plan.splits.train.tasks / all.length).toBeCloseTo(0.8, 1);
    const whole = new Map<string, number>();
    for (const t of all) whole.set(stratumOf(t), (whole.get(stratumOf(t)) ?? 0) + 1);
    for (const [s, n] of whole) expect((plan.splits.train.strata[s] ?? 0) / n, s).toBeGreaterThan(0.65);
  });

  it('is the same plan for the same seed, and may differ for another', () => {
    expect(planSplits(all, { train: 0.8, val: 0.1, test: 0.1 }, 4)).toEqual(plan);
    const others = [5, 6, 7, 8].map((seed) => planSplits(all, { train: 0.8, val: 0.1, test: 0.1 }, seed).splits.test.scenes.join());
    expect(others.some((t) => t !== plan.splits.test.scenes.join())).toBe(true);
  });

  it('refuses ratios that split nothing', () => {
    expect(() => planSplits(all, { train: 0, val: 0, test: 0 })).toThrow('split ratios');
  });
});

describe('leakage', () => {
  it('finds a held-out scene as a record’s scene or in a frame’s path, by line; a longer id sharing its start is not it', () => {
    const text = [
      '{"scene":"HM3D00002","q":"…"}',
      '{"scene":"HM3D000025"}',
      '{"image":"frames/HM3D00002/16f/0003.jpg"}',
      '{"video":"videos/HM3D00002_tour.mp4"}',
      '{"scene":"MP3D00002"}',
    ].join('\n');
    expect(leaks(text, ['HM3D00002'], 'train.jsonl')).toEqual([
      'train.jsonl line 1: names HM3D00002, a scene held out from training',
      'train.jsonl line 3: names HM3D00002, a scene held out from training',
      'train.jsonl line 4: names HM3D00002, a scene held out from training',
    ]);
    expect(leaks(text, [], 'x')).toEqual([]);
  });
});
