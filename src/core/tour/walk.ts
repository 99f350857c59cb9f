import { round, yawOf, type P3 } from './view.ts';

/**
 * A camera walking a route at a steady pace and turning smoothly: the heading follows the route a
 * little ahead of the feet at a limited yaw rate, and where the route turns more sharply than the
 * walker turns while walking it stops and turns on the spot first. A gaze makes the camera look at
 * a point (a node it would otherwise pass without showing) over a stretch of the route. Sampled at
 * the video's frame rate: frame k is at k / fps.
 */

export interface WalkSettings {
  fps: number;
  /** Walking speed along the route, metres per second. */
  paceMps: number;
  /** Fastest turn of the head, degrees per second (left/right, and up/down for gazes). */
  yawRateDegPerS: number;
  /** Turns larger than this are made standing still. */
  turnInPlaceAboveDeg: number;
  /** The heading looks this far ahead along the route, which rounds the corners. */
  lookAheadM: number;
}

export const WALK_DEFAULTS: Omit<WalkSettings, 'fps'> = { paceMps: 1, yawRateDegPerS: 60, turnInPlaceAboveDeg: 35, lookAheadM: 0.6 };

/** Look at `target` while the walker is between `fromS` and `toS` metres along the route. */
export interface Gaze {
  target: P3;
  fromS: number;
  toS: number;
}

export interface WalkFrame {
  t: number;
  /** Where the walker's feet are on the route (the route's height, not yet the floor under it). */
  at: P3;
  /** Metres walked along the route. */
  s: number;
  yawRad: number;
  pitchRad: number;
}

const MAX_PITCH = (60 * Math.PI) / 180;

/**
 * Cumulative lengths along a polyline, to find the point at a distance walked. A cut (the segment
 * from point i − 1 to point i, for i in `cuts`) is not walked: it has no length, so the walker is on
 * its near end just before it and on its far end at it — the video cuts there.
 */
export class Polyline {
  readonly cum: number[] = [0];
  /** Distances walked at which a cut happens, rising. */
  readonly cutS: number[] = [];
  constructor(
    readonly points: readonly P3[],
    cuts: ReadonlySet<number> = new Set(),
  ) {
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!,
        b = points[i]!;
      const cut = cuts.has(i);
      this.cum.push(this.cum[i - 1]! + (cut ? 0 : Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z)));
      if (cut) this.cutS.push(this.cum[i]!);
    }
  }

  /** The distance of the first cut after `s` (Infinity when none). */
  nextCut(s: number): number {
    for (const c of this.cutS) if (c > s) return c;
    return Infinity;
  }

  get length(): number {
    return this.cum[this.cum.length - 1]!;
  }

  at(s: number): P3 {
    const p = this.points;
    if (p.length === 1 || s <= 0) return { ...p[0]! };
    if (s >= this.length) return { ...p[p.length - 1]! };
    let lo = 0,
      hi = this.cum.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.cum[mid]! <= s) lo = mid;
      else hi = mid;
    }
    const a = p[lo]!,
      b = p[hi]!,
      len = this.cum[hi]! - this.cum[lo]!;
    const f = len > 0 ? (s - this.cum[lo]!) / len : 0;
    return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, z: a.z + (b.z - a.z) * f };
  }
}

const wrap = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));
const toward = (from: number, to: number, max: number) => from + Math.max(-max, Math.min(max, to - from));

/**
 * Walk `route` (world points on the floor, in walking order) and return the camera at every frame.
 * `eyeHeightM` is only used to aim gazes; the frames' heights are set from the floor afterwards.
 */
export function walkRoute(
  route: readonly P3[],
  settings: WalkSettings,
  eyeHeightM: number,
  gazes: readonly Gaze[] = [],
  cuts: ReadonlySet<number> = new Set(),
): WalkFrame[] {
  if (route.length === 0) return [];
  const line = new Polyline(route, cuts);
  const L = line.length;
  // Simulation steps divide each frame evenly, so frames fall exactly on steps.
  const sub = Math.max(1, Math.ceil(60 / settings.fps));
  const dt = 1 / (settings.fps * sub);
  const maxTurn = ((settings.yawRateDegPerS * Math.PI) / 180) * dt;
  const inPlace = (settings.turnInPlaceAboveDeg * Math.PI) / 180;

  const heading = (s: number, current: number): number => {
    // Looking ahead stops short of a cut: the camera does not turn to face a wall it will not walk through.
    const a = line.at(s),
      b = line.at(Math.min(L, s + settings.lookAheadM, line.nextCut(s) - 1e-6));
    if (Math.hypot(b.x - a.x, b.z - a.z) < 1e-3) {
      // At the very end, or on a vertical stretch: look along the last horizontal stretch before it.
      const c = line.at(Math.max(0, s - settings.lookAheadM));
      return Math.hypot(a.x - c.x, a.z - c.z) < 1e-3 ? current : yawOf(a.x - c.x, a.z - c.z);
    }
    return yawOf(b.x - a.x, b.z - a.z);
  };
  const gazeAt = (s: number) => gazes.find((g) => s >= g.fromS && s <= g.toS);

  let s = 0;
  let yaw = heading(0, 0);
  let pitch = 0;
  const out: WalkFrame[] = [];
  // A route that cannot be walked in a day is a bug, not a tour.
  const maxSteps = Math.ceil((L / settings.paceMps + 24 * 3600) / dt);
  for (let step = 0; step < maxSteps; step++) {
    const at = line.at(s);
    if (step % sub === 0) out.push({ t: round(step * dt), at, s, yawRad: wrap(yaw), pitchRad: pitch });
    if (s >= L && step % sub === 0) break;
    const gaze = gazeAt(s);
    let wantYaw: number,
      wantPitch = 0;
    if (gaze) {
      const dx = gaze.target.x - at.x,
        dz = gaze.target.z - at.z;
      wantYaw = Math.hypot(dx, dz) > 1e-3 ? yawOf(dx, dz) : yaw;
      wantPitch = Math.max(-MAX_PITCH, Math.min(MAX_PITCH, Math.atan2(gaze.target.y - (at.y + eyeHeightM), Math.hypot(dx, dz))));
    } else {
      wantYaw = heading(s, yaw);
    }
    const err = wrap(wantYaw - yaw);
    yaw += Math.max(-maxTurn, Math.min(maxTurn, err));
    pitch = toward(pitch, wantPitch, maxTurn);
    // A gazing walker keeps walking; otherwise a sharp turn is made before walking on.
    const pathErr = gaze ? 0 : Math.abs(wrap(heading(s, yaw) - yaw));
    if (s < L && pathErr <= inPlace) s = Math.min(L, s + settings.paceMps * dt);
  }
  return out;
}
