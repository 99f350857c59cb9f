import type { Vec3 } from '../../core/graph.ts';
import { STEP_CLASS_M } from '../collider/body.ts';
import { cellAt, ringsAround } from './grid.ts';
import { fillHoles } from './holes.ts';
import { MIN_ROOM_M, type ColumnSpans } from './spans.ts';
import type { Region } from './region.ts';
import { markStairs, type StairFlight } from './stairs.ts';

/**
 * The ground of one segment's region, the same for every agent: per cell the floor the edge runs
 * on, the free height above it (to the next solid, and to a closed door leaf), and whether it lies
 * on a flight of stairs.
 *
 * The floor of a column is one of its spans' tops: a top with a level part within a step (the
 * collider's step class, 45 cm) of it — a floor, a tread, the top of a sill. Which way the surface
 * is wound is not asked (reconstructions wind faces either way), so the underside of a slab or a
 * table is such a top too; free height tells them apart: a top with less room over it than any
 * agent needs, at the route's height, is inside a solid. A flood fill from the nodes gives each
 * cell, among the tops within a climbable rise of its neighbour's floor, the one nearest that floor,
 * and of two about as near the one nearer the route's height there — so a staircase is followed up
 * from storey to storey and not the floor under the flight, in a column holding two storeys the one
 * the edge runs on is taken, and a hole in a floor reads what lies under it only where there is
 * nothing else (holes.ts then fills it).
 * Cells the fill does not reach have no floor (walls, other rooms). The result does not depend on
 * which way along the edge the terrain was first asked for.
 */
export interface Terrain {
  region: Region;
  spans: ColumnSpans;
  /** Floor height (world), NaN where there is none. */
  floor: Float32Array;
  /** Free height above the floor to the next solid (Infinity when open to the sky). */
  headroom: Float32Array;
  /** Free height above the floor to a closed door leaf (Infinity when no leaf is above). */
  doorHeadroom: Float32Array;
  stair: Uint8Array;
  flight: StairFlight | null;
  /** 1 where a gap in the scanned floor was read as floor (holes.ts), 2 where a gap was too large to read either way. */
  filled: Uint8Array;
}

/** Tops considered as the floor of a cell, around the route's height there. */
const BELOW_ROUTE_M = 1.2;
const ABOVE_ROUTE_M = 0.6;
/** What tops out this little above a floor is part of it (a hole's bared edge, a second noisy layer). */
const FLOOR_NOISE_M = 0.015;
/** Two tops this close in how far they are from the floor one comes from are as near as each other. */
const TIE_M = 0.03;
/** A top within this of its span's level part is level ground (noise and the cell's slope included). */
const EDGE_M = 0.02;
/** How far below a node its floor may lie (CapNav nodes float above the floor). */
const NODE_ABOVE_FLOOR_M = 2.5;

