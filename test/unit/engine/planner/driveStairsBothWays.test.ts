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
