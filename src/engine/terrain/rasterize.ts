import { Box3, Matrix4, Vector3, type BufferAttribute } from 'three';
import { bvhOf, type Surface } from '../rays/surface.ts';
import type { PlanGrid } from './grid.ts';

/**
 * A scan turned into columns: for every plan cell, the height ranges its triangles occupy, merged
 * into solid spans (door leaves kept apart, so agents that open doors can ignore them). This is the
 * voxelisation a navmesh builder does, at the centimetre the planner needs and without a navmesh's
 * agent baked in: every agent's map is derived from the same columns (terrain.ts, agentMap.ts).
 */
export interface ColumnSpans {
  grid: PlanGrid;
  /** CSR: the spans of cell c are [start[c], start[c + 1]): its solid spans by rising `lo`, then its door spans likewise. */
  start: Int32Array;
  lo: Float32Array;
  hi: Float32Array;
  /**
   * Highest point of the span's level (walkable-slope) parts, whichever way they are wound; −Infinity
   * when it has none. Winding is not read: reconstructions wind faces either way (terrain.ts decides
   * which level surface is the floor from the route's height instead).
   */
  flatHi: Float32Array;
  door: Uint8Array;
  /** Triangles that were rasterised. */
  triangles: number;
}

/** The steepest slope that is ground rather than wall (as the collider's support, column.ts). */
const MIN_FLAT_NORMAL_Y = Math.cos((60 * Math.PI) / 180);
/** Below this |normal.y| a triangle is a wall-like face: its plan shadow is a thin sliver, sampled by subdivision. */
const STEEP_NORMAL_Y = 0.3;
/**
 * Less free height than any agent needs (CapNav's smallest, the floor sweeper, is 0.15 m tall): a
 * gap this thin is no place to be. Solid spans closer than this in a column are one — the inside of
 * a sill or a stair's tread, two fused layers of one noisy surface, a wall's face that leans out of
 * a cell half-way up: each reads as the solid it is, with its top where an agent would step.
 */
export const MIN_ROOM_M = 0.12;
/**
 * A piece of a steep face (a riser, a sill's side, a wall's foot) this close above the solid below
 * it in a column belongs to it: a noisy face wanders across a cell's edge and the cell holds it at
 * some heights and not at others. Smaller than a chair seat's height, so nothing one passes under is
 * joined to the floor.
 */
const FACE_BRIDGE_M = 0.2;

/**
 * Raw spans this close in a column, of one kind, are one: merge() would join them whatever else the
 * column holds (a gap it leaves open is at least MIN_ROOM_M), so they are joined as they come.
 */
const JOIN_AT_ADD_M = 0.1;

/**
 * A growable pool of raw spans, each with its cell. A span that meets the last one added to its cell
 * (of the same kind, within JOIN_AT_ADD_M) extends it instead: a wall's or a floor's neighbouring
 * small triangles come one after the other from the scan's BVH, and the pool held ~6 raw spans a
 * cell for ~2.7 merged ones on a dense scan.
 */
class SpanPool {
  cell = new Int32Array(1 << 16);
  lo = new Float32Array(1 << 16);
  hi = new Float32Array(1 << 16);
  flags = new Uint8Array(1 << 16); // bit 0 level, bit 1 door
  count = 0;
  /** Per cell, its last span in the pool (−1: none yet). */
  private readonly last: Int32Array;

  constructor(
    cells: number,
    private readonly join: number,
  ) {
    if (join > Math.min(MIN_ROOM_M, FACE_BRIDGE_M)) throw new Error('terrain: spans joined as they come must be ones merge() joins');
    this.last = new Int32Array(cells).fill(-1);
  }

  add(cell: number, lo: number, hi: number, flags: number): void {
    const prev = this.last[cell]!;
    if (prev >= 0 && this.flags[prev] === flags && lo <= this.hi[prev]! + this.join && hi >= this.lo[prev]! - this.join) {
      if (lo < this.lo[prev]!) this.lo[prev] = lo;
      if (hi > this.hi[prev]!) this.hi[prev] = hi;
      return;
    }
    if (this.count === this.lo.length) this.grow();
    const k = this.count++;
    this.last[cell] = k;
    this.cell[k] = cell;
    this.lo[k] = lo;
    this.hi[k] = hi;
    this.flags[k] = flags;
  }

