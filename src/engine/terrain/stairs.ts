import { findSteps } from './steps.ts';
import type { PlanGrid } from './grid.ts';

/**
 * Stairs in a floor grid: cells on a flight, found by reading the floor along every row and column
 * of the grid (1 cm apart, the suggestion probes' sampling) with the probes' own step finder
 * (suggest/probes/steps.ts): at least three risers of 8–25 cm in one direction, close together. A
 * line crossing a flight at any angle sees its risers, so straight, turning and diagonal flights are
 * all found. Cells from the first riser to the last along such a line are the flight's (its treads);
 * the floors below and above are not.
 */
export interface StairFlight {
  risers: number;
  riserM: number;
}

/** A rise between neighbouring cells that may be a riser (the probes accept 8–25 cm). */
const RISER_JUMP = [0.07, 0.26] as const;

export function markStairs(grid: PlanGrid, floor: Float32Array): { stair: Uint8Array; flight: StairFlight | null } {
  const stair = new Uint8Array(grid.nx * grid.nz);
  let flight: StairFlight | null = null;
  // One line's heights, reused: a flight's every row and column is a candidate (~900 cells each).
  const heights = new Float32Array(Math.max(grid.nx, grid.nz));
  /** The line of `count` cells from cell `base`, `stride` apart (1 along a row, nx down a column). */
  const scan = (base: number, stride: number, count: number) => {
    let k = 0;
    while (k < count) {
      // A run of cells with a floor.
      while (k < count && Number.isNaN(floor[base + k * stride]!)) k++;
      const from = k;
      let jumps = 0;
      while (k < count && !Number.isNaN(floor[base + k * stride]!)) {
        if (k > from) {
          const d = Math.abs(floor[base + k * stride]! - floor[base + (k - 1) * stride]!);
          if (d >= RISER_JUMP[0] && d <= RISER_JUMP[1]) jumps++;
        }
        k++;
      }
      if (jumps < 3) continue;
      const run = heights.subarray(0, k - from);
      for (let m = 0; m < run.length; m++) run[m] = floor[base + (from + m) * stride]!;
      const found = findSteps((m) => ({ s: m * grid.cellM, at: { x: 0, y: run[m]!, z: 0 } }), run).stairs;
      if (!found) continue;
      for (let m = 0; m < run.length; m++) {
        const s = m * grid.cellM;
        // A riser's s is that of the first cell above it: the flight is [first riser, last riser).
        if (s >= found.fromS - 1e-9 && s < found.toS - 1e-9) stair[base + (from + m) * stride] = 1;
      }
      if (!flight || found.risers > flight.risers) flight = { risers: found.risers, riserM: found.riserM };
    }
  };
  for (let j = 0; j < grid.nz; j++) scan(j * grid.nx, 1, grid.nx);
  for (let i = 0; i < grid.nx; i++) scan(i, grid.nx, grid.nz);
  return { stair, flight };
}
