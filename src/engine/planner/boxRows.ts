/**
 * A box footprint on the plan grid, row by row: where each row's centre line crosses it (the cells a
 * row holds are those with centres in that extent). agentMap.ts tests and reads the terrain under a
 * footprint with these.
 */

/** Where a row's centre line crosses a box: SPAN[0]…SPAN[1] (empty when SPAN[0] > SPAN[1]). */
export const SPAN = new Float64Array(2);

/** The extent at height `zc` of the quadrilateral with corners (px[k], pz[k]), into SPAN. */
export function crossRow(px: ArrayLike<number>, pz: ArrayLike<number>, zc: number): void {
  let xa = Infinity,
    xb = -Infinity;
  for (let k = 0; k < 4; k++) {
    const ax = px[k]!,
      az = pz[k]!,
      bx = px[(k + 1) & 3]!,
      bz = pz[(k + 1) & 3]!;
    if ((zc < az && zc < bz) || (zc > az && zc > bz)) continue;
    const x1 = az === bz ? Math.min(ax, bx) : ax + ((zc - az) / (bz - az)) * (bx - ax);
    const x2 = az === bz ? Math.max(ax, bx) : x1;
    if (x1 < xa) xa = x1;
    if (x2 > xb) xb = x2;
  }
  SPAN[0] = xa;
  SPAN[1] = xb;
}

/**
 * The cells whose centres a box centred on a cell centre holds, relative to that cell, row by row
 * (see AgentMap.rowsOfBox), by the walk boxFree makes with the centre at the origin.
 */
export function boxRowsAt(yaw: number, hu: number, hv: number, cell: number): Int32Array {
  const sn = Math.sin(yaw),
    cs = Math.cos(yaw);
  const px = [hv * sn + hu * cs, hv * sn - hu * cs, -hv * sn - hu * cs, -hv * sn + hu * cs],
    pz = [hv * cs - hu * sn, hv * cs + hu * sn, -hv * cs + hu * sn, -hv * cs - hu * sn];
  const j0 = Math.ceil(Math.min(...pz) / cell),
    j1 = Math.floor(Math.max(...pz) / cell);
  const out = new Int32Array(1 + 2 * Math.max(0, j1 - j0 + 1));
  out[0] = j0;
  for (let j = j0; j <= j1; j++) {
    const zc = j * cell;
    crossRow(px, pz, zc);
    const xa = SPAN[0]!,
      xb = SPAN[1]!;
    const r = 1 + 2 * (j - j0);
    if (xa <= xb) {
      out[r] = Math.ceil(xa / cell);
      out[r + 1] = Math.floor(xb / cell);
    } else {
      out[r] = 1;
      out[r + 1] = 0;
    }
  }
  return out;
}

/**
 * The grid rows a box at (x, z) facing yaw covers (`2·hu` across the heading, `2·hv` along it;
 * heading (sin yaw, cos yaw)), each with the box's extent [xa, xb] at the row's centre line.
 */
export function forRowsOfBox(
  x: number,
  z: number,
  yaw: number,
  hu: number,
  hv: number,
  z0: number,
  cell: number,
  row: (j: number, xa: number, xb: number) => void,
): void {
  const sn = Math.sin(yaw),
    cs = Math.cos(yaw);
  // Corners: centre ± hv·forward ± hu·left, forward = (sn, cs), left = (cs, −sn).
  const px0 = x + hv * sn + hu * cs,
    px1 = x + hv * sn - hu * cs,
    px2 = x - hv * sn - hu * cs,
    px3 = x - hv * sn + hu * cs;
  const pz0 = z + hv * cs - hu * sn,
    pz1 = z + hv * cs + hu * sn,
    pz2 = z - hv * cs + hu * sn,
    pz3 = z - hv * cs - hu * sn;
  const px = [px0, px1, px2, px3],
    pz = [pz0, pz1, pz2, pz3];
  const j0 = Math.ceil((Math.min(pz0, pz1, pz2, pz3) - z0) / cell - 0.5),
    j1 = Math.floor((Math.max(pz0, pz1, pz2, pz3) - z0) / cell - 0.5);
  for (let j = j0; j <= j1; j++) {
    const zc = z0 + (j + 0.5) * cell;
    crossRow(px, pz, zc);
    const xa = SPAN[0]!,
      xb = SPAN[1]!;
    if (xa <= xb) row(j, xa, xb);
  }
}

/**
 * Discs that together cover a box centred on a cell centre: centres along its long axis, each
 * rounded to a cell centre (offsets relative to the box's cell), all of one radius — the half width
 * and half the spacing's diagonal, plus the rounding (half a cell's diagonal). No blocked cell centre
 * within any of them (the clearance, read at cell centres, says so at once) means none in the box:
 * a test of a dozen reads where the rows of a 1 m box at 1 cm are a hundred. `reach` is the box's
 * half extent in cells on each axis (rounded up), for keeping the test on the grid.
 */
export interface BoxCover {
  offsets: Int32Array;
  /** The discs' radius squared, in cells². */
  r2: number;
  reachI: number;
  reachJ: number;
}

/** The discs are this far apart along the box (at most). */
const COVER_SPACING_M = 0.1;

export function boxCoverAt(yaw: number, hu: number, hv: number, cell: number): BoxCover {
  const sn = Math.sin(yaw),
    cs = Math.cos(yaw);
  // The long axis: along the heading (sin, cos) when the box is deeper than wide, else across it (cos, −sin).
  const long = Math.max(hu, hv),
    short = Math.min(hu, hv);
  const ax = hv >= hu ? sn : cs,
    az = hv >= hu ? cs : -sn;
  const n = Math.max(1, Math.ceil((2 * long) / COVER_SPACING_M));
  const spacing = (2 * long) / n;
  const offsets = new Int32Array(2 * n);
  for (let m = 0; m < n; m++) {
    const t = -long + spacing * (m + 0.5);
    offsets[2 * m] = Math.round((t * ax) / cell);
    offsets[2 * m + 1] = Math.round((t * az) / cell);
  }
  const r = Math.hypot(short, spacing / 2) + cell * Math.SQRT1_2;
  return {
    offsets,
    r2: (r / cell) ** 2,
    reachI: Math.ceil((hu * Math.abs(cs) + hv * Math.abs(sn)) / cell),
    reachJ: Math.ceil((hu * Math.abs(sn) + hv * Math.abs(cs)) / cell),
  };
}
