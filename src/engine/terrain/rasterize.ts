import { Box3, Matrix4, Vector3, type BufferAttribute } from 'three';
import { bvhOf, type Surface } from '../rays/surface.ts';
import type { PlanGrid } from './grid.ts';
import { JOIN_AT_ADD_M, merge, SpanPool, type ColumnSpans } from './spans.ts';

/** The steepest slope that is ground rather than wall (as the collider's support, column.ts). */
const MIN_FLAT_NORMAL_Y = Math.cos((60 * Math.PI) / 180);
/** Below this |normal.y| a triangle is a wall-like face: its plan shadow is a thin sliver, sampled by subdivision. */
const STEEP_NORMAL_Y = 0.3;

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
  for (const { surface, door } of sources) collect(surface, worldBox, (t) => r.triangle(t, door));
  return { ...merge(grid, pool), triangles: r.rasterised };
}

/** Call `each` with the world corners (9 numbers) of every triangle of `surface` whose bounds meet `worldBox`. */
function collect(surface: Surface, worldBox: Box3, each: (t: Float64Array) => void): void {
  const toLocal = surface.frame.clone().invert();
  const local = worldBox.clone().applyMatrix4(toLocal);
  const e = (surface.frame as Matrix4).elements;
  const bvh = bvhOf(surface);
  const index = surface.geometry.index!.array;
  const position = surface.geometry.getAttribute('position') as BufferAttribute;
  const tri = new Float64Array(9);
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
        each(tri);
      }
      return false;
    },
  });
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
  /** Triangles that met the mask (the others are passed over whole). */
  rasterised = 0;
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
    this.rasterised++;
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