  private grow(): void {
    const n = this.lo.length * 2;
    const c = new Int32Array(n);
    c.set(this.cell);
    this.cell = c;
    const l = new Float32Array(n);
    l.set(this.lo);
    this.lo = l;
    const h = new Float32Array(n);
    h.set(this.hi);
    this.hi = h;
    const f = new Uint8Array(n);
    f.set(this.flags);
    this.flags = f;
  }
}

export interface RasterizeSource {
  surface: Surface;
  door: boolean;
}

/**
 * Rasterise the triangles of `sources` that lie within the grid and between `yMin` and `yMax`
 * (world), into the cells where `mask` is 1 (every cell when null).
 */
export function rasterizeColumns(
  sources: readonly RasterizeSource[],
  grid: PlanGrid,
  mask: Uint8Array | null,
  yMin: number,
  yMax: number,
  /** How close raw spans are joined as they come (JOIN_AT_ADD_M; −Infinity: never, as a test compares). */
  { joinAtAddM = JOIN_AT_ADD_M } = {},
): ColumnSpans {
  const pool = new SpanPool(grid.nx * grid.nz, joinAtAddM);
  const r = new Rasterizer(grid, mask, pool);
  const worldBox = new Box3(new Vector3(grid.x0, yMin, grid.z0), new Vector3(grid.x0 + grid.nx * grid.cellM, yMax, grid.z0 + grid.nz * grid.cellM));
  let triangles = 0;
  for (const { surface, door } of sources) triangles += collect(surface, worldBox, (t) => r.triangle(t, door));
  return { ...merge(grid, pool), triangles };
}

/** Call `each` with the world corners (9 numbers) of every triangle of `surface` whose bounds meet `worldBox`. */
function collect(surface: Surface, worldBox: Box3, each: (t: Float64Array) => void): number {
  const toLocal = surface.frame.clone().invert();
  const local = worldBox.clone().applyMatrix4(toLocal);
  const e = (surface.frame as Matrix4).elements;
  const bvh = bvhOf(surface);
  const index = surface.geometry.index!.array;
  const position = surface.geometry.getAttribute('position') as BufferAttribute;
  const tri = new Float64Array(9);
  let count = 0;
  bvh.shapecast({
    intersectsBounds: (box) => box.intersectsBox(local),
    intersectsRange: (offset, n) => {
      for (let t = offset; t < offset + n; t++) {
        const f = bvh.indirect ? bvh.resolveTriangleIndex(t) : t;
        for (let c = 0; c < 3; c++) {
          const v = index[f * 3 + c]!;
          const px = position.getX(v),
            py = position.getY(v),
            pz = position.getZ(v);
          tri[c * 3] = e[0]! * px + e[4]! * py + e[8]! * pz + e[12]!;
          tri[c * 3 + 1] = e[1]! * px + e[5]! * py + e[9]! * pz + e[13]!;
          tri[c * 3 + 2] = e[2]! * px + e[6]! * py + e[10]! * pz + e[14]!;
        }
        count++;
        each(tri);
      }
      return false;
    },
  });
  return count;
}

/** Cells a side of the blocks of the mask's summary (Rasterizer.blocks). */
const BLOCK_CELLS = 16;

class Rasterizer {
  private readonly cut = new Float64Array(6);
  private accLo = new Float64Array(64);
  private accHi = new Float64Array(64);
  /**
   * Per block of BLOCK_CELLS² cells, 1 when the mask holds any of them: a triangle over none is
   * passed over whole. The region is the bounding box of a tube round the route, and round an L
   * the box is twice the tube: half the triangles it collects put nothing anywhere.
   */
  private readonly blocks: Uint8Array | null;
  private readonly bx: number;
  constructor(
    private readonly g: PlanGrid,
    private readonly mask: Uint8Array | null,
    private readonly pool: SpanPool,
  ) {
    this.bx = Math.ceil(g.nx / BLOCK_CELLS);
    if (!mask) {
      this.blocks = null;
      return;
    }
    const blocks = new Uint8Array(this.bx * Math.ceil(g.nz / BLOCK_CELLS));
    for (let j = 0; j < g.nz; j++) {
      const row = j * g.nx,
        brow = Math.floor(j / BLOCK_CELLS) * this.bx;
      for (let i = 0; i < g.nx; i++) if (mask[row + i]) blocks[brow + Math.floor(i / BLOCK_CELLS)] = 1;
    }
    this.blocks = blocks;
  }

