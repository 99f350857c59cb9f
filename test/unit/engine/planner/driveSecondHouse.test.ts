import { beforeAll, describe, expect, it } from 'vitest';
import { CAPNAV_AGENTS } from '../../../../src/core/agents.ts';
import { undirectedKey } from '../../../../src/core/graph.ts';
import { nodeIds } from '../../../../src/core/sample/sampleRelease.ts';
import { driveScene, type SceneDrives } from '../../../../src/engine/planner/index.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/index.ts';
import { loadSecondHouse, SECOND_HOUSE, secondHouseRelease } from '../../../support/secondHouse.ts';
import { truthRows, type GroundTruth } from '../../../support/suggestTruth.ts';

// THE ACCEPTANCE (issue 9): on a second generated house — other doors and sills than the sample's,
// a closed door, a ramp up to a raised den and a crawl space (test/support/secondHouse.ts) — the
// motion planner reaches the next node for every agent × edge the ground truth calls traversable,
// and stops with the ground truth's reason for every other. The house is built here, in memory,
// and read back from a GLB as a user's scan is.

const release = secondHouseRelease();
const ids = nodeIds(SECOND_HOUSE);
/** The edge between two rooms, as drives are keyed (`a|b`, a < b). */
const edge = (a: string, b: string) => undirectedKey(ids.get(a)!, ids.get(b)!);
const truth: GroundTruth[] = release.profiles.flatMap((p) => truthRows(p.name, release.scene.labels[p.name]!));
/** Edge key → "hall–den (ramp)", for reading a failure. */
const named = new Map(SECOND_HOUSE.connections.map((c) => [edge(c.from, c.to), `${c.from}–${c.to} (${c.passage.kind})`]));

describe('the motion planner on the second generated house', () => {
  let drives: SceneDrives;

  beforeAll(async () => {
    const loaded = await loadSecondHouse();
    try {
      drives = await driveScene(prepareGeometry(loaded), release.scene.graph, release.profiles);
    } finally {
      loaded.dispose();
    }
  }, 240_000);

  const got = (agent: string, key: string) => drives.agents[agent]![key]!;

  it('has a ground truth that tells the agents apart: 5 agents × 7 edges, each agent both passing and stopped', () => {
    expect(truth).toHaveLength(CAPNAV_AGENTS.length * SECOND_HOUSE.connections.length);
    for (const agent of CAPNAV_AGENTS) {
      const mine = truth.filter((t) => t.agent === agent);
      expect(
        mine.some((t) => t.traversable),
        agent,
      ).toBe(true);
      expect(
        mine.some((t) => !t.traversable),
        agent,
      ).toBe(true);
    }
    // Every reason a house without stairs or lift can give, and the crawl space passable only for the sweeper.
    expect(new Set(truth.map((t) => t.reason))).toEqual(new Set([null, 'step', 'narrow', 'door']));
    expect(truth.filter((t) => t.edge === edge('study', 'store') && t.traversable).map((t) => t.agent)).toEqual(['SWEEPER']);
  });

  it('reaches the next node exactly where the ground truth says traversable, and stops for its reason elsewhere', () => {
    const rows = truth.map((t) => {
      const d = got(t.agent, t.edge);
      return { ...t, reached: d.reached, gotReason: d.reason, note: d.note };
    });
    const wrong = rows.filter((r) => r.reached !== r.traversable || (!r.traversable && r.gotReason !== r.reason));
    const table = rows.map(
      (r) =>
        `${named.get(r.edge)!.padEnd(26)} ${r.agent.padEnd(12)} truth ${(r.traversable ? 'traversable' : r.reason!).padEnd(12)} drive ${r.reached ? 'reached' : `stopped: ${r.gotReason} — ${r.note}`}${wrong.includes(r) ? '   <-- WRONG' : ''}`,
    );
    expect(wrong.length, `planner vs ground truth, agent × edge:\n${table.join('\n')}`).toBe(0);
  });

  it('measures what the draft tells the annotator: the crawl space’s height, the sills’ heights, the doors’ widths', () => {
    const crawl = edge('study', 'store');
    expect(got('QUADRUPEDAL', crawl).measured.clearHeightM).toBeCloseTo(0.35, 2);
    expect(got('QUADRUPEDAL', crawl).note).toBe('Low opening: clear height 0.35 m < 0.70 m agent height');
    expect(got('HUMAN', crawl).measured.clearHeightM).toBeCloseTo(0.35, 2);

    expect(got('WHEELCHAIR', edge('hall', 'bedroom')).measured.stepHeightM).toBeCloseTo(0.017, 3);
    expect(got('WHEELCHAIR', edge('hall', 'bedroom')).note).toBe('Sill 0.017 m higher than the 0.013 m the agent can cross');
    expect(got('SWEEPER', edge('hall', 'kitchen')).measured.stepHeightM).toBeCloseTo(0.03, 3);
    expect(got('WHEELCHAIR', edge('kitchen', 'pantry')).measured.stepHeightM).toBeCloseTo(0.1, 3);

    // The humanoid's narrow doors, jamb to jamb — the workshop's lies off to the side of the hall,
    // so the way to it crosses the doorway at 45°.
    for (const [room, width] of [
      ['bedroom', 0.85],
      ['kitchen', 0.72],
      ['workshop', 0.9],
    ] as const) {
      const d = got('HUMANOID', edge('hall', room));
      expect(d.measured.clearWidthM, room).toBeCloseTo(width, 2);
      expect(d.measured.neededWidthM, room).toBe(0.94);
    }
  });

  it('passes what it can with the numbers of the way: the sweeper crawls through 0.60 m, the sweeper crosses the 1.7 cm sill', () => {
    const crawl = got('SWEEPER', edge('study', 'store'));
    expect(crawl.reached).toBe(true);
    expect(crawl.measured.clearWidthM).toBeCloseTo(0.6, 2);
    expect(got('SWEEPER', edge('hall', 'bedroom')).measured.stepHeightM).toBeCloseTo(0.017, 3);
  });

  it('drives every agent up the ramp to the den, 14 cm higher, as a slope: no single rise above a few millimetres', () => {
    const ramp = edge('hall', 'den');
    for (const agent of CAPNAV_AGENTS) {
      const d = got(agent, ramp);
      expect(d.reached, agent).toBe(true);
      const ys = d.motion.map((p) => p.y);
      expect(Math.min(...ys), agent).toBeCloseTo(0, 3);
      expect(Math.max(...ys), agent).toBeCloseTo(0.14, 3);
      expect(d.measured.stepHeightM ?? 0, agent).toBeLessThan(0.005);
      expect(d.measured.clearWidthM, agent).toBeCloseTo(1.2, 2);
    }
  });
});