export function buildTerrain(spans: ColumnSpans, region: Region, seeds: readonly Vec3[]): Terrain {
  const { grid, mask, yRef } = region;
  const n = grid.nx * grid.nz;
  const floor = new Float32Array(n).fill(NaN);
  const floorSpan = new Int32Array(n).fill(-1);
  const { start: first, lo, hi, door, flatHi } = spans;

  /**
   * Whether span k of cell c has a top to stand on: a level part within a step of it (a floor, a
   * tread; or a riser's or a sill's face, stood on at its top edge), and not a door leaf. A steep top
   * is such an edge only where the solid ends there: a wall's face that leans out of the cell part
   * way up (noise does that) tops out low in this cell but goes on rising in the next one.
   */
  const groundKnown = new Int8Array(hi.length).fill(-1);
  const ground = (c: number, k: number) => {
    if (door[k] || hi[k]! - flatHi[k]! > STEP_CLASS_M) return false;
    if (hi[k]! - flatHi[k]! <= EDGE_M) return true;
    if (groundKnown[k]! < 0) groundKnown[k] = risesOn(c, hi[k]!) ? 0 : 1;
    return groundKnown[k] === 1;
  };
  /** Whether a solid in a neighbour of cell c stands from within EDGE_M of `h` to more than a step above it. */
  const risesOn = (c: number, h: number) => {
    const i = c % grid.nx,
      j = (c - i) / grid.nx;
    for (let dj = -1; dj <= 1; dj++) {
      for (let di = -1; di <= 1; di++) {
        const ni = i + di,
          nj = j + dj;
        if ((!di && !dj) || ni < 0 || nj < 0 || ni >= grid.nx || nj >= grid.nz) continue;
        const m = nj * grid.nx + ni;
        for (let k = first[m]!; k < first[m + 1]!; k++) if (!door[k] && lo[k]! <= h + EDGE_M && hi[k]! > h + STEP_CLASS_M) return true;
      }
    }
    return false;
  };
  /** Height of the next solid above span k in its cell (Infinity when none): solid spans come first, by rising `lo`. */
  const ceilingOver = (c: number, k: number) => (k + 1 < first[c + 1]! && !door[k + 1] ? lo[k + 1]! : Infinity);

  /**
   * Of cell c's tops within `reach` of `from` and inside [below, above], the best as the floor, or
   * −1. A top counts only when the free height over it reaches `MIN_ROOM_M` above both itself and
   * `level` (the route's height there): less is the inside of a solid — under a slab, a sill, a
   * stair's tread, a wall's foot — however its faces are wound, since no agent stands in it. Of those,
   * the one nearest `from` (one walks on along the surface one is on); where two are about as near —
   * a tread one riser up and the floor under the flight one riser down — the one nearer `target`,
   * the route's height.
   */
  const bestTop = (c: number, from: number, reach: number, target: number, below: number, above: number, level: number): number => {
    let best = -1,
      bestR = Infinity,
      bestD = Infinity;
    for (let k = first[c]!; k < first[c + 1]!; k++) {
      if (!ground(c, k)) continue;
      const t = hi[k]!;
      const r = Math.abs(t - from);
      if (t < below || t > above || r > reach || ceilingOver(c, k) - Math.max(t, level) < MIN_ROOM_M) continue;
      const d = Math.abs(t - target);
      if (best < 0 || r < bestR - TIE_M || (r <= bestR + TIE_M && d < bestD)) {
        best = k;
        bestR = r;
        bestD = d;
      }
    }
    return best;
  };

  /**
   * Whether top k of cell m, reached from cell c's floor f, is the underside of what is overhead at
   * c seen through a hole in the floor: a plate standing at least a thin room above f with nothing
   * under it in m, where c has a solid starting at the same height over free room (a crawl space's
   * or a table's underside, a lintel). Such a top is no floor; the hole is left for holes.ts.
   */
  const overheadThroughHole = (c: number, f: number, m: number, k: number): boolean => {
    const t = hi[k]!;
    if (t - f < MIN_ROOM_M || lo[first[m]!]! < t - EDGE_M) return false;
    for (let q = first[c]!; q < first[c + 1]!; q++) if (!door[q] && Math.abs(lo[q]! - t) <= EDGE_M && lo[q]! - f >= MIN_ROOM_M) return true;
    return false;
  };

  const queue = new Int32Array(n);
  let head = 0,
    tail = 0;
  // Seeds: the floor under each node (the highest top within reach below it), at its cell or close by.
  const seedRadius = Math.ceil(0.3 / grid.cellM);
  const seed = (p: Vec3): void => {
    const seedCell = cellAt(grid, p.x, p.z);
    if (seedCell < 0) return;
    const si = seedCell % grid.nx,
      sj = (seedCell - si) / grid.nx;
    for (const [i, j] of ringsAround(si, sj, seedRadius, grid.nx, grid.nz)) {
      const c = j * grid.nx + i;
      if (!mask[c]) continue;
      if (floorSpan[c]! >= 0) return;
      const k = bestTop(c, p.y, NODE_ABOVE_FLOOR_M, p.y, p.y - NODE_ABOVE_FLOOR_M, p.y + 0.1, -Infinity);
      if (k < 0) continue;
      floor[c] = hi[k]!;
      floorSpan[c] = k;
      queue[tail++] = c;
      return;
    }
  };
  const flood = () => {
    while (head < tail) {
      const c = queue[head++]!;
      const i = c % grid.nx,
        j = (c - i) / grid.nx;
      const f = floor[c]!;
      for (let d = 0; d < 4; d++) {
        const ni = i + (d === 0 ? 1 : d === 1 ? -1 : 0),
          nj = j + (d === 2 ? 1 : d === 3 ? -1 : 0);
        if (ni < 0 || nj < 0 || ni >= grid.nx || nj >= grid.nz) continue;
        const m = nj * grid.nx + ni;
        if (!mask[m] || floorSpan[m]! >= 0) continue;
        const ref = yRef[m]!;
        const k = bestTop(m, f, STEP_CLASS_M, ref, ref - BELOW_ROUTE_M, ref + ABOVE_ROUTE_M, ref);
        if (k < 0 || overheadThroughHole(c, f, m, k)) continue;
        floor[m] = hi[k]!;
        floorSpan[m] = k;
        queue[tail++] = m;
      }
    }
  };
  // In a fixed order (west to east, then north to south), whichever end the segment was asked from.
  for (const p of [...seeds].sort((a, b) => a.x - b.x || a.z - b.z || a.y - b.y)) {
    seed(p);
    flood();
  }

  const filled = fillHoles(spans, region, floor, floorSpan);

  const headroom = new Float32Array(n).fill(Infinity);
  const doorHeadroom = new Float32Array(n).fill(Infinity);
  for (let c = 0; c < n; c++) {
    const f = floor[c]!;
    if (Number.isNaN(f)) continue;
    const fs = floorSpan[c]!;
    for (let k = first[c]!; k < first[c + 1]!; k++) {
      // A solid ending at the floor's height (within a step's noise) is the floor's own, not above it.
      if (k === fs || hi[k]! <= f + FLOOR_NOISE_M) continue;
      const room = Math.max(0, lo[k]! - f);
      if (door[k]) {
        if (room < doorHeadroom[c]!) doorHeadroom[c] = room;
      } else if (room < headroom[c]!) headroom[c] = room;
    }
  }
  const { stair, flight } = markStairs(grid, floor);
  return { region, spans, floor, headroom, doorHeadroom, stair, flight, filled };
}
