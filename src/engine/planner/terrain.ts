import type { Vec3 } from '../../core/graph.ts';
import { STEP_CLASS_M } from '../collider/body.ts';
import { cellAt, ringsAround } from './grid.ts';
import type { ColumnSpans } from './rasterize.ts';
import type { Region } from './region.ts';
import { markStairs, type StairFlight } from './stairs.ts';

/**
 * The ground of one segment's region, the same for every agent: per cell the floor the edge runs
 * on, the free height above it (to the next solid, and to a closed door leaf), and whether it lies
 * on a flight of stairs.
 *
 * The floor of a column is one of its spans' tops. Which one is decided by a flood fill from the
 * segment's start: a cell takes the top nearest its neighbour's floor within a climbable rise
 * (below the collider's step class, 45 cm), among the tops near the route's height there — so a
 * staircase is followed up from storey to storey, and in a column holding two storeys the one the
 * edge runs on is taken. Cells the fill does not reach have no floor (walls, other rooms).
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
}

/** Tops considered as the floor of a cell, around the route's height there. */
const BELOW_ROUTE_M = 1.2;
const ABOVE_ROUTE_M = 0.6;
/** How far below a node its floor may lie (CapNav nodes float above the floor). */
const NODE_ABOVE_FLOOR_M = 2.5;

export function buildTerrain(spans: ColumnSpans, region: Region, seeds: readonly Vec3[]): Terrain {
  const { grid, mask, yRef } = region;
  const n = grid.nx * grid.nz;
  const floor = new Float32Array(n).fill(NaN);
  const floorSpan = new Int32Array(n).fill(-1);
  const { start: first, lo, hi, door } = spans;
  // Floors face up by their winding; a scan wound inside out has none that do under its nodes, and
  // is then read either way.
  let flatHi = spans.flatHi;

  /** The candidate top of cell c nearest `target` within ±`reach`, or −1. */
  const nearestTop = (c: number, target: number, reach: number, below = -Infinity, above = Infinity): number => {
    let best = -1, bestD = Infinity;
    for (let k = first[c]!; k < first[c + 1]!; k++) {
      // A top whose steep part rises less than the step class above its level part is ground at
      // the top (the edge of a sill, a riser); a taller one is a wall.
      if (door[k] || hi[k]! - flatHi[k]! > STEP_CLASS_M) continue;
      const t = hi[k]!;
      if (t < below || t > above) continue;
      const d = Math.abs(t - target);
      if (d <= reach && d < bestD) { best = k; bestD = d; }
    }
    return best;
  };

  const queue = new Int32Array(n);
  let head = 0, tail = 0;
  // Seeds: the floor under each node (the highest top within reach below it), at its cell or close by;
  // the fill runs from the first, and from the next only if the first did not reach it.
  const seedRadius = Math.ceil(0.3 / grid.cellM);
  const seed = (p: Vec3): boolean => {
    const seedCell = cellAt(grid, p.x, p.z);
    if (seedCell < 0) return false;
    const si = seedCell % grid.nx, sj = (seedCell - si) / grid.nx;
    for (const [i, j] of ringsAround(si, sj, seedRadius, grid.nx, grid.nz)) {
      const c = j * grid.nx + i;
      if (!mask[c]) continue;
      if (floorSpan[c]! >= 0) return false;
      const k = nearestTop(c, p.y, NODE_ABOVE_FLOOR_M, p.y - NODE_ABOVE_FLOOR_M, p.y + 0.1);
      if (k < 0) continue;
      floor[c] = hi[k]!; floorSpan[c] = k; queue[tail++] = c;
      return true;
    }
    return false;
  };
  const flood = () => {
    while (head < tail) {
      const c = queue[head++]!;
      const i = c % grid.nx, j = (c - i) / grid.nx;
      const f = floor[c]!;
      for (let d = 0; d < 4; d++) {
        const ni = i + (d === 0 ? 1 : d === 1 ? -1 : 0), nj = j + (d === 2 ? 1 : d === 3 ? -1 : 0);
        if (ni < 0 || nj < 0 || ni >= grid.nx || nj >= grid.nz) continue;
        const m = nj * grid.nx + ni;
        if (!mask[m] || floorSpan[m]! >= 0) continue;
        const ref = yRef[m]!;
        const k = nearestTop(m, f, STEP_CLASS_M, ref - BELOW_ROUTE_M, ref + ABOVE_ROUTE_M);
        if (k < 0) continue;
        floor[m] = hi[k]!; floorSpan[m] = k; queue[tail++] = m;
      }
    }
  };
  let seeded = false;
  for (const p of seeds) if (seed(p)) { seeded = true; flood(); }
  if (!seeded) {
    flatHi = spans.flatHiAny;
    for (const p of seeds) if (seed(p)) flood();
  }

  const headroom = new Float32Array(n).fill(Infinity);
  const doorHeadroom = new Float32Array(n).fill(Infinity);
  for (let c = 0; c < n; c++) {
    const fs = floorSpan[c]!;
    if (fs < 0) continue;
    const f = hi[fs]!;
    for (let k = first[c]!; k < first[c + 1]!; k++) {
      if (k === fs || hi[k]! <= f + 1e-4) continue;
      const room = Math.max(0, lo[k]! - f);
      if (door[k]) { if (room < doorHeadroom[c]!) doorHeadroom[c] = room; } else if (room < headroom[c]!) headroom[c] = room;
    }
  }
  const { stair, flight } = markStairs(grid, floor);
  return { region, spans, floor, headroom, doorHeadroom, stair, flight };
}
