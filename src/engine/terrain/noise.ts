import type { Terrain } from './terrain.ts';

/**
 * How noisy a scan's surfaces are round an edge: the root mean square of the floor's heights about
 * a plane fitted to small level patches (12 × 12 cm, no step in them, nothing filled), the median
 * over patches spread through the region. A generated house reads ~0; a reconstruction reads its
 * sensor's noise at the scale a sill or a jamb is measured at (millimetres). The drive says a
 * decision is doubtful when a measurement lies within a few of these of the agent's limit.
 */

const PATCH = 12;
const STRIDE = 40;
/** A patch with more than this between its highest and lowest cell holds a step: not a level patch. */
const LEVEL_M = 0.02;

export function surfaceNoiseM(terrain: Terrain): number {
  const { grid, mask } = terrain.region;
  const { floor, filled } = terrain;
  const rms: number[] = [];
  for (let j0 = 0; j0 + PATCH <= grid.nz; j0 += STRIDE) {
    for (let i0 = 0; i0 + PATCH <= grid.nx; i0 += STRIDE) {
      // Least squares of h = a + b·i + c·j over the patch (i, j centred, so the sums decouple).
      let n = 0,
        sh = 0,
        shi = 0,
        shj = 0,
        sii = 0,
        sjj = 0,
        lo = Infinity,
        hi = -Infinity,
        ok = true;
      const h0 = (PATCH - 1) / 2;
      for (let j = 0; j < PATCH && ok; j++) {
        for (let i = 0; i < PATCH; i++) {
          const c = (j0 + j) * grid.nx + i0 + i;
          const f = floor[c]!;
          if (!mask[c] || filled[c] || Number.isNaN(f)) {
            ok = false;
            break;
          }
          const u = i - h0,
            v = j - h0;
          n++;
          sh += f;
          shi += f * u;
          shj += f * v;
          sii += u * u;
          sjj += v * v;
          if (f < lo) lo = f;
          if (f > hi) hi = f;
        }
      }
      if (!ok || hi - lo > LEVEL_M) continue;
      const a = sh / n,
        b = shi / sii,
        c2 = shj / sjj;
      let sq = 0;
      for (let j = 0; j < PATCH; j++) {
        for (let i = 0; i < PATCH; i++) {
          const r = floor[(j0 + j) * grid.nx + i0 + i]! - (a + b * (i - h0) + c2 * (j - h0));
          sq += r * r;
        }
      }
      rms.push(Math.sqrt(sq / n));
    }
  }
  if (rms.length === 0) return 0;
  rms.sort((x, y) => x - y);
  return rms[rms.length >> 1]!;
}
