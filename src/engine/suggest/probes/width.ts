import { Vector3 } from 'three';
import { castRay, floorBelow, newRayHit } from '../../rays/cast.ts';
import type { Surface } from '../../rays/surface.ts';
import { WIDTH_HEIGHTS_M } from '../types.ts';

/**
 * Clear width through points of a route: at each height above the local floor, the narrowest
 * horizontal line through the point that is closed by walls on both sides within 3 m.
 *
 * Only lines across the route count (within ±50° of the route's normal): a doorway crossed at an
 * angle is still measured jamb to jamb, while the route's own way ahead is not a width. A ray that
 * hits something the reference walker steps onto — a riser, a sill — does not close a line: on
 * stairs the treads ahead would otherwise read as a narrow passage. A hit is such a step when the
 * surface just beyond it tops out within 0.3 m above the ray and within 0.3 m of the floor just
 * before it; a wall (nothing on top within reach) or a table top (far above the floor) closes. Nor
 * does a hit on a level surface: a level ray only skims one (grazes).
 */

export const MAX_SPAN_M = 3;
const CLIMB_M = 0.3;
const PROBE_M = 0.02;
const HALF_FAN_DEG = 50;
const FAN_STEP_DEG = 10;

export interface Span {
  width: number;
  angle: number;
}

interface Candidate {
  width: number;
  angle: number;
  fwd: Vector3;
  back: Vector3;
}

export class WidthProbe {
  private readonly origin = new Vector3();
  private readonly dir = new Vector3();
  private readonly back = new Vector3();
  private readonly probe = new Vector3();
  private readonly hit = newRayHit();

  constructor(private readonly solid: Surface) {}

  /** The narrowest closed line through `(p.x, floorY + h, p.z)` among plan angles `angles` (radians). */
  narrowest(p: Vector3, floorY: number, h: number, angles: readonly number[]): Span | null {
    const y = floorY + h;
    this.origin.set(p.x, y, p.z);
    const candidates: Candidate[] = [];
    for (const angle of angles) {
      this.dir.set(Math.cos(angle), 0, Math.sin(angle));
      const f = castRay(this.solid, this.origin, this.dir, MAX_SPAN_M, this.hit)?.distance;
      if (f === undefined || grazes(this.hit.normal)) continue;
      const fwd = this.hit.point.clone();
      this.back.copy(this.dir).negate();
      const b = castRay(this.solid, this.origin, this.back, MAX_SPAN_M - f, this.hit)?.distance;
      if (b === undefined || grazes(this.hit.normal)) continue;
      candidates.push({ width: f + b, angle, fwd, back: this.hit.point.clone() });
    }
    candidates.sort((a, b) => a.width - b.width);
    for (const c of candidates) {
      this.dir.set(Math.cos(c.angle), 0, Math.sin(c.angle));
      if (!this.closes(c.fwd, this.dir, y)) continue;
      this.back.copy(this.dir).negate();
      if (!this.closes(c.back, this.back, y)) continue;
      return { width: c.width, angle: c.angle };
    }
    return null;
  }

  /** Whether a hit at height `y` is a wall (closes the line) rather than a step the walker climbs. */
  private closes(hit: Vector3, dir: Vector3, y: number): boolean {
    this.probe.set(hit.x + dir.x * PROBE_M, y + CLIMB_M, hit.z + dir.z * PROBE_M);
    const top = floorBelow(this.solid, this.probe, CLIMB_M + 0.001, this.hit)?.point.y;
    if (top === undefined) return true;
    this.probe.set(hit.x - dir.x * PROBE_M, y, hit.z - dir.z * PROBE_M);
    const before = floorBelow(this.solid, this.probe, 3, this.hit)?.point.y;
    return before === undefined || top - before > CLIMB_M;
  }
}

/**
 * Whether a level ray met a level surface: it skimmed a floor's or a sill's top (a noisy top rises
 * through the ray here and there), which bounds no width; a wall's face is steep.
 */
export function grazes(normal: { y: number }): boolean {
  return Math.abs(normal.y) > GRAZE_NORMAL_Y;
}
const GRAZE_NORMAL_Y = Math.cos((45 * Math.PI) / 180);

