import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../../src/core/agents.ts';
import { AgentMap } from '../../../../src/engine/planner/agentMap.ts';
import { squaredDistances } from '../../../../src/engine/planner/distance.ts';
import { HEADINGS, poseSpaceOf, specOf } from '../../../../src/engine/planner/attempt.ts';
import { ScenePlanner } from '../../../../src/engine/planner/scene.ts';
import { RowMax } from '../../../../src/engine/terrain/rowMax.ts';
import { boxCoverAt } from '../../../../src/engine/planner/boxRows.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/geometry.ts';
import { inFrame, ROOM_NODES, twoRooms } from '../../../support/suggestScenes.ts';
import { mulberry32 } from '../../../support/random.ts';

// The pieces the drive's search stands on, against the plain way of working each out: the row
// maxima behind the support under a footprint, a box footprint's free test (its rows, made once per
// heading, on a lattice point) against every cell centre it holds, and a 1 cm lattice over a window
// of the terrain (the bridge across a bottleneck) against the same lattice over the whole region.

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
    // Reading a coarse lattice's answers where the points coincide gives the answers it would find itself,
    // and a point the collider vetoed on the coarse lattice is not passed on.
    const coarse = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 2, false);
    for (let p = 0; p < coarse.points; p++) for (let k = 0; k < coarse.K; k += 3) coarse.free(p, k);
    const vetoedAt = coarse.nearest(3.0, 1.5);
    coarse.veto(vetoedAt);
    const fresh = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 1, false, window);
    const reading = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 1, false, window);
    reading.readFrom(coarse);
    let shared = 0;
    for (let p = 0; p < reading.points; p++) {
      for (let k = 0; k < reading.K; k += 3) expect(reading.free(p, k), `point ${p}, heading ${k}`).toBe(fresh.free(p, k));
      expect(reading.spins(p)).toBe(fresh.spins(p));
      const c = reading.cellOf(p);
      if ((c % g.nx) % 2 === 0 && Math.floor(c / g.nx) % 2 === 0) shared++;
    }
    expect(shared).toBeGreaterThan(1000);
    expect(fresh.tests - reading.tests, 'map tests the coarse answers saved').toBeGreaterThan(shared);
    const onVeto = reading.nearest(coarse.x(vetoedAt), coarse.z(vetoedAt));
    expect(onVeto).toBeGreaterThanOrEqual(0);
    expect(fresh.statesAt(onVeto).length).toBeGreaterThan(0);
    expect(reading.statesAt(onVeto)).toEqual(fresh.statesAt(onVeto));
    expect(() => poseSpaceOf(terrain, agent('HUMANOID'), null, 1, false, window).readFrom(coarse)).toThrow(/same map/);
    // Progress is counted the way the agent drives: from the far end, it is what is left.
    const forth = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 2, false),
      back = poseSpaceOf(terrain, agent('WHEELCHAIR'), null, 2, true);
    const p = forth.nearest(a!.x + 1, a!.z);
    expect(forth.progress(p)).toBeCloseTo(1, 1);
    expect(forth.progress(p) + back.progress(p)).toBeCloseTo(terrain.region.length, 5);
  });
});

describe('the distance transform behind clearances', () => {
  it('gives every cell its squared distance to the nearest marked cell, Infinity with none marked', () => {
    const random = mulberry32(5);
    for (const [nx, nz, p] of [
      [1, 1, 0.5],
      [1, 9, 0.2],
      [13, 1, 0.2],
      [31, 17, 0.05],
      [20, 20, 0],
      [40, 25, 0.3],
    ] as const) {
      const marked = Uint8Array.from({ length: nx * nz }, () => (random() < p ? 1 : 0));
      const got = squaredDistances(marked, nx, nz);
      for (let c = 0; c < nx * nz; c++) {
        let want = Infinity;
        for (let m = 0; m < nx * nz; m++) if (marked[m]) want = Math.min(want, ((m % nx) - (c % nx)) ** 2 + (Math.floor(m / nx) - Math.floor(c / nx)) ** 2);
        expect(got[c], `${nx} × ${nz}, cell ${c}`).toBe(want);
      }
    }
  });
});

