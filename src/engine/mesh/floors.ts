import type { Matrix4 } from 'three';

export interface FloorOptions {
  /** Histogram bin height (world units, metres). */
  binSize?: number;
  /** A triangle is walkable when its unit normal's world-up component exceeds this. */
  minUpDot?: number;
  /** Half-height of the band a peak gathers area from: floors in scans are a few centimetres thick with noise. */
  band?: number;
  /** A floor holds at least this share of all walkable area… */
  minAreaFraction?: number;
  /** …and at least this much area (m²): a stair tread or a landing is smaller. */
  minArea?: number;
  /** Peaks closer than this are one floor (tables, beds, sofas); the larger one stands for it. */
  mergeDistance?: number;
  /**
   * Side of the grid cells used to tell a floor from a narrow ledge: a floor's area fills whole
   * cells, while the tops of walls and railings are strips that fill none.
   */
  cell?: number;
}

const DEFAULTS: Required<FloorOptions> = { binSize: 0.02, minUpDot: 0.9, band: 0.05, minAreaFraction: 0.02, minArea: 1, mergeDistance: 1.2, cell: 0.5 };
/** Bins are capped so a stray far-away vertex cannot make the histogram enormous. */
const MAX_BINS = 1 << 20;

/**
 * Floor heights (world Y, ascending) of a mesh given in its own frame: an area-weighted histogram
 * of the heights of upward-facing triangles (after `frame`), whose peaks are floors when they hold
 * enough area. Stairs spread their area over many small treads, so no tread is a peak big enough.
 * Winding decides "upward": ceilings of a consistently wound scan face down and are not counted.
 */
export function detectFloorLevels(positions: Float32Array, index: Uint32Array | null, frame: Matrix4, opts: FloorOptions = {}): number[] {
  const o = { ...DEFAULTS, ...opts };
  const e = frame.elements;
  // Normals go through the cofactor matrix of the frame's linear part: (La) × (Lb) = cof(L)(a × b),
  // so triangles are measured in world units without transforming every vertex.
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
  const ty = e[13]!;
  const minUp = o.minUpDot;

  const triangles = index ? Math.floor(index.length / 3) : Math.floor(positions.length / 9);
  const heights = new Float64Array(triangles);
  const areas = new Float64Array(triangles);
  const tris = new Uint32Array(triangles);
  let n = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let t = 0; t < triangles; t++) {
    const a = (index ? index[t * 3]! : t * 3) * 3;
    const b = (index ? index[t * 3 + 1]! : t * 3 + 1) * 3;
    const c = (index ? index[t * 3 + 2]! : t * 3 + 2) * 3;
    const ax = positions[a]!,
      ay = positions[a + 1]!,
      az = positions[a + 2]!;
    const bx = positions[b]!,
      by = positions[b + 1]!,
      bz = positions[b + 2]!;
    const cx = positions[c]!,
      cy = positions[c + 1]!,
      cz = positions[c + 2]!;
    const ux = bx - ax,
      uy = by - ay,
      uz = bz - az;
    const vx = cx - ax,
      vy = cy - ay,
      vz = cz - az;
    const lx = uy * vz - uz * vy,
      ly = uz * vx - ux * vz,
      lz = ux * vy - uy * vx;
    const ny = c10 * lx + c11 * ly + c12 * lz;
    if (!(ny > 0)) continue; // most of a scan faces sideways or down: skip before the square root
    const nx = c00 * lx + c01 * ly + c02 * lz;
    const nz = c20 * lx + c21 * ly + c22 * lz;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (ny <= minUp * len) continue;
    const h = (a10 * (ax + bx + cx) + a11 * (ay + by + cy) + a12 * (az + bz + cz)) / 3 + ty;
    tris[n] = t;
    heights[n] = h;
    areas[n] = len / 2;
    n++;
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  if (n === 0) return [];

  const bin = Math.max(o.binSize, (hi - lo) / MAX_BINS);
  const bins = Math.floor((hi - lo) / bin) + 1;
  const area = new Float64Array(bins);
  const moment = new Float64Array(bins); // Σ area·height, for a peak height finer than a bin
  let total = 0;
  for (let i = 0; i < n; i++) {
    const k = Math.min(bins - 1, Math.floor((heights[i]! - lo) / bin));
    area[k]! += areas[i]!;
    moment[k]! += areas[i]! * heights[i]!;
    total += areas[i]!;
  }

  // Area within ±band of each bin; its local maxima are the candidate floors.
  const w = Math.max(0, Math.round(o.band / bin));
  const bandArea = slidingSum(area, w);
  const bandMoment = slidingSum(moment, w);
  const candidates: { height: number; area: number }[] = [];
  for (let k = 0; k < bins; k++) {
    const s = bandArea[k]!;
    if (s <= 0 || s < (bandArea[k - 1] ?? 0) || s <= (bandArea[k + 1] ?? 0)) continue;
    candidates.push({ height: bandMoment[k]! / s, area: s });
  }
  const threshold = Math.max(o.minArea, o.minAreaFraction * total);
  // Count only area that fills grid cells: a ledge (wall tops, railings) is a strip, not a floor.
  for (const c of candidates) {
    if (c.area >= threshold) c.area = filledArea(c.height, o.band, o.cell, { positions, index, frame: e, tris, heights, n });
  }
  candidates.sort((p, q) => q.area - p.area);
  const floors: number[] = [];
  for (const c of candidates) {
    if (c.area < threshold) break;
    if (floors.every((f) => Math.abs(f - c.height) >= o.mergeDistance)) floors.push(c.height);
  }
  return floors.sort((p, q) => p - q);
}

