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
  const scan = (count: number, cellOf: (k: number) => number) => {
    let k = 0;
    while (k < count) {
      // A run of cells with a floor.
      while (k < count && Number.isNaN(floor[cellOf(k)]!)) k++;
      const from = k;
      let jumps = 0;
      while (k < count && !Number.isNaN(floor[cellOf(k)]!)) {
        if (k > from) {
          const d = Math.abs(floor[cellOf(k)]! - floor[cellOf(k - 1)]!);
          if (d >= RISER_JUMP[0] && d <= RISER_JUMP[1]) jumps++;
        }
        k++;
      }
      if (jumps < 3) continue;
      const cells = Array.from({ length: k - from }, (_, m) => cellOf(from + m));
      const heights = cells.map((c) => floor[c]!);
      const points = cells.map((_, m) => ({ s: m * grid.cellM, at: { x: 0, y: heights[m]!, z: 0 } }));
      const found = findSteps(points, heights).stairs;
      if (!found) continue;
      for (let m = 0; m < cells.length; m++) {
        const s = m * grid.cellM;
        // A riser's s is that of the first cell above it: the flight is [first riser, last riser).
        if (s >= found.fromS - 1e-9 && s < found.toS - 1e-9) stair[cells[m]!] = 1;
      }
      if (!flight || found.risers > flight.risers) flight = { risers: found.risers, riserM: found.riserM };
    }
  };
  for (let j = 0; j < grid.nz; j++) scan(grid.nx, (i) => j * grid.nx + i);
  for (let i = 0; i < grid.nx; i++) scan(grid.nz, (j) => j * grid.nx + i);
  return { stair, flight };
}