  /** Whether any masked cell lies within a cell of the plan rectangle [x0, x1] × [z0, z1]. */
  private meetsMask(x0: number, x1: number, z0: number, z1: number): boolean {
    const blocks = this.blocks;
    if (!blocks) return true;
    const g = this.g,
      c = g.cellM;
    const i0 = Math.max(0, Math.floor((x0 - g.x0) / c) - 1),
      i1 = Math.min(g.nx - 1, Math.floor((x1 - g.x0) / c) + 1),
      j0 = Math.max(0, Math.floor((z0 - g.z0) / c) - 1),
      j1 = Math.min(g.nz - 1, Math.floor((z1 - g.z0) / c) + 1);
    if (i0 > i1 || j0 > j1) return false;
    const b0 = Math.floor(i0 / BLOCK_CELLS),
      b1 = Math.floor(i1 / BLOCK_CELLS);
    for (let bj = Math.floor(j0 / BLOCK_CELLS); bj <= Math.floor(j1 / BLOCK_CELLS); bj++)
      for (let bi = b0; bi <= b1; bi++) if (blocks[bj * this.bx + bi]) return true;
    return false;
  }

  private put(i: number, j: number, lo: number, hi: number, flat: boolean, door: boolean): void {
    const g = this.g;
    if (i < 0 || j < 0 || i >= g.nx || j >= g.nz) return;
    const c = j * g.nx + i;
    if (this.mask && !this.mask[c]) return;
    this.pool.add(c, lo, hi, (flat ? 1 : 0) | (door ? 2 : 0));
  }

  triangle(t: Float64Array, door: boolean): void {
    if (!this.meetsMask(Math.min(t[0]!, t[3]!, t[6]!), Math.max(t[0]!, t[3]!, t[6]!), Math.min(t[2]!, t[5]!, t[8]!), Math.max(t[2]!, t[5]!, t[8]!))) return;
    const ax = t[3]! - t[0]!,
      ay = t[4]! - t[1]!,
      az = t[5]! - t[2]!;
    const bx = t[6]! - t[0]!,
      by = t[7]! - t[1]!,
      bz = t[8]! - t[2]!;
    const nx = ay * bz - az * by,
      ny = az * bx - ax * bz,
      nz = ax * by - ay * bx;
    const len = Math.hypot(nx, ny, nz);
    if (len < 1e-12) return;
    const nyr = Math.abs(ny) / len;
    if (nyr >= STEEP_NORMAL_Y) this.plane(t, nx, ny, nz, nyr >= MIN_FLAT_NORMAL_Y, door);
    else this.sliver(t, door);
  }

  /** A ground-like triangle: every cell whose centre its plan covers gets the plane's height there. */
  private plane(t: Float64Array, nx: number, ny: number, nz: number, flat: boolean, door: boolean): void {
    const g = this.g,
      c = g.cellM;
    const x0 = t[0]!,
      y0 = t[1]!,
      z0 = t[2]!;
    const yLo = Math.min(t[1]!, t[4]!, t[7]!),
      yHi = Math.max(t[1]!, t[4]!, t[7]!);
    // Within a cell the plane varies by up to its slope times the half diagonal.
    const spread = (Math.hypot(nx, nz) / Math.abs(ny)) * c * Math.SQRT1_2;
    const zMin = Math.min(t[2]!, t[5]!, t[8]!),
      zMax = Math.max(t[2]!, t[5]!, t[8]!);
    const j0 = Math.max(0, Math.ceil((zMin - g.z0) / c - 0.5)),
      j1 = Math.min(g.nz - 1, Math.floor((zMax - g.z0) / c - 0.5));
    for (let j = j0; j <= j1; j++) {
      const zc = g.z0 + (j + 0.5) * c;
      let xa = Infinity,
        xb = -Infinity;
      for (let k = 0; k < 3; k++) {
        const p = k * 3,
          q = ((k + 1) % 3) * 3;
        const za = t[p + 2]!,
          zb = t[q + 2]!;
        if ((zc < za && zc < zb) || (zc > za && zc > zb)) continue;
        if (za === zb) {
          xa = Math.min(xa, t[p]!, t[q]!);
          xb = Math.max(xb, t[p]!, t[q]!);
          continue;
        }
        const x = t[p]! + ((zc - za) / (zb - za)) * (t[q]! - t[p]!);
        if (x < xa) xa = x;
        if (x > xb) xb = x;
      }
      if (xa > xb) continue;
      const i0 = Math.max(0, Math.ceil((xa - g.x0) / c - 0.5)),
        i1 = Math.min(g.nx - 1, Math.floor((xb - g.x0) / c - 0.5));
      for (let i = i0; i <= i1; i++) {
        const xc = g.x0 + (i + 0.5) * c;
        const y = y0 - (nx * (xc - x0) + nz * (zc - z0)) / ny;
        this.put(i, j, Math.max(yLo, y - spread), Math.min(yHi, y + spread), flat, door);
      }
    }
  }

