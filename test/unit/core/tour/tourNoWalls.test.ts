import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { TourPosesSchema } from '../../../../src/core/tour/types.ts';
import type { LoadedMesh } from '../../../../src/engine/mesh/types.ts';
import { castRay } from '../../../../src/engine/rays/cast.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/geometry.ts';
import { planTour, TOUR_DEFAULTS, type TourPlan } from '../../../../src/engine/tour/poses.ts';
import { loadSecondHouse, SECOND_HOUSE, secondHouseRelease } from '../../../support/secondHouse.ts';
import { nodeIds } from '../../../../src/core/sample/sampleRelease.ts';

// The second house's store room is reached only through a 0.35 m crawl space: no walker's route goes
// there. The tour used to walk the straight line to it, through the cabinet; now the leg is not walked
// — the video cuts from the one node to the next — and the plan and the poses file say so. Between
// any two frames but a cut's, the eye moves through open air: no pose is inside a wall.

const release = secondHouseRelease();
const ids = nodeIds(SECOND_HOUSE);
let loaded: LoadedMesh;
let plan: TourPlan;

beforeAll(async () => {
  loaded = await loadSecondHouse();
  plan = await planTour(loaded, release.scene.graph, TOUR_DEFAULTS);
}, 120_000);
afterAll(() => loaded.dispose());

describe('the tour of a house with a room no walker reaches', () => {
  it('skips the leg to the store room, saying why, and writes the cut with its time into the poses file', () => {
    const store = ids.get('store')!;
    expect(plan.skippedLegs).toHaveLength(1);
    const leg = plan.skippedLegs[0]!;
    expect([leg.from, leg.to]).toContain(store);
    expect(leg.why).toMatch(/route/);
    const cuts = plan.poses.cuts!;
    expect(cuts).toHaveLength(1);
    expect(cuts[0]).toMatchObject({ from: leg.from, to: leg.to });
    expect(cuts[0]!.t).toBeGreaterThan(0);
    expect(cuts[0]!.t).toBeLessThanOrEqual(plan.poses.frames.at(-1)!.t);
    // The poses file is read back with its cut.
    expect(TourPosesSchema.parse(JSON.parse(JSON.stringify(plan.poses))).cuts).toEqual(cuts);
  });

  it('still visits every node: the store room is shown from inside it after the cut', () => {
    expect(plan.order.slice().sort()).toEqual(release.scene.graph.nodes.map((n) => n.id).sort());
    expect(plan.unseen).toEqual([]);
  });

  it('never moves the eye through a wall between two frames, but at the cut (it walks through doors, as the walker opens them)', () => {
    const surface = prepareGeometry(loaded).solid;
    const cutT = new Set(plan.poses.cuts!.map((c) => c.t));
    const through: string[] = [];
    const dir = new Vector3();
    for (let k = 1; k < plan.world.length; k++) {
      const a = plan.world[k - 1]!,
        b = plan.world[k]!;
      if (cutT.has(plan.poses.frames[k]!.t)) continue;
      const from = new Vector3(a.eye.x, a.eye.y, a.eye.z);
      dir.set(b.eye.x - a.eye.x, b.eye.y - a.eye.y, b.eye.z - a.eye.z);
      const d = dir.length();
      if (d < 1e-6) continue;
      const hit = castRay(surface, from, dir.divideScalar(d), d);
      if (hit) through.push(`t ${b.t}: (${a.eye.x.toFixed(2)}, ${a.eye.z.toFixed(2)}) → (${b.eye.x.toFixed(2)}, ${b.eye.z.toFixed(2)})`);
    }
    expect(through).toEqual([]);
    // Across the cut, the eye would have gone through the cabinet.
    const k = plan.poses.frames.findIndex((f) => cutT.has(f.t));
    const a = plan.world[k - 1]!,
      b = plan.world[k]!;
    const d = Math.hypot(b.eye.x - a.eye.x, b.eye.y - a.eye.y, b.eye.z - a.eye.z);
    expect(
      castRay(surface, new Vector3(a.eye.x, a.eye.y, a.eye.z), new Vector3(b.eye.x - a.eye.x, b.eye.y - a.eye.y, b.eye.z - a.eye.z).divideScalar(d), d),
    ).not.toBeNull();
  });
});
