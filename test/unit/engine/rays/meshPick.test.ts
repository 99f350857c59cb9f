import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Group, Raycaster, Vector3 } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMesh, type LoadedMesh } from '../../../../src/engine/mesh/load.ts';
import { castRay, floorBelow } from '../../../../src/engine/rays/cast.ts';
import { scanSurface } from '../../../../src/engine/rays/surface.ts';
import { ROOM, meshInput, writePly } from '../../../support/meshFixtures.ts';

// The fixture room (Z up in the file) drawn at half size: 2 × 1.5 m floor, table top at 0.375 m.
const SCALE = 0.5;
let dir: string;
let room: LoadedMesh;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'traversa-mesh-pick-'));
  room = await loadMesh(meshInput(writePly(dir, 'binary').ply), { upAxis: 'z', unitScale: SCALE });
});
afterAll(() => {
  room.dispose();
  rmSync(dir, { recursive: true, force: true });
});

// Z-up file (x, y, z) → world (x, z, −y) × scale: the floor spans x 0..2, z 0..1.5 in the world.
const world = (x: number, y: number, z: number) => new Vector3(x, y, z);

describe('picking the floor under the pointer and under an agent', () => {
  it('hits the floor from a camera above, in world units, with the normal facing the camera', () => {
    const hit = castRay(scanSurface(room), world(0.5, 5, 1), new Vector3(0, -1, 0))!;
    expect(hit.point.toArray()).toEqual([expect.closeTo(0.5, 6), expect.closeTo(0, 6), expect.closeTo(1, 6)]);
    expect(hit.normal.y).toBeCloseTo(1, 6);
    expect(hit.distance).toBeCloseTo(5, 6);
    expect(hit.faceIndex).toBeGreaterThanOrEqual(0);
  });

  it('agrees with three’s raycaster (firstHitOnly) on the collision mesh under a frame group, for slanted rays', () => {
    const wrapper = new Group();
    wrapper.applyMatrix4(room.frame);
    wrapper.add(room.collision);
    wrapper.updateMatrixWorld(true);
    const raycaster = new Raycaster();
    raycaster.firstHitOnly = true;
    // Rays chosen to land inside triangles: on a shared edge either triangle is a right answer.
    const rays = [
      [world(1.13, 3, 2.71), new Vector3(0.05, -1, -0.93)],
      [world(-1, 1, 0.77), new Vector3(1, -0.21, 0.13)],
      [world(0.93, 2, 0.71), new Vector3(0, -1, 0)],
    ] as const;
    for (const [origin, dir] of rays) {
      raycaster.set(origin, dir.clone().normalize());
      const [three] = raycaster.intersectObject(room.collision);
      const ours = castRay(scanSurface(room), origin, dir.clone().normalize())!;
      expect(ours.point.distanceTo(three!.point)).toBeLessThan(1e-6);
      expect(ours.distance).toBeCloseTo(three!.distance, 6);
      expect(ours.faceIndex).toBe(three!.faceIndex);
    }
    wrapper.remove(room.collision);
  });

  it('finds the table top under a point above the table, and the floor beside it', () => {
    const table = ROOM.table * SCALE;
    // The table top spans file x 1.5..2.5, depth 1.2..1.8 → world x 0.75..1.25, z 0.6..0.9.
    expect(floorBelow(scanSurface(room), world(1, 1, 0.75), 2)!.point.y).toBeCloseTo(table, 6);
    expect(floorBelow(scanSurface(room), world(0.3, 1, 0.3), 2)!.point.y).toBeCloseTo(0, 6);
  });

  it('finds nothing when the drop is longer than allowed, or outside the room', () => {
    expect(floorBelow(scanSurface(room), world(0.3, 1, 0.3), 0.99)).toBeNull();
    expect(floorBelow(scanSurface(room), world(0.3, 1, 0.3), 1.01)).not.toBeNull();
    expect(floorBelow(scanSurface(room), world(-5, 1, -5), 100)).toBeNull();
  });

  it('counts a surface exactly at the point (an agent standing on the floor)', () => {
    expect(floorBelow(scanSurface(room), world(0.3, 0, 0.3), 0.1)!.distance).toBeCloseTo(0, 9);
  });
});