  /**
   * A wall-like triangle: cut by vertical planes across its longer plan extent every half cell;
   * each cut is a segment, whose height range goes to the cells it crosses.
   */
  private sliver(t: Float64Array, door: boolean): void {
    const g = this.g,
      c = g.cellM;
    const ex = Math.max(t[0]!, t[3]!, t[6]!) - Math.min(t[0]!, t[3]!, t[6]!);
    const ez = Math.max(t[2]!, t[5]!, t[8]!) - Math.min(t[2]!, t[5]!, t[8]!);
    // u: the axis the cuts are taken along; v: the other plan axis.
    const u = ex >= ez ? 0 : 2,
      v = 2 - u;
    const u0 = Math.min(t[u]!, t[u + 3]!, t[u + 6]!),
      u1 = Math.max(t[u]!, t[u + 3]!, t[u + 6]!);
    const n = Math.max(1, Math.ceil((u1 - u0) / (c / 2)));
    const cut = this.cut;
    const v0 = u === 0 ? g.z0 : g.x0,
      uOrigin = u === 0 ? g.x0 : g.z0;
    // The triangle's range in each cell of the current column of cells (cuts in one column are
    // gathered before they go to the pool: a wall's small triangles would each put a span per cut).
    const kMin = Math.floor((Math.min(t[v]!, t[v + 3]!, t[v + 6]!) - v0) / c),
      kMax = Math.floor((Math.max(t[v]!, t[v + 3]!, t[v + 6]!) - v0) / c);
    const width = kMax - kMin + 1;
    if (this.accLo.length < width) {
      this.accLo = new Float64Array(width * 2);
      this.accHi = new Float64Array(width * 2);
    }
    const accLo = this.accLo.fill(Infinity, 0, width),
      accHi = this.accHi.fill(-Infinity, 0, width);
    let column = NaN;
    for (let s = 0; s <= n; s++) {
      const at = u0 + ((u1 - u0) * s) / n;
      // The triangle's points on the plane u = at: up to two (v, y) pairs.
      let m = 0;
      for (let k = 0; k < 3 && m < 6; k++) {
        const p = k * 3,
          q = ((k + 1) % 3) * 3;
        const pu = t[p + u]!,
          qu = t[q + u]!;
        if ((pu - at) * (qu - at) > 0) continue;
        if (pu === qu) {
          cut[m++] = t[p + v]!;
          cut[m++] = t[p + 1]!;
          if (m < 6) {
            cut[m++] = t[q + v]!;
            cut[m++] = t[q + 1]!;
          }
          continue;
        }
        const f = (at - pu) / (qu - pu);
        cut[m++] = t[p + v]! + f * (t[q + v]! - t[p + v]!);
        cut[m++] = t[p + 1]! + f * (t[q + 1]! - t[p + 1]!);
      }
      if (m === 0) continue;
      let va = Infinity,
        vb = -Infinity,
        ya = 0,
        yb = 0,
        yLo = Infinity,
        yHi = -Infinity;
      for (let q = 0; q < m; q += 2) {
        const cv = cut[q]!,
          cy = cut[q + 1]!;
        if (cv < va) {
          va = cv;
          ya = cy;
        }
        if (cv > vb) {
          vb = cv;
          yb = cy;
        }
        if (cy < yLo) yLo = cy;
        if (cy > yHi) yHi = cy;
      }
      const cu = Math.floor((at - uOrigin) / c);
      if (cu !== column) {
        if (!Number.isNaN(column)) this.flush(u, column, kMin, width, door);
        column = cu;
      }
      const ka = Math.max(kMin, Math.floor((va - v0) / c)),
        kb = Math.min(kMax, Math.floor((vb - v0) / c));
      for (let k = ka; k <= kb; k++) {
        // The segment's height range within cell k (all of it when the segment lies in one cell).
        let lo = yLo,
          hi = yHi;
        if (kb > ka && vb > va) {
          const s0 = Math.max(0, (v0 + k * c - va) / (vb - va)),
            s1 = Math.min(1, (v0 + (k + 1) * c - va) / (vb - va));
          const y0 = ya + s0 * (yb - ya),
            y1 = ya + s1 * (yb - ya);
          lo = Math.min(y0, y1);
          hi = Math.max(y0, y1);
        }
        if (lo < accLo[k - kMin]!) accLo[k - kMin] = lo;
        if (hi > accHi[k - kMin]!) accHi[k - kMin] = hi;
      }
    }
    if (!Number.isNaN(column)) this.flush(u, column, kMin, width, door);
  }

