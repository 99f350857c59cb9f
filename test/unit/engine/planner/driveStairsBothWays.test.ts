import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoadedMesh } from '../../../../src/engine/mesh/load.ts';
import { ScenePlanner } from '../../../../src/engine/planner/scene.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/index.ts';
import { loadSampleHouse, sampleRelease } from '../../../support/suggestTruth.ts';

// The studio's `G` drives a segment the way the label queue walks it — up the stairs or down them —
// and the scene worker keeps each edge's terrain for the next agent. The terrain was built from
// whichever end was asked first, and from the stair foot its flood fill stepped down under the
// flight (the floor below a tread is as near the tread before it as the next tread is): every
// stairs segment then said "no walkable way, even for the smallest agent" in the browser, while
// `cli drive` (which asks from the landing's end) was right. Now the answer cannot depend on it.

const release = sampleRelease();
const node = (name: string) => release.graph.nodes.find((n) => n.name === name)!.position;
const agent = (name: string) => release.profiles.find((p) => p.name === name)!;
let loaded: LoadedMesh;

beforeAll(async () => {
  loaded = await loadSampleHouse();
});
afterAll(() => loaded.dispose());

describe('the stairs of the sample house, driven from either end first', () => {
  for (const [first, second] of [
    ['Stair foot', 'Landing'],
    ['Landing', 'Stair foot'],
  ] as const) {
    it(`${first} → ${second} first, then back: the human climbs, the quadruped climbs, the wheelchair is stopped by the stairs`, async () => {
      const planner = await ScenePlanner.create(prepareGeometry(loaded));
      try {
        for (const [a, b] of [
          [first, second],
          [second, first],
        ] as const) {
          expect(planner.decide(agent('HUMAN'), node(a), node(b)), `HUMAN ${a} → ${b}`).toMatchObject({ reached: true });
          expect(planner.decide(agent('QUADRUPEDAL'), node(a), node(b)), `QUADRUPEDAL ${a} → ${b}`).toMatchObject({ reached: true });
          expect(planner.decide(agent('WHEELCHAIR'), node(a), node(b)), `WHEELCHAIR ${a} → ${b}`).toMatchObject({ reached: false, reason: 'stairs' });
        }
      } finally {
        planner.dispose();
      }
    }, 60_000);
  }
});

// The same shared terrain measured how far along the edge a pose is from the end it was first built
// from. Driven the other way later, the search's "farthest reached" and the 1 cm bridge's window
// across a bottleneck (bridge.ts: from 1.5 m before the stuck point to 3 m after) were then counted
// backwards: the wheelchair refused at the L-corner was told the corner was 2.50 m instead of 0.80 m,
// and on the scan-like house its refusal took 5 s instead of 1 s and the quadruped's lost its doubt,
// depending only on which way the corner was driven first.
describe('a decision does not depend on which way its edge was driven first', () => {
  const same = (d: ReturnType<ScenePlanner['decide']>) => ({
    reached: d.reached,
    reason: d.reason,
    note: d.note,
    doubt: d.doubt,
    expanded: d.stats.expanded,
    poseTests: d.stats.poseTests,
    motion: d.motion.length,
  });
  for (const [edge, who] of [[['Kitchen', 'Utility room'], ['WHEELCHAIR']]] as const) {
    it(`${edge[1]} → ${edge[0]}, alone and after ${edge[0]} → ${edge[1]}: ${who.join(', ')}`, async () => {
      const geom = prepareGeometry(loaded);
      const alone = await ScenePlanner.create(geom);
      const after = await ScenePlanner.create(geom);
      try {
        for (const name of who) {
          const back = alone.decide(agent(name), node(edge[1]), node(edge[0]));
          after.decide(agent(name), node(edge[0]), node(edge[1]));
          expect(same(after.decide(agent(name), node(edge[1]), node(edge[0]))), name).toEqual(same(back));
        }
      } finally {
        alone.dispose();
        after.dispose();
      }
    }, 120_000);
  }
});
