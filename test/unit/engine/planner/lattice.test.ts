import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../../src/core/agents.ts';
import { poseSpaceOf } from '../../../../src/engine/planner/attempt.ts';
import { ScenePlanner } from '../../../../src/engine/planner/scene.ts';
import { RowMax } from '../../../../src/engine/terrain/rowMax.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/geometry.ts';
import { inFrame, ROOM_NODES, twoRooms } from '../../../support/suggestScenes.ts';
import { mulberry32 } from '../../../support/random.ts';

// The pieces the drive's search stands on, against the plain way of working each out: the row
// maxima behind the support under a footprint, and a 1 cm lattice over a window of the terrain (the
// bridge across a bottleneck) against the same lattice over the whole region.

const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;

describe('the highest floor in a run of a grid row (RowMax)', () => {
  it('is the largest of the cells, floors missing (NaN) counting as none, for every run of every row', () => {
    const random = mulberry32(7);
    for (const nx of [1, 2, 5, 37, 64]) {
      const nz = 3;
      const values = Float32Array.from({ length: nx * nz }, () => (random() < 0.2 ? NaN : Math.round(random() * 1000) / 100));
      const table = new RowMax(values, nx);
      for (let j = 0; j < nz; j++) {
        for (let i0 = 0; i0 < nx; i0++) {
          for (let i1 = i0; i1 < nx; i1++) {
            let want = -Infinity;
            for (let i = i0; i <= i1; i++) if (!Number.isNaN(values[j * nx + i]!)) want = Math.max(want, values[j * nx + i]!);
            expect(table.max(j, i0, i1), `nx ${nx}, row ${j}, cells ${i0}–${i1}`).toBe(want);
          }
        }
      }
    }
  });
});

describe('a 1 cm lattice over a window of the terrain', () => {
  const planners: ScenePlanner[] = [];
  afterAll(() => planners.forEach((p) => p.dispose()));

  it('is the whole-region lattice on those cells: the same places, progress either way, and poses free', async () => {
    const scene = await ScenePlanner.create(prepareGeometry(twoRooms({ doorWidth: 0.8 }).loaded()));
    planners.push(scene);
    const [a, b] = ROOM_NODES.map((p) => inFrame(p));
    const { terrain } = scene.planner.terrainFor([a!, b!], 1.0);
    const g = terrain.region.grid;
    // Round the doorway (the wall between the rooms is at x = 3), starting on an odd cell.
    const i0 = Math.floor((2.6 - g.x0) / g.cellM) | 1,
      j0 = Math.floor((1.1 - g.z0) / g.cellM) | 1;
    const window = { i0, j0, ni: 80, nj: 81 };
    for (const backwards of [false, true]) {
      const whole = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 1, backwards);
      const part = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 1, backwards, window);
      expect([part.lx, part.lz, part.i0, part.j0]).toEqual([80, 81, i0, j0]);
      let blocked = 0,
        free = 0;
      for (let p = 0; p < part.points; p += 7) {
        const q = part.cellOf(p); // the whole lattice's point on the same cell (1 cm: one point a cell)
        expect([part.x(p), part.z(p)]).toEqual([whole.x(q), whole.z(q)]);
        expect(part.nearest(part.x(p), part.z(p))).toBe(p);
        expect(part.progress(p)).toBe(whole.progress(q));
        for (let k = 0; k < part.K; k += 5) {
          const f = part.free(p, k);
          expect(f, `point ${p}, heading ${k}`).toBe(whole.free(q, k));
          if (f) free++;
          else blocked++;
        }
        expect(part.spins(p)).toBe(whole.spins(q));
      }
      // The window holds both: the wall and the doorway's free poses.
      expect(blocked).toBeGreaterThan(100);
      expect(free).toBeGreaterThan(100);
    }
    // Progress is counted the way the agent drives: from the far end, it is what is left.
    const forth = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 2, false),
      back = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 2, true);
    const p = forth.nearest(a!.x + 1, a!.z);
    expect(forth.progress(p)).toBeCloseTo(1, 1);
    expect(forth.progress(p) + back.progress(p)).toBeCloseTo(terrain.region.length, 5);
  });
});
