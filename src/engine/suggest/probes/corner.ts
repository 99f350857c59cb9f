import type { Vector3 } from 'three';
import { narrowestIn, type WidthGrid, type WidthProbe, type WidthSample } from './width.ts';

/**
 * An L-shaped corner: the route turns by at least 60° where the passage is narrower than 1.5 m on
 * both legs. The turn at a sample is the angle between the route's chords over the 0.5 m before and
 * after it, so a corner cut in two 45° bends reads as one 90° turn. Each leg's width is the narrowest
 * width 0.25–1.5 m from the turn along that leg (away from the junction square, where the two legs
 * overlap), per height, so the agent's own height decides which obstacles count.
 */

const MIN_TURN_DEG = 60;
const NARROW_M = 1.5;
const CHORD_M = 0.5;
const LEG_FROM_M = 0.25;
const LEG_TO_M = 1.5;

export interface CornerFinding {
  index: number;
  turnDeg: number;
  /** Per height (grid order): leg on the route's start side, then the other; null where open. */
  legWidthsByHeight: [(number | null)[], (number | null)[]];
}

interface RouteSample extends WidthSample {
  s: number;
}

function turnAt(samples: readonly RouteSample[], i: number): number {
  const c = samples[i]!;
  const before = findAt(samples, c.s - CHORD_M),
    after = findAt(samples, c.s + CHORD_M);
  if (before === i || after === i) return 0;
  const a = samples[before]!.p,
    b = samples[after]!.p;
  const ux = c.p.x - a.x,
    uz = c.p.z - a.z,
    vx = b.x - c.p.x,
    vz = b.z - c.p.z;
  const lu = Math.hypot(ux, uz),
    lv = Math.hypot(vx, vz);
  if (lu < CHORD_M / 2 || lv < CHORD_M / 2) return 0;
  const cos = Math.max(-1, Math.min(1, (ux * vx + uz * vz) / (lu * lv)));
  return (Math.acos(cos) * 180) / Math.PI;
}

/** Index of the sample nearest distance `s` along the route. */
function findAt(samples: readonly RouteSample[], s: number): number {
  let lo = 0,
    hi = samples.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (samples[mid]!.s < s) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(samples[lo - 1]!.s - s) < Math.abs(samples[lo]!.s - s)) return lo - 1;
  return lo;
}

function legWidths(probe: WidthProbe, grid: WidthGrid, samples: readonly RouteSample[], from: number, to: number): (number | null)[] {
  if (to < from) return grid.heights.map(() => null);
  return grid.heights.map((_, k) => narrowestIn(probe, grid, samples, k, from, to)?.width ?? null);
}

const narrowest = (ws: (number | null)[]): number => Math.min(...ws.map((w) => w ?? Infinity));

/** The tightest narrow corner on the route, or null. */
export function findCorner(probe: WidthProbe, grid: WidthGrid, samples: readonly RouteSample[]): CornerFinding | null {
  const turns = samples.map((_, i) => turnAt(samples, i));
  let best: CornerFinding | null = null;
  for (let i = 0; i < samples.length; i++) {
    // The sharpest point of each stretch that turns enough.
    if (turns[i]! < MIN_TURN_DEG || turns[i]! < (turns[i - 1] ?? 0) || turns[i]! <= (turns[i + 1] ?? 0)) continue;
    const s = samples[i]!.s;
    const legA = legWidths(probe, grid, samples, findAt(samples, s - LEG_TO_M), findAt(samples, s - LEG_FROM_M));
    const legB = legWidths(probe, grid, samples, findAt(samples, s + LEG_FROM_M), findAt(samples, s + LEG_TO_M));
    const a = narrowest(legA),
      b = narrowest(legB);
    if (!(a < NARROW_M && b < NARROW_M)) continue;
    if (!best || Math.min(a, b) < Math.min(narrowest(best.legWidthsByHeight[0]), narrowest(best.legWidthsByHeight[1]))) {
      best = { index: i, turnDeg: turns[i]!, legWidthsByHeight: [legA, legB] };
    }
  }
  return best;
}

/** Plan heading of the route at a sample (for `direction`). */
export function headingAt(samples: readonly { heading: Vector3 }[], i: number): { x: number; z: number } {
  const h = samples[i]!.heading;
  return { x: Math.round(h.x * 1000) / 1000 + 0, z: Math.round(h.z * 1000) / 1000 + 0 };
}
