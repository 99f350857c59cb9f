import type { Vec3 } from '../../core/graph.ts';
import { gridOver, planBoundsOf, type PlanGrid } from './grid.ts';

/**
 * Where a segment's motion is searched: the cells within `radiusM` of the edge's route on the plan
 * (a tube round it), each with the route's height at its nearest route point. That height picks,
 * in a column with several storeys, the floor the edge runs on (terrain.ts). The tube bounds the
 * search, so deciding that no motion exists is exhaustive over it and stays quick.
 */
export interface Region {
  grid: PlanGrid;
  /** 1 for cells in the tube. */
  mask: Uint8Array;
  /** Route height at the nearest route point (NaN outside the tube). */
  yRef: Float32Array;
  /** How far along the route (metres on the plan) the nearest route point is: progress towards its end. */
  along: Float32Array;
  /** Where the route the region was made for begins (plan), and its length on the plan: `along` runs from there. */
  from: { x: number; z: number };
  length: number;
  yMin: number;
  yMax: number;
}

export function regionAround(route: readonly Vec3[], radiusM: number, cellM: number): Region {
  if (route.length === 0) throw new Error('planner: the route is empty');
  const { minX, maxX, minZ, maxZ } = planBoundsOf(route);
  let yMin = Infinity,
    yMax = -Infinity;
  for (const p of route) {
    yMin = Math.min(yMin, p.y);
    yMax = Math.max(yMax, p.y);
  }
  const grid = gridOver(minX - radiusM, minZ - radiusM, maxX + radiusM, maxZ + radiusM, cellM);
  const n = grid.nx * grid.nz;
  const mask = new Uint8Array(n);
  const yRef = new Float32Array(n).fill(NaN);
  const along = new Float32Array(n);
  const best = new Float32Array(n).fill(Infinity);
  const r2 = radiusM * radiusM;
  const segments = route.length === 1 ? [[route[0]!, route[0]!]] : route.slice(1).map((b, k) => [route[k]!, b]);
  let s0 = 0;
  for (const [a, b] of segments) {
    const dx = b!.x - a!.x,
      dz = b!.z - a!.z,
      len2 = dx * dx + dz * dz;
    const len = Math.sqrt(len2);
    const i0 = Math.max(0, Math.floor((Math.min(a!.x, b!.x) - radiusM - grid.x0) / cellM)),
      i1 = Math.min(grid.nx - 1, Math.floor((Math.max(a!.x, b!.x) + radiusM - grid.x0) / cellM));
    const j0 = Math.max(0, Math.floor((Math.min(a!.z, b!.z) - radiusM - grid.z0) / cellM)),
      j1 = Math.min(grid.nz - 1, Math.floor((Math.max(a!.z, b!.z) + radiusM - grid.z0) / cellM));
    for (let j = j0; j <= j1; j++) {
      const z = grid.z0 + (j + 0.5) * cellM;
      for (let i = i0; i <= i1; i++) {
        const x = grid.x0 + (i + 0.5) * cellM;
        const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - a!.x) * dx + (z - a!.z) * dz) / len2)) : 0;
        const px = a!.x + t * dx - x,
          pz = a!.z + t * dz - z;
        const d2 = px * px + pz * pz;
        const c = j * grid.nx + i;
        if (d2 > r2 || d2 >= best[c]!) continue;
        best[c] = d2;
        mask[c] = 1;
        yRef[c] = a!.y + t * (b!.y - a!.y);
        along[c] = s0 + t * len;
      }
    }
    s0 += len;
  }
  return { grid, mask, yRef, along, from: { x: route[0]!.x, z: route[0]!.z }, length: s0, yMin, yMax };
}