describe("a box footprint's free test", () => {
  it('is free exactly when no blocked cell centre, and none off the grid, lies inside the box: on lattice points at lattice headings, and elsewhere', async () => {
    // Two rooms cluttered along their sides as a scan's are (legs, boxes, a low shelf, odd sizes at odd places), so the blocked cells are no straight walls.
    const random = mulberry32(11);
    const rooms = twoRooms({ doorWidth: 0.8 });
    for (let n = 0; n < 24; n++) {
      const x = 0.2 + random() * 5.6,
        z = random() < 0.5 ? 0.45 + random() * 0.4 : 2.1 + random() * 0.4,
        w = 0.03 + random() * 0.15,
        d = 0.03 + random() * 0.15,
        y0 = n % 4 === 0 ? 0.3 + random() * 0.6 : 0;
      rooms.box('clutter', [x, y0, z], [x + w, y0 + 0.05 + random() * 0.6, z + d]);
    }
    const scene = await ScenePlanner.create(prepareGeometry(rooms.loaded()));
    try {
      const [a, b] = ROOM_NODES.map((p) => inFrame(p));
      const { terrain } = scene.planner.terrainFor([a!, b!], 1.0);
      const g = terrain.region.grid;
      for (const name of ['WHEELCHAIR', 'QUADRUPEDAL', 'HUMANOID']) {
        const spec = specOf(agent(name));
        const map = new AgentMap(terrain, spec);
        if (name === 'WHEELCHAIR') {
          // The clutter is in the map: cells blocked in open floor, away from every wall.
          let cluttered = 0;
          for (let j = 0; j < g.nz; j++)
            for (let i = 0; i < g.nx; i++) {
              const x = g.x0 + (i + 0.5) * g.cellM,
                z = g.z0 + (j + 0.5) * g.cellM;
              if (x > 0.8 && x < 2.2 && z > 0.6 && z < 0.8 && map.blocked[j * g.nx + i]) cluttered++;
            }
          expect(cluttered).toBeGreaterThan(20);
        }
        let free = 0,
          blocked = 0;
        for (let n = 0; n < 6000; n++) {
          // Mostly where a search asks (a cell centre, one of its headings, the map's sure/unsure sizes), some anywhere.
          const i = Math.floor(random() * g.nx),
            j = Math.floor(random() * g.nz);
          const anywhere = n % 5 === 0;
          const x = g.x0 + (i + 0.5 + (anywhere ? random() - 0.5 : 0)) * g.cellM,
            z = g.z0 + (j + 0.5) * g.cellM;
          const yaw = anywhere ? random() * Math.PI : (Math.floor(random() * HEADINGS) * Math.PI) / HEADINGS;
          const grow = (n % 2 ? 1 : -1) * 0.0075 + (anywhere ? (random() - 0.5) * 0.01 : 0);
          const hu = spec.halfWidthM + grow,
            hv = spec.halfDepthM + grow;
          const sn = Math.sin(yaw),
            cs = Math.cos(yaw);
          // A box reaching within a cell of the grid's edge is refused whole (the walk's rows stop at it): not this test's.
          const ex = hu * Math.abs(cs) + hv * Math.abs(sn),
            ez = hu * Math.abs(sn) + hv * Math.abs(cs);
          if (x - ex < g.x0 + g.cellM || x + ex > g.x0 + (g.nx - 1) * g.cellM || z - ez < g.z0 + g.cellM || z + ez > g.z0 + (g.nz - 1) * g.cellM) continue;
          let want = true;
          const reach = Math.ceil(Math.hypot(hu, hv) / g.cellM) + 1;
          const ci = Math.round((x - g.x0) / g.cellM - 0.5),
            cj = Math.round((z - g.z0) / g.cellM - 0.5);
          for (let jj = cj - reach; jj <= cj + reach && want; jj++) {
            for (let ii = ci - reach; ii <= ci + reach && want; ii++) {
              const dx = g.x0 + (ii + 0.5) * g.cellM - x,
                dz = g.z0 + (jj + 0.5) * g.cellM - z;
              // Across the heading (cos, −sin) and along it (sin, cos).
              if (Math.abs(dx * cs - dz * sn) > hu || Math.abs(dx * sn + dz * cs) > hv) continue;
              if (ii < 0 || jj < 0 || ii >= g.nx || jj >= g.nz || map.blocked[jj * g.nx + ii]) want = false;
            }
          }
          expect(
            map.boxFree(x, z, yaw, hu, hv),
            `${name} at (${x.toFixed(3)}, ${z.toFixed(3)}), yaw ${yaw.toFixed(4)}, ${hu.toFixed(4)} × ${hv.toFixed(4)}`,
          ).toBe(want);
          if (want) free++;
          else blocked++;
        }
        expect(free, name).toBeGreaterThan(500);
        expect(blocked, name).toBeGreaterThan(500);
      }
    } finally {
      scene.dispose();
    }
  });
});

