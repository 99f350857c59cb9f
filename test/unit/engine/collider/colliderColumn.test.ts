import { BufferAttribute, BufferGeometry, Group, Matrix4, Mesh, MeshBasicMaterial } from 'three';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES } from '../../../../src/core/agents.ts';
import { PolygonClipper } from '../../../../src/engine/collider/clip.ts';
import { ColumnScan } from '../../../../src/engine/collider/column.ts';
import { footprintOf, type Footprint } from '../../../../src/engine/collider/footprint.ts';
import { colliderWorldOf, surfaceFromTriangles } from '../../../../src/engine/collider/world.ts';
import { mulberry32 } from '../../../support/random.ts';

// The column scan takes shortcuts for speed (tree culling by axis-aligned bounds, no clipping of
// triangles wholly inside, only the few cylinder sides facing a small triangle). A scan-like soup
// of random triangles must give exactly what clipping every triangle against every side gives.

function soup(seed: number, count: number, size: number): { positions: Float32Array; index: Uint32Array } {
  const rng = mulberry32(seed);
  const positions = new Float32Array(count * 9);
  for (let t = 0; t < count; t++) {
    const cx = (rng() - 0.5) * 2,
      cy = rng() * 2,
      cz = (rng() - 0.5) * 2;
    for (let k = 0; k < 3; k++) {
      positions[t * 9 + k * 3] = cx + (rng() - 0.5) * size;
      positions[t * 9 + k * 3 + 1] = cy + (rng() - 0.5) * size;
      positions[t * 9 + k * 3 + 2] = cz + (rng() - 0.5) * size;
    }
  }
  return { positions, index: Uint32Array.from({ length: count * 3 }, (_, i) => i) };
}

/** Every triangle clipped against every side of the outline and the height range: the slow, obvious answer. */
function bruteForce(positions: Float32Array, fp: Footprint, x: number, z: number, yaw: number, yMin: number, yMax: number): Map<string, [number, number]> {
  const clipper = new PolygonClipper();
  const s = Math.sin(yaw),
    c = Math.cos(yaw);
  const out = new Map<string, [number, number]>();
  for (let t = 0; t < positions.length / 9; t++) {
    const local: number[] = [];
    for (let k = 0; k < 3; k++) {
      const dx = positions[t * 9 + k * 3]! - x,
        y = positions[t * 9 + k * 3 + 1]!,
        dz = positions[t * 9 + k * 3 + 2]! - z;
      local.push(dx * c - dz * s, y, dx * s + dz * c);
    }
    clipper.start(local, 0);
    for (const pl of fp.planes) clipper.clip(pl.nu, 0, pl.nv, pl.d);
    if (clipper.count === 0) continue;
    let lo = Infinity,
      hi = -Infinity;
    for (let i = 0; i < clipper.count; i++) {
      lo = Math.min(lo, clipper.poly[i * 3 + 1]!);
      hi = Math.max(hi, clipper.poly[i * 3 + 1]!);
    }
    if (hi < yMin || lo > yMax) continue;
    out.set(key(local), [Math.max(lo, yMin), Math.min(hi, yMax)]);
  }
  return out;
}
const key = (tri: ArrayLike<number>) => Array.from({ length: 9 }, (_, i) => tri[i]!.toFixed(5)).join(',');

describe('the footprint column sees what a brute-force clip sees', () => {
  for (const name of ['HUMAN', 'WHEELCHAIR']) {
    it(`${name}: random small and large triangles around the agent, at several headings`, () => {
      const fp = footprintOf(DEFAULT_PROFILES.find((p) => p.name === name)!);
      for (const [seed, size] of [
        [1, 0.08],
        [2, 0.4],
        [3, 2.5],
      ] as const) {
        const { positions, index } = soup(seed, 3000, size);
        const surface = surfaceFromTriangles(positions, index);
        for (const yaw of [0, 0.4, Math.PI / 4, 2.9]) {
          const scan = new ColumnScan().run([{ surface, door: false }], fp, 0.05, -0.1, yaw, 0.2, 1.6);
          const expected = bruteForce(positions, fp, 0.05, -0.1, yaw, 0.2, 1.6);
          const got = new Map<string, [number, number]>();
          for (let i = 0; i < scan.count; i++) got.set(key(scan.tri.subarray(i * 9, i * 9 + 9)), [scan.lo[i]!, scan.hi[i]!]);
          expect(got.size, `seed ${seed} yaw ${yaw}`).toBe(expected.size);
          for (const [k, [lo, hi]] of expected) {
            const g = got.get(k);
            expect(g, `seed ${seed} yaw ${yaw}: a triangle is missing`).toBeDefined();
            expect(g![0]).toBeCloseTo(lo, 9);
            expect(g![1]).toBeCloseTo(hi, 9);
          }
        }
      }
    });
  }
});

describe('the world of a scan', () => {
  it('without door meshes it is the scan’s own collision mesh and BVH, nothing rebuilt', () => {
    const { positions, index } = soup(4, 10, 0.5);
    const surface = surfaceFromTriangles(positions, index);
    const collision = new Mesh(surface.geometry, new MeshBasicMaterial());
    const object = new Group().add(new Mesh(new BufferGeometry().setAttribute('position', new BufferAttribute(positions, 3)), new MeshBasicMaterial()));
    const world = colliderWorldOf({ object, collision, frame: new Matrix4() });
    expect(world.solid.geometry).toBe(surface.geometry);
    expect(world.doors).toBeNull();
  });
});