function slidingSum(a: Float64Array, w: number): Float64Array {
  const out = new Float64Array(a.length);
  let s = 0;
  for (let i = 0; i < Math.min(w, a.length); i++) s += a[i]!;
  for (let k = 0; k < a.length; k++) {
    if (k + w < a.length) s += a[k + w]!;
    if (k - w - 1 >= 0) s -= a[k - w - 1]!;
    out[k] = s;
  }
  return out;
}

interface Walkable {
  positions: Float32Array;
  index: Uint32Array | null;
  frame: ArrayLike<number>;
  tris: Uint32Array;
  heights: Float64Array;
  n: number;
}

/**
 * The area of a level's upward triangles (within ±band of `height`) that lies in grid cells it
 * fills at least half: each triangle's area is spread over points sampled across it (a fixed
 * low-discrepancy pattern, so results are repeatable), and cells fuller than half count.
 */
function filledArea(height: number, band: number, cell: number, w: Walkable): number {
  const e = w.frame;
  const cells = new Map<string, number>();
  const world = (i: number, out: number[]) => {
    const x = w.positions[i * 3]!,
      y = w.positions[i * 3 + 1]!,
      z = w.positions[i * 3 + 2]!;
    out[0] = e[0]! * x + e[4]! * y + e[8]! * z + e[12]!;
    out[1] = e[2]! * x + e[6]! * y + e[10]! * z + e[14]!;
  };
  const A = [0, 0],
    B = [0, 0],
    C = [0, 0];
  const perSample = (cell * cell) / 8;
  for (let i = 0; i < w.n; i++) {
    if (Math.abs(w.heights[i]! - height) > band) continue;
    const t = w.tris[i]!;
    world(w.index ? w.index[t * 3]! : t * 3, A);
    world(w.index ? w.index[t * 3 + 1]! : t * 3 + 1, B);
    world(w.index ? w.index[t * 3 + 2]! : t * 3 + 2, C);
    const area = Math.abs((B[0]! - A[0]!) * (C[1]! - A[1]!) - (C[0]! - A[0]!) * (B[1]! - A[1]!)) / 2;
    const k = Math.min(4096, Math.max(1, Math.ceil(area / perSample)));
    for (let j = 0; j < k; j++) {
      let r1 = ((j + 0.5) * 0.6180339887) % 1,
        r2 = ((j + 0.5) * 0.7548776662) % 1;
      if (r1 + r2 > 1) {
        r1 = 1 - r1;
        r2 = 1 - r2;
      }
      const x = A[0]! + r1 * (B[0]! - A[0]!) + r2 * (C[0]! - A[0]!);
      const y = A[1]! + r1 * (B[1]! - A[1]!) + r2 * (C[1]! - A[1]!);
      const key = `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
      cells.set(key, (cells.get(key) ?? 0) + area / k);
    }
  }
  let filled = 0;
  for (const a of cells.values()) if (a >= (cell * cell) / 2) filled += Math.min(a, cell * cell);
  return filled;
}