/** Plan angles of the fan across a route heading (radians), every `stepDeg` within ±`halfDeg` of the normal. */
export function fanAcross(heading: Vector3, halfDeg = HALF_FAN_DEG, stepDeg = FAN_STEP_DEG): number[] {
  const normal = Math.atan2(heading.z, heading.x) + Math.PI / 2;
  const out: number[] = [];
  for (let d = -halfDeg; d <= halfDeg + 1e-9; d += stepDeg) out.push(normal + (d * Math.PI) / 180);
  return out;
}

/** A fine fan around one angle, to pin a coarse minimum down to a fraction of a millimetre. */
export function fanAround(angle: number, halfDeg = FAN_STEP_DEG / 4, stepDeg = 0.25): number[] {
  const out: number[] = [];
  for (let d = -halfDeg; d <= halfDeg + 1e-9; d += stepDeg) out.push(angle + (d * Math.PI) / 180);
  return out;
}

const HALF_STEP_RAD = ((FAN_STEP_DEG / 4) * Math.PI) / 180;

export interface WidthSample {
  p: Vector3;
  floorY: number;
  heading: Vector3;
}

/** Coarse spans of every sample at every height: `width[i * H + k]` (NaN where open) and the angle. */
export interface WidthGrid {
  width: Float64Array;
  angle: Float64Array;
  heights: readonly number[];
}

/**
 * A width far narrower than every neighbour in the grid — the samples either side at its height, and
 * its own sample at the heights either side — is a ray that met noise (a riser's or a jamb's ragged
 * edge seen at a slant), not a passage: a doorway spans two samples at least (walls are 10 cm deep
 * and more) and a height or two. Such a width is dropped.
 */
const ISOLATED = 0.9;

function dropIsolated(grid: WidthGrid, count: number): void {
  const H = grid.heights.length,
    w = grid.width;
  const at = (i: number, k: number) => (i < 0 || i >= count || k < 0 || k >= H ? NaN : w[i * H + k]!);
  const drop: number[] = [];
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < H; k++) {
      const x = at(i, k);
      if (Number.isNaN(x)) continue;
      const around = [at(i - 1, k), at(i + 1, k), at(i, k - 1), at(i, k + 1)].filter((v) => !Number.isNaN(v));
      if (around.length >= 2 && around.every((v) => x < ISOLATED * v)) drop.push(i * H + k);
    }
  }
  for (const d of drop) {
    w[d] = NaN;
    grid.angle[d] = NaN;
  }
}

export function measureWidthGrid(probe: WidthProbe, samples: readonly WidthSample[], heights: readonly number[] = WIDTH_HEIGHTS_M): WidthGrid {
  const H = heights.length;
  const width = new Float64Array(samples.length * H).fill(NaN);
  const angle = new Float64Array(samples.length * H).fill(NaN);
  samples.forEach((s, i) => {
    const fan = fanAcross(s.heading);
    heights.forEach((h, k) => {
      let span = probe.narrowest(s.p, s.floorY, h, fan);
      // Halve the fan's step round the best line: within 1.25° of the true narrowest, 0.03 % wide.
      const half = span && probe.narrowest(s.p, s.floorY, h, [span.angle - HALF_STEP_RAD, span.angle + HALF_STEP_RAD]);
      if (half && span && half.width < span.width) span = half;
      if (span) {
        width[i * H + k] = span.width;
        angle[i * H + k] = span.angle;
      }
    });
  });
  const grid = { width, angle, heights };
  dropIsolated(grid, samples.length);
  return grid;
}

/**
 * The narrowest width at height index `k` among samples `from..to` (inclusive), refined at the
 * coarse minimum; null when all are open.
 */
export function narrowestIn(
  probe: WidthProbe,
  grid: WidthGrid,
  samples: readonly WidthSample[],
  k: number,
  from = 0,
  to = samples.length - 1,
): { width: number; index: number } | null {
  const H = grid.heights.length;
  let best = -1;
  for (let i = Math.max(0, from); i <= Math.min(to, samples.length - 1); i++) {
    const w = grid.width[i * H + k]!;
    if (!Number.isNaN(w) && (best < 0 || w < grid.width[best * H + k]!)) best = i;
  }
  if (best < 0) return null;
  const s = samples[best]!;
  const fine = probe.narrowest(s.p, s.floorY, grid.heights[k]!, fanAround(grid.angle[best * H + k]!));
  const coarse = grid.width[best * H + k]!;
  return { width: fine ? Math.min(fine.width, coarse) : coarse, index: best };
}
