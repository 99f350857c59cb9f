/**
 * The highest floor among a run of cells in one grid row, in constant time: a sparse table per row
 * (level k holds the maximum of the 2^k cells from each cell on). Cells without a floor (NaN) count
 * as −Infinity. The planner asks it for every row under a footprint on every pose the collider
 * checks (agentMap.ts supportUnder): scanning the cells instead was ~5,700 reads a pose for a 1.1 m
 * box at 1 cm.
 */
export class RowMax {
  private readonly levels: Float32Array[];

  constructor(
    values: Float32Array,
    private readonly nx: number,
  ) {
    const n = values.length;
    const base = new Float32Array(n);
    for (let c = 0; c < n; c++) {
      const v = values[c]!;
      base[c] = Number.isNaN(v) ? -Infinity : v;
    }
    this.levels = [base];
    for (let w = 2; w <= nx; w *= 2) {
      const prev = this.levels[this.levels.length - 1]!,
        half = w / 2;
      const next = new Float32Array(n).fill(-Infinity);
      for (let row = 0; row < n; row += nx) {
        for (let i = 0; i + w <= nx; i++) {
          const a = prev[row + i]!,
            b = prev[row + i + half]!;
          next[row + i] = a > b ? a : b;
        }
      }
      this.levels.push(next);
    }
  }

  /** The highest value among cells i0…i1 (inclusive, i0 ≤ i1, both on the grid) of row j. */
  max(j: number, i0: number, i1: number): number {
    const k = 31 - Math.clz32(i1 - i0 + 1);
    const level = this.levels[k]!,
      row = j * this.nx;
    const a = level[row + i0]!,
      b = level[row + i1 - (1 << k) + 1]!;
    return a > b ? a : b;
  }
}

const tables = new WeakMap<Float32Array, RowMax>();

/** The row maxima of a grid of values, made once per array. */
export function rowMaxOf(values: Float32Array, nx: number): RowMax {
  let t = tables.get(values);
  if (!t) {
    t = new RowMax(values, nx);
    tables.set(values, t);
  }
  return t;
}
