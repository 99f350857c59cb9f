import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_DIR, sampleRelease } from '../../support/suggestTruth.ts';
import { traversa } from '../../support/cli.ts';

// `drive` on the command line, as a user runs it: every agent over every edge of the sample house by
// the motion planner. Reached wherever the ground truth says traversable (the wheelchair in the
// 0.80 m corridor, the quadruped up the stairs and round the L-corner, the humanoid through the
// 1.20 m door it meets at an angle), and stopped with the ground truth's reason everywhere else —
// the acceptance test of issue 9 — and in agreement with `suggest`, run beside it.

const args = [
  '--mesh',
  join(SAMPLE_DIR, 'house.glb'),
  '--graph',
  join(SAMPLE_DIR, 'graphs/sample-house-graph.json'),
  '--agents',
  join(SAMPLE_DIR, 'agent_profile.json'),
  '--json',
];
type Drive = { reached: boolean; reason: string | null; note: string; measured: Record<string, number>; poses: number };

describe('traversa drive on the sample house', () => {
  // Both start at once: two processes, two cores.
  const driven = traversa('drive', ...args);
  const suggested = traversa('suggest', ...args);

  it('reaches every traversable segment and stops on every other with the ground truth’s reason, as suggest says', async () => {
    const d = await driven,
      s = await suggested;
    expect(d.stderr).toBe('');
    expect(d.code).toBe(0);
    const out = JSON.parse(d.stdout) as { agents: Record<string, Record<string, Drive>>; resolution: { stepM: number; headingDeg: number } };
    const sug = (JSON.parse(s.stdout) as { agents: Record<string, Record<string, { traversable: boolean; reason: string | null }>> }).agents;
    const { truth } = sampleRelease();
    expect(truth).toHaveLength(70);
    const got = truth.map((t) => {
      const r = out.agents[t.agent]![t.edge]!;
      return { ...t, traversable: r.reached, reason: r.reason };
    });
    expect(got).toEqual(truth);
    const verdict = (traversable: boolean, reason: string | null) => ({ traversable, reason });
    expect(truth.map((t) => verdict(sug[t.agent]![t.edge]!.traversable, sug[t.agent]![t.edge]!.reason))).toEqual(
      truth.map((t) => verdict(out.agents[t.agent]![t.edge]!.reached, out.agents[t.agent]![t.edge]!.reason)),
    );
    expect(out.resolution).toMatchObject({ stepM: 0.02, headingDeg: 5 });

    const at = (agent: string, edge: string) => out.agents[agent]![edge]!;
    // What stopped it, measured: the 0.70 m door, the 2 and 5 cm sills, sixteen 17.5 cm risers, the 0.80 m corner.
    expect(at('WHEELCHAIR', 'node_11|node_13')).toMatchObject({ reason: 'narrow', measured: { clearWidthM: expect.closeTo(0.7, 2), neededWidthM: 0.74 } });
    expect(at('WHEELCHAIR', 'node_11|node_13').note).toBe('Narrow passage: clear width 0.70 m < 0.74 m needed');
    expect(at('WHEELCHAIR', 'node_5|node_6')).toMatchObject({ reason: 'step', measured: { stepHeightM: expect.closeTo(0.02, 3) } });
    expect(at('SWEEPER', 'node_11|node_14')).toMatchObject({ reason: 'step', measured: { stepHeightM: expect.closeTo(0.05, 3) } });
    expect(at('WHEELCHAIR', 'node_10|node_8')).toMatchObject({ reason: 'stairs', measured: { risers: 16, riserM: 0.175 } });
    expect(at('WHEELCHAIR', 'node_3|node_4')).toMatchObject({ reason: 'turning', measured: { clearWidthM: expect.closeTo(0.8, 2) } });
    expect(at('QUADRUPEDAL', 'node_1|node_7').note).toBe('Closed door: cannot open doors');
    // Where it got through, the motion and what it passed: the corridor's 0.80 m, the 1 cm sill climbed.
    expect(at('WHEELCHAIR', 'node_1|node_5')).toMatchObject({ reached: true, measured: { clearWidthM: expect.closeTo(0.8, 2) } });
    expect(at('WHEELCHAIR', 'node_2|node_3').measured.stepHeightM).toBeCloseTo(0.01, 3);
    for (const t of truth.filter((x) => x.traversable)) expect(at(t.agent, t.edge).poses, `${t.agent} ${t.edge}`).toBeGreaterThan(10);
  }, 240_000);
});
