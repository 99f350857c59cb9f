import { MinHeap } from '../../core/minHeap.ts';
import type { ColumnSpans } from './spans.ts';
import type { Region } from './region.ts';

/**
 * Holes in a scanned floor, read as the floor they are.
 *
 * A reconstruction loses floor where the sensor saw nothing: glass, mirrors, dark or shiny tiles,
 * under furniture. Such a hole is missing data, not a place to fall: homes have no holes in their
 * walking surfaces that a wheel or a foot sinks into (accessibility codes allow openings of at most
 * 13 mm in a floor, ADA 2010 §302.3, and the openings a house does have — a stairwell, a lift shaft,
 * a hatch — are 0.6 m across and more). So a gap is read as floor when every point of it lies within
 * `FILL_REACH_M` (15 cm) of scanned floor — a hole up to 30 cm across, or 15 cm out from a wall —
 * each cell at the height of the nearest scanned floor (so a hole across a sill's edge or a riser
 * keeps the step where it was, give or take the hole). A gap reaching up to `DOUBT_REACH_M` (30 cm)
 * from floor is left as it is, but marked: too large to be sure it is missing data, too small to be
 * sure it is an opening; the drive says so when it is what stops an agent. Anything larger is real.
 *
 * A gap is either
 * - a region of cells without floor whose columns hold nothing rising above the floor round them (a
 *   wall or a table leg standing there is no hole), or
 * - a depression: a region of floor cells on one surface (neighbours within `PIT_M` of each other)
 *   lower by more than `PIT_M` than every floor cell round it — what lies under a hole in a closed
 *   solid (a slab's underside, the floor under a flight of stairs).
 * Each cell belongs to one region, so the whole grid is looked at once.
 */

/** Every point of a gap read as floor lies within this of scanned floor. */
export const FILL_REACH_M = 0.15;
/** Gaps reaching up to this far from floor are marked as doubtful instead. */
export const DOUBT_REACH_M = 0.3;
/** Neighbouring cells within this of each other are one surface; a region lower than all round it by more is a depression. */
const PIT_M = 0.015;
/** A cell without floor is a hole's when nothing in its column rises above the floor round it (within this of the route's height) up to OPEN_ABOVE_M. */
const OPEN_BELOW_M = 0.3;
const OPEN_ABOVE_M = 0.1;
/** Larger regions are not looked at further (floors, openings, walls). */
const MAX_GAP_CELLS = 20_000;

export const FILLED = 1;
export const DOUBTFUL = 2;

export function fillHoles(spans: ColumnSpans, region: Region, floor: Float32Array, floorSpan: Int32Array): Uint8Array {
  const { grid, mask, yRef } = region;
  const { nx, nz, cellM } = grid;
  const n = nx * nz;
  const { start: first, lo, hi, door } = spans;
  const marks = new Uint8Array(n);
  const done = new Uint8Array(n);

  /**
   * A cell without floor whose column holds nothing that rises above the floor round it: no wall or
   * leg standing there, though what a hole lays bare below the floor's level (a slab's or a ramp's
   * inner face) may. The floor round it is its highest neighbour's near the route's height, or the
   * route's height itself in the middle of a hole. A closed door's leaf is no floor.
   */
  const openKnown = new Uint8Array(n); // 0 not asked, 1 open, 2 not
  const openNaN = (c: number): boolean => {
    if (openKnown[c]) return openKnown[c] === 1;
    let open = Number.isNaN(floor[c]!);
    if (open) {
      const y = yRef[c]!;
      let level = -Infinity;
      const i = c % nx,
        j = (c - i) / nx;
      for (let nj = Math.max(0, j - 1); nj <= Math.min(nz - 1, j + 1); nj++) {
        for (let ni = Math.max(0, i - 1); ni <= Math.min(nx - 1, i + 1); ni++) {
          const f = floor[nj * nx + ni]!;
          if (Math.abs(f - y) <= OPEN_BELOW_M && f > level) level = f;
        }
      }
      if (level === -Infinity) level = y;
      for (let k = first[c]!; k < first[c + 1]! && open; k++) if (!door[k] && hi[k]! > level + PIT_M && lo[k]! < level + OPEN_ABOVE_M) open = false;
    }
    openKnown[c] = open ? 1 : 2;
    return open;
  };
  const around = new Int32Array(4);
  /** The 4-neighbours of c inside the grid, into `around`; how many. */
  const neighbours = (c: number): number => {
    const i = c % nx;
    let k = 0;
    if (i > 0) around[k++] = c - 1;
    if (i < nx - 1) around[k++] = c + 1;
    if (c >= nx) around[k++] = c - nx;
    if (c + nx < n) around[k++] = c + nx;
    return k;
  };

  const cells: number[] = [];
  const rim: number[] = [];
  const scratch: GapScratch = { heap: new MinHeap(), stamp: new Int32Array(n), id: 0, dist: new Float64Array(n), height: new Float32Array(n) };
  // Depressions first: a hole without floor next to one is then filled from the floor it had.
  for (let pass = 0; pass < 2; pass++)
    for (let s = 0; s < n; s++) {
      if (!mask[s] || done[s]) continue;
      const noFloor = Number.isNaN(floor[s]!);
      if (noFloor !== (pass === 1)) continue;
      if (noFloor && !openNaN(s)) {
        done[s] = 1;
        continue;
      }
      // A depression is entered at its edge, where a neighbour stands higher: most floor is no start.
      if (!noFloor) {
        let edge = false;
        for (let e = neighbours(s) - 1; e >= 0 && !edge; e--) {
          const b = around[e]!;
          if (mask[b] && floor[b]! > floor[s]! + PIT_M) edge = true;
        }
        if (!edge) continue;
      }
      // The region of s: open cells without floor, or floor cells on one surface.
      cells.length = 0;
      rim.length = 0;
      done[s] = 1;
      cells.push(s);
      let big = false,
        depression = true;
      for (let q = 0; q < cells.length && !big && depression; q++) {
        const a = cells[q]!,
          fa = floor[a]!;
        for (let e = neighbours(a) - 1; e >= 0; e--) {
          const b = around[e]!;
          if (!mask[b]) continue;
          const fb = floor[b]!;
          const same = noFloor ? openNaN(b) : !Number.isNaN(fb) && Math.abs(fb - fa) <= PIT_M;
          if (same) {
            if (!done[b]) {
              done[b] = 1;
              cells.push(b);
              if (cells.length > MAX_GAP_CELLS) big = true;
            }
          } else if (!Number.isNaN(fb)) {
            rim.push(b);
            if (!noFloor && fb <= fa + PIT_M) depression = false;
          }
        }
      }
      if (big || rim.length === 0 || (!noFloor && !depression)) continue;
      const reach = nearestFloor(cells, rim, floor, nx, nz, cellM, DOUBT_REACH_M, scratch);
      if (reach.maxM <= FILL_REACH_M) {
        let top = -Infinity;
        for (const r of rim) if (floor[r]! > top) top = floor[r]!;
        for (const a of cells) {
          // At the nearest floor's height, and not under what the hole lays bare up to the floor round it.
          let h = reach.height[a]!;
          for (let k = first[a]!; k < first[a + 1]!; k++) if (!door[k] && hi[k]! > h && hi[k]! <= top + PIT_M) h = hi[k]!;
          floor[a] = h;
          floorSpan[a] = -1;
          marks[a] = FILLED;
        }
      } else if (reach.maxM <= DOUBT_REACH_M) {
        for (const a of cells) marks[a] = DOUBTFUL;
      }
    }
  return marks;
}

