/**
 * The plan grid the planner works on: square cells of `cellM` over a world-frame rectangle (x, z),
 * Y up. Cell (i, j) covers [x0 + i·cell, x0 + (i + 1)·cell) × [z0 + j·cell, z0 + (j + 1)·cell): half
 * open, so a wall face lying exactly on a cell boundary marks one cell, not two.
 */
export interface PlanGrid {
  x0: number;
  z0: number;
  cellM: number;
  nx: number;
  nz: number;
}

export function gridOver(minX: number, minZ: number, maxX: number, maxZ: number, cellM: number): PlanGrid {
  const x0 = Math.floor(minX / cellM) * cellM,
    z0 = Math.floor(minZ / cellM) * cellM;
  return { x0, z0, cellM, nx: Math.max(1, Math.ceil((maxX - x0) / cellM)), nz: Math.max(1, Math.ceil((maxZ - z0) / cellM)) };
}

/** Index of the cell holding (x, z), or −1 outside the grid. */
export function cellAt(g: PlanGrid, x: number, z: number): number {
  const i = Math.floor((x - g.x0) / g.cellM),
    j = Math.floor((z - g.z0) / g.cellM);
  return i < 0 || j < 0 || i >= g.nx || j >= g.nz ? -1 : j * g.nx + i;
}

export const cellCentreX = (g: PlanGrid, i: number): number => g.x0 + (i + 0.5) * g.cellM;
export const cellCentreZ = (g: PlanGrid, j: number): number => g.z0 + (j + 0.5) * g.cellM;

/**
 * Cells (i, j) of an nx × nz grid on square rings round (i0, j0), nearest ring first, out to ring
 * `rings` (ring r: the cells r steps away in the larger of the two directions).
 */
export function* ringsAround(i0: number, j0: number, rings: number, nx: number, nz: number): Generator<[number, number, number]> {
  for (let r = 0; r <= rings; r++) {
    for (let dj = -r; dj <= r; dj++) {
      for (let di = -r; di <= r; di++) {
        if (Math.max(Math.abs(di), Math.abs(dj)) !== r) continue;
        const i = i0 + di,
          j = j0 + dj;
        if (i >= 0 && j >= 0 && i < nx && j < nz) yield [i, j, r];
      }
    }
  }
}

/** The plan rectangle of some points (Infinity / −Infinity when there are none). */
export function planBoundsOf(points: readonly { x: number; z: number }[]): { minX: number; maxX: number; minZ: number; maxZ: number } {
  let minX = Infinity,
    maxX = -Infinity,
    minZ = Infinity,
    maxZ = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    maxX = Math.max(maxX, p.x);
    minZ = Math.min(minZ, p.z);
    maxZ = Math.max(maxZ, p.z);
  }
  return { minX, maxX, minZ, maxZ };
}