describe("an agent's blocked cells", () => {
  it('are shared by the maps that differ in footprint alone (the agent, the disc of its narrow side, a guide), and made anew for another height, step, doors or stairs', async () => {
    const rooms = twoRooms({ doorWidth: 0.8 });
    // A shelf 0.9 m up: lower than the wheelchair, higher than a 0.5 m agent, so the two heights block different cells.
    rooms.box('shelf', [1.0, 0.9, 1.0], [1.6, 0.95, 1.6]);
    const scene = await ScenePlanner.create(prepareGeometry(rooms.loaded()));
    try {
      const [a, b] = ROOM_NODES.map((p) => inFrame(p));
      const { terrain } = scene.planner.terrainFor([a!, b!], 1.0);
      const spec = specOf(agent('WHEELCHAIR'));
      const box = new AgentMap(terrain, spec);
      const disc = new AgentMap(terrain, { ...spec, shape: 'disc', halfDepthM: spec.halfWidthM });
      const guide = new AgentMap(terrain, { ...spec, shape: 'disc', halfWidthM: spec.halfWidthM - 0.01, halfDepthM: spec.halfWidthM - 0.01 });
      expect(disc.blocked).toBe(box.blocked);
      expect(guide.blocked).toBe(box.blocked);
      const count = (m: AgentMap) => m.blocked.reduce((n, v) => n + v, 0);
      const low = new AgentMap(terrain, { ...spec, heightM: 0.5 });
      expect(low.blocked).not.toBe(box.blocked);
      // The shelf blocks the tall agent's cells under it, not the low one's.
      expect(count(box) - count(low)).toBeGreaterThan(2_000);
      for (const other of [{ stepLimitM: 0.2 }, { doorsOpen: !spec.doorsOpen }, { stairs: !spec.stairs }])
        expect(new AgentMap(terrain, { ...spec, ...other }).blocked, JSON.stringify(other)).not.toBe(box.blocked);
      // A disc's test reads the shared cells: free where the brute force finds no blocked centre within its radius.
      const g = terrain.region.grid;
      const r = spec.halfWidthM;
      for (let n = 0; n < 400; n++) {
        const i = 20 + ((n * 37) % (g.nx - 40)),
          j = 20 + ((n * 53) % (g.nz - 40));
        const x = g.x0 + (i + 0.5) * g.cellM,
          z = g.z0 + (j + 0.5) * g.cellM;
        let want = true;
        const reach = Math.ceil(r / g.cellM);
        for (let jj = j - reach; jj <= j + reach && want; jj++)
          for (let ii = i - reach; ii <= i + reach && want; ii++) {
            if (Math.hypot(ii - i, jj - j) * g.cellM > r) continue;
            if (ii < 0 || jj < 0 || ii >= g.nx || jj >= g.nz || box.blocked[jj * g.nx + ii]) want = false;
          }
        expect(disc.discFree(x, z, r), `(${x.toFixed(2)}, ${z.toFixed(2)})`).toBe(want);
      }
    } finally {
      scene.dispose();
    }
  });
});

describe("a box's cover of discs", () => {
  it('holds every cell centre of the box within one of its discs, at every size and heading a search asks and at odd ones', () => {
    const random = mulberry32(5);
    const cell = 0.01;
    const sizes = DEFAULT_PROFILES.filter((p) => p.shape === 'box').flatMap((p) => {
      const s = specOf(p);
      return [-0.0075, 0, 0.0075].map((g) => [s.halfWidthM + g, s.halfDepthM + g] as const);
    });
    for (let n = 0; n < 40; n++) sizes.push([0.05 + random() * 0.5, 0.05 + random() * 0.6]);
    let cells = 0;
    for (const [hu, hv] of sizes) {
      const yaws = [...Array.from({ length: HEADINGS }, (_, k) => (k * Math.PI) / HEADINGS), random() * Math.PI, random() * Math.PI];
      for (const yaw of yaws) {
        const { offsets, r2, reachI, reachJ } = boxCoverAt(yaw, hu, hv, cell);
        const sn = Math.sin(yaw),
          cs = Math.cos(yaw);
        for (let dj = -reachJ; dj <= reachJ; dj++)
          for (let di = -reachI; di <= reachI; di++) {
            const dx = di * cell,
              dz = dj * cell;
            // Across the heading (cos, −sin) and along it (sin, cos): inside the box.
            if (Math.abs(dx * cs - dz * sn) > hu || Math.abs(dx * sn + dz * cs) > hv) continue;
            cells++;
            let covered = false;
            for (let m = 0; m < offsets.length && !covered; m += 2) covered = (di - offsets[m]!) ** 2 + (dj - offsets[m + 1]!) ** 2 <= r2;
            if (!covered) expect.fail(`${hu.toFixed(4)} × ${hv.toFixed(4)} at yaw ${yaw.toFixed(4)}: cell (${di}, ${dj}) in no disc`);
          }
      }
    }
    expect(cells).toBeGreaterThan(1_000_000);
  });
});
