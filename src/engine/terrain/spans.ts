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
export const JOIN_AT_ADD_M = 0.1;

/**
 * A growable pool of raw spans, each with its cell. A span that meets the last one added to its cell
 * (of the same kind, within JOIN_AT_ADD_M) extends it instead: a wall's or a floor's neighbouring
 * small triangles come one after the other from the scan's BVH, and the pool held ~6 raw spans a
 * cell for ~2.7 merged ones on a dense scan.
 */
export class SpanPool {
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
    this.cell = copiedInto(this.cell, new Int32Array(n));
    this.lo = copiedInto(this.lo, new Float32Array(n));
    this.hi = copiedInto(this.hi, new Float32Array(n));
    this.flags = copiedInto(this.flags, new Uint8Array(n));
  }
}

/** `to`, holding `from` at its start. */
function copiedInto<T extends Int32Array | Float32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Per cell: sort the raw spans and merge overlapping ones (solids with solids, doors with doors). */
export function merge(grid: PlanGrid, pool: SpanPool): Omit<ColumnSpans, 'triangles'> {
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