  /** Put a column's gathered ranges (cells kMin… of the cut axis's column `column`) and clear them. */
  private flush(u: number, column: number, kMin: number, width: number, door: boolean): void {
    const accLo = this.accLo,
      accHi = this.accHi;
    for (let k = 0; k < width; k++) {
      if (accLo[k] === Infinity) continue;
      if (u === 0) this.put(column, kMin + k, accLo[k]!, accHi[k]!, false, door);
      else this.put(kMin + k, column, accLo[k]!, accHi[k]!, false, door);
      accLo[k] = Infinity;
      accHi[k] = -Infinity;
    }
  }
}

/** Per cell: sort the raw spans and merge overlapping ones (solids with solids, doors with doors). */
function merge(grid: PlanGrid, pool: SpanPool): Omit<ColumnSpans, 'triangles'> {
  const n = grid.nx * grid.nz;
  // Counting sort of the raw spans by cell, so each cell's spans are read from one run of memory.
  const begin = new Int32Array(n + 1);
  for (let k = 0; k < pool.count; k++) begin[pool.cell[k]! + 1]!++;
  for (let c = 0; c < n; c++) begin[c + 1]! += begin[c]!;
  const order = new Int32Array(pool.count);
  const fill = begin.slice(0, n);
  for (let k = 0; k < pool.count; k++) order[fill[pool.cell[k]!]!++] = k;

  const start = new Int32Array(n + 1);
  const cap = Math.max(1, pool.count);
  const lo = new Float32Array(cap),
    hi = new Float32Array(cap),
    flatHi = new Float32Array(cap),
    door = new Uint8Array(cap);
  let out = 0;
  const { lo: plo, hi: phi, flags } = pool;
  for (let c = 0; c < n; c++) {
    start[c] = out;
    const b0 = begin[c]!,
      b1 = begin[c + 1]!;
    // By `lo` within the cell: insertion sort for the handful of spans most columns hold.
    if (b1 - b0 > 24) order.subarray(b0, b1).sort((x, y) => plo[x]! - plo[y]!);
    else {
      for (let i = b0 + 1; i < b1; i++) {
        const k = order[i]!,
          l = plo[k]!;
        let j = i;
        while (j > b0 && plo[order[j - 1]!]! > l) {
          order[j] = order[j - 1]!;
          j--;
        }
        order[j] = k;
      }
    }
    for (let doorPass = 0; doorPass <= 2; doorPass += 2) {
      let open = false;
      for (let q = b0; q < b1; q++) {
        const k = order[q]!,
          f = flags[k]!;
        if ((f & 2) !== doorPass) continue;
        const l = plo[k]!,
          h = phi[k]!;
        if (!open || l > hi[out - 1]! + (f & 1 ? MIN_ROOM_M : FACE_BRIDGE_M)) {
          lo[out] = l;
          hi[out] = h;
          flatHi[out] = -Infinity;
          door[out] = doorPass ? 1 : 0;
          out++;
          open = true;
        } else if (h > hi[out - 1]!) hi[out - 1] = h;
        if (f & 1 && h > flatHi[out - 1]!) flatHi[out - 1] = h;
      }
    }
  }
  start[n] = out;
  return { grid, start, lo: lo.slice(0, out), hi: hi.slice(0, out), flatHi: flatHi.slice(0, out), door: door.slice(0, out) };
}
