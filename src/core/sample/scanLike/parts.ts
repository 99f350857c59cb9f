import type { SoupGroupName, TriangleSoup } from '../houseMesh.ts';

/**
 * A soup cut into its named groups, each with its own vertices and triangles, in growable arrays:
 * the form the scan-like defects are applied in (defects.ts), put back together by `soupOf` with
 * every group's vertices contiguous again, as the GLB writer wants them.
 */
export interface Part {
  name: SoupGroupName;
  positions: number[];
  indices: number[];
}

export function partsOf(soup: TriangleSoup): Part[] {
  return soup.groups
    .filter((g) => g.count > 0)
    .map((g) => {
      const idx = soup.indices.subarray(g.start, g.start + g.count);
      let first = Infinity,
        last = -Infinity;
      for (const i of idx) {
        if (i < first) first = i;
        if (i > last) last = i;
      }
      return { name: g.name, positions: Array.from(soup.positions.subarray(first * 3, (last + 1) * 3)), indices: Array.from(idx, (i) => i - first) };
    });
}

export function soupOf(parts: readonly Part[]): TriangleSoup {
  let vertices = 0,
    indices = 0;
  for (const p of parts) {
    vertices += p.positions.length / 3;
    indices += p.indices.length;
  }
  const positions = new Float32Array(vertices * 3),
    index = new Uint32Array(indices);
  const groups: TriangleSoup['groups'] = [];
  let v = 0,
    i = 0;
  for (const p of parts) {
    positions.set(p.positions, v * 3);
    for (let k = 0; k < p.indices.length; k++) index[i + k] = p.indices[k]! + v;
    groups.push({ name: p.name, start: i, count: p.indices.length });
    v += p.positions.length / 3;
    i += p.indices.length;
  }
  return { positions, indices: index, groups };
}

/** Corners of triangle t of a part (9 numbers). */
export function corners(p: Part, t: number, out = new Float64Array(9)): Float64Array {
  for (let c = 0; c < 3; c++) {
    const v = p.indices[t * 3 + c]! * 3;
    out[c * 3] = p.positions[v]!;
    out[c * 3 + 1] = p.positions[v + 1]!;
    out[c * 3 + 2] = p.positions[v + 2]!;
  }
  return out;
}

/** A triangle's unnormalised normal (by its winding), centroid and area. */
export function triangleShape(t: Float64Array): { nx: number; ny: number; nz: number; cx: number; cy: number; cz: number; area: number } {
  const ax = t[3]! - t[0]!,
    ay = t[4]! - t[1]!,
    az = t[5]! - t[2]!;
  const bx = t[6]! - t[0]!,
    by = t[7]! - t[1]!,
    bz = t[8]! - t[2]!;
  const nx = ay * bz - az * by,
    ny = az * bx - ax * bz,
    nz = ax * by - ay * bx;
  return { nx, ny, nz, cx: (t[0]! + t[3]! + t[6]!) / 3, cy: (t[1]! + t[4]! + t[7]!) / 3, cz: (t[2]! + t[5]! + t[8]!) / 3, area: Math.hypot(nx, ny, nz) / 2 };
}

/** Keep the triangles `keep` says yes to (vertices stay; unused ones cost nothing but bytes). */
export function filterTriangles(p: Part, keep: (t: number) => boolean): number {
  const out: number[] = [];
  let removed = 0;
  for (let t = 0; t < p.indices.length / 3; t++) {
    if (keep(t)) out.push(p.indices[t * 3]!, p.indices[t * 3 + 1]!, p.indices[t * 3 + 2]!);
    else removed++;
  }
  p.indices = out;
  return removed;
}