/**
 * Per-grid scratch for `nearestFloor`: the gap a cell belongs to (a stamp), its distance to the rim
 * and the height it takes; typed arrays over the grid, made once per terrain (Maps and array tuples
 * per gap cost ~20 % of a scan-like terrain's build).
 */
interface GapScratch {
  heap: MinHeap;
  stamp: Int32Array;
  id: number;
  dist: Float64Array;
  height: Float32Array;
}

/**
 * For each gap cell, the height of the nearest rim cell (8-connected distances, by Dijkstra), and
 * the largest distance of any gap cell to the rim — only as far as `limitM`: a gap reaching farther
 * is no hole either way, and its farthest distance is then some value over the limit.
 */
function nearestFloor(
  cells: readonly number[],
  rim: readonly number[],
  floor: Float32Array,
  nx: number,
  nz: number,
  cellM: number,
  limitM: number,
  scratch: GapScratch,
): { height: Float32Array; maxM: number } {
  const { stamp, dist, height } = scratch;
  const id = ++scratch.id;
  for (const a of cells) {
    stamp[a] = id;
    dist[a] = Infinity;
  }
  // Entries are (distance, cell, the height it carries): the heap holds their index.
  const heap = scratch.heap;
  heap.size = 0;
  const at: number[] = [],
    carried: number[] = [];
  const push = (d: number, c: number, h: number) => {
    heap.push(at.length, d);
    at.push(c);
    carried.push(h);
  };
  for (const r of rim) push(0, r, floor[r]!);
  let maxM = 0;
  while (heap.size > 0) {
    const d = heap.topKey(),
      e = heap.pop(),
      c = at[e]!,
      h = carried[e]!;
    if (stamp[c] === id) {
      if (d >= dist[c]!) continue;
      dist[c] = d;
      height[c] = h;
      if (d > maxM) {
        maxM = d;
        if (maxM > limitM) return { height, maxM };
      }
    } else if (d > 0) continue;
    const ci = c % nx,
      cj = (c - ci) / nx;
    for (let dj = -1; dj <= 1; dj++) {
      for (let di = -1; di <= 1; di++) {
        if (!di && !dj) continue;
        const bi = ci + di,
          bj = cj + dj;
        if (bi < 0 || bj < 0 || bi >= nx || bj >= nz) continue;
        const b = bj * nx + bi;
        const nd = d + (di && dj ? Math.SQRT2 : 1) * cellM;
        if (stamp[b] === id && nd < dist[b]!) push(nd, b, h);
      }
    }
  }
  // A gap cell no rim reaches is no floor to fill.
  for (const a of cells) if (dist[a] === Infinity) maxM = Infinity;
  return { height, maxM };
}
