import { corners, triangleShape, type Part } from './parts.ts';
import { between } from './random.ts';

/**
 * Round patches of one surface: a seed triangle drawn by area, then every triangle of the same
 * part whose centre lies within the patch's radius of the seed's and in the seed's plane (normals
 * within ~18°, centres within 2 cm of its plane) — a patch of a floor stays on the floor, it does
 * not climb the wall beside it. Patches are drawn until they cover `fraction` of the area of the
 * triangles `eligible` admits. Holes, duplicate layers and missing ceilings are all such patches.
 */
export interface PatchOptions {
  fraction: number;
  /** Patch radius, drawn uniformly. */
  radiusM: [number, number];
  eligible?: (shape: ReturnType<typeof triangleShape>, part: Part) => boolean;
}

export interface Patch {
  part: Part;
  /** Triangle indices in the patch. */
  triangles: number[];
  /** The seed triangle's unit normal (by its winding). */
  normal: [number, number, number];
}

interface Tri {
  part: number;
  t: number;
  cx: number;
  cy: number;
  cz: number;
  nx: number;
  ny: number;
  nz: number;
  area: number;
}

const CELL_M = 0.25;

export function drawPatches(parts: readonly Part[], o: PatchOptions, r: () => number): Patch[] {
  const tris: Tri[] = [];
  const buf = new Float64Array(9);
  parts.forEach((p, pi) => {
    for (let t = 0; t < p.indices.length / 3; t++) {
      const s = triangleShape(corners(p, t, buf));
      if (!(s.area > 0) || (o.eligible && !o.eligible(s, p))) continue;
      const len = 2 * s.area;
      tris.push({ part: pi, t, cx: s.cx, cy: s.cy, cz: s.cz, nx: s.nx / len, ny: s.ny / len, nz: s.nz / len, area: s.area });
    }
  });
  const total = tris.reduce((n, x) => n + x.area, 0);
  if (tris.length === 0 || total === 0) return [];
  // Cumulative areas, for drawing seeds by area; a hash of centres, for gathering a patch.
  const cum = new Float64Array(tris.length);
  let run = 0;
  tris.forEach((x, i) => {
    run += x.area;
    cum[i] = run;
  });
  const grid = new Map<string, number[]>();
  const key = (x: number, y: number, z: number) => `${Math.floor(x / CELL_M)},${Math.floor(y / CELL_M)},${Math.floor(z / CELL_M)}`;
  tris.forEach((x, i) => {
    const k = key(x.cx, x.cy, x.cz);
    const list = grid.get(k);
    if (list) list.push(i);
    else grid.set(k, [i]);
  });

  const taken = new Uint8Array(tris.length);
  const patches: Patch[] = [];
  let covered = 0;
  for (let guard = 0; covered < o.fraction * total && guard < 100_000; guard++) {
    const u = r() * total;
    let lo = 0,
      hi = tris.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    const seed = tris[lo]!;
    if (taken[lo]) continue;
    const radius = between(r, o.radiusM[0], o.radiusM[1]);
    const reach = Math.ceil(radius / CELL_M);
    const found: number[] = [];
    const [ci, cj, ck] = [Math.floor(seed.cx / CELL_M), Math.floor(seed.cy / CELL_M), Math.floor(seed.cz / CELL_M)];
    for (let i = ci - reach; i <= ci + reach; i++) {
      for (let j = cj - reach; j <= cj + reach; j++) {
        for (let k = ck - reach; k <= ck + reach; k++) {
          for (const n of grid.get(`${i},${j},${k}`) ?? []) {
            const x = tris[n]!;
            if (taken[n] || x.part !== seed.part) continue;
            if (Math.hypot(x.cx - seed.cx, x.cy - seed.cy, x.cz - seed.cz) > radius) continue;
            if (x.nx * seed.nx + x.ny * seed.ny + x.nz * seed.nz < 0.95) continue;
            if (Math.abs((x.cx - seed.cx) * seed.nx + (x.cy - seed.cy) * seed.ny + (x.cz - seed.cz) * seed.nz) > 0.02) continue;
            found.push(n);
          }
        }
      }
    }
    if (found.length === 0) found.push(lo);
    for (const n of found) {
      taken[n] = 1;
      covered += tris[n]!.area;
    }
    patches.push({ part: parts[seed.part]!, triangles: found.map((n) => tris[n]!.t), normal: [seed.nx, seed.ny, seed.nz] });
  }
  return patches;
}
