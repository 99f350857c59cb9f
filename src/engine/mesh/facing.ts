import type { Matrix4 } from 'three';

/**
 * Which way a scan's surfaces face in the world (after its frame): the area its front faces show
 * to a viewer straight above (`up`) and straight below (`down`), both projected onto the floor
 * plane, and its whole area. World units squared.
 */
export interface Facing {
  up: number;
  down: number;
  total: number;
}

/**
 * Measure a mesh given in its own frame. Normals go through the cofactor of the frame's linear
 * part (as in floors.ts), so no vertex is transformed.
 */
export function measureFacing(positions: Float32Array, index: Uint32Array | null, frame: Matrix4): Facing {
  const e = frame.elements;
  const [a00, a01, a02, a10, a11, a12, a20, a21, a22] = [e[0]!, e[4]!, e[8]!, e[1]!, e[5]!, e[9]!, e[2]!, e[6]!, e[10]!];
  const c00 = a11 * a22 - a12 * a21,
    c01 = a12 * a20 - a10 * a22,
    c02 = a10 * a21 - a11 * a20;
  const c10 = a21 * a02 - a22 * a01,
    c11 = a22 * a00 - a20 * a02,
    c12 = a20 * a01 - a21 * a00;
  const c20 = a01 * a12 - a02 * a11,
    c21 = a02 * a10 - a00 * a12,
    c22 = a00 * a11 - a01 * a10;
  const triangles = index ? Math.floor(index.length / 3) : Math.floor(positions.length / 9);
  let up = 0,
    down = 0,
    total = 0;
  for (let t = 0; t < triangles; t++) {
    const a = (index ? index[t * 3]! : t * 3) * 3;
    const b = (index ? index[t * 3 + 1]! : t * 3 + 1) * 3;
    const c = (index ? index[t * 3 + 2]! : t * 3 + 2) * 3;
    const ux = positions[b]! - positions[a]!,
      uy = positions[b + 1]! - positions[a + 1]!,
      uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!,
      vy = positions[c + 1]! - positions[a + 1]!,
      vz = positions[c + 2]! - positions[a + 2]!;
    const lx = uy * vz - uz * vy,
      ly = uz * vx - ux * vz,
      lz = ux * vy - uy * vx;
    const nx = c00 * lx + c01 * ly + c02 * lz;
    const ny = c10 * lx + c11 * ly + c12 * lz;
    const nz = c20 * lx + c21 * ly + c22 * lz;
    const area = Math.sqrt(nx * nx + ny * ny + nz * nz) / 2;
    if (!Number.isFinite(area)) continue; // a NaN vertex: that triangle draws nothing either
    total += area;
    if (ny > 0) up += ny / 2;
    else down -= ny / 2;
  }
  return { up, down, total };
}

/**
 * Whether a scan should be drawn double-sided rather than with back faces culled.
 *
 * Culling is what lets the views from above (orbit and top) look into a closed scan: an HM3D or
 * Matterport house is wound with its faces toward the rooms, so its ceilings and outer wall sides
 * are backs and drop out, leaving the dollhouse view; drawn double-sided, the ceilings would hide
 * every room until the view is sliced. But a scan whose surfaces do not face up shows only backs
 * from above and draws nothing: the Open3D fragment is all faces toward its sensor, which in its
 * Z-up frame is below it (127,229 of 127,229 faces point down). Its winding is not wrong: it agrees
 * with the file's own vertex normals, so "fixing" it would contradict the file, and a scan with
 * mixed winding has no single fix. So each scan is judged by which way it faces once put in the
 * world: when less than a fifth of its horizontal surface faces up (or it has almost none, like a
 * lone wall), it is drawn double-sided. The choice follows the up axis when that changes.
 */
export function drawBothSides(f: Facing): boolean {
  const horizontal = f.up + f.down;
  if (!(horizontal > 0.01 * f.total)) return true;
  return f.up < 0.2 * horizontal;
}
