/**
 * What a tour camera sees, as plain math (world frame: Y up, metres). Yaw turns about the up axis,
 * counter-clockwise seen from above, 0 looking along −Z (three.js's camera); pitch is positive
 * looking up. The field of view is vertical, as three.js's and Habitat's are.
 */

export interface P3 {
  x: number;
  y: number;
  z: number;
}

export interface CameraLook {
  /** The eye, world frame. */
  eye: P3;
  yawRad: number;
  pitchRad: number;
}

export interface Lens {
  fovDeg: number;
  /** Width / height of the picture. */
  aspect: number;
}

/** The unit vector the camera looks along. */
export function forwardOf(yawRad: number, pitchRad: number): P3 {
  const c = Math.cos(pitchRad);
  return { x: -Math.sin(yawRad) * c, y: Math.sin(pitchRad), z: -Math.cos(yawRad) * c };
}

/** The yaw that looks along a horizontal direction (dx, dz). */
export const yawOf = (dx: number, dz: number): number => Math.atan2(-dx, -dz);

/**
 * Where a point lands in the picture: x and y from −1 to 1 (left to right, bottom to top) and its
 * depth along the view, or null when it is behind the camera.
 */
export function project(look: CameraLook, lens: Lens, p: P3): { x: number; y: number; depth: number } | null {
  const f = forwardOf(look.yawRad, look.pitchRad);
  // Right is horizontal (no roll); up completes the frame.
  const r = { x: Math.cos(look.yawRad), y: 0, z: -Math.sin(look.yawRad) };
  const u = { x: r.y * f.z - r.z * f.y, y: r.z * f.x - r.x * f.z, z: r.x * f.y - r.y * f.x };
  const v = { x: p.x - look.eye.x, y: p.y - look.eye.y, z: p.z - look.eye.z };
  const depth = v.x * f.x + v.y * f.y + v.z * f.z;
  if (depth <= 1e-6) return null;
  const tanV = Math.tan((lens.fovDeg * Math.PI) / 360);
  const tanH = tanV * lens.aspect;
  return { x: (v.x * r.x + v.y * r.y + v.z * r.z) / depth / tanH, y: (v.x * u.x + v.y * u.y + v.z * u.z) / depth / tanV, depth };
}

export interface InViewOptions {
  /** Farther than this (metres from the eye) a node is a speck, not in view. */
  maxDistanceM: number;
  /** Share of the half-picture kept clear at the edges: a node on the very border is not "in view". */
  margin: number;
}

export const IN_VIEW_DEFAULTS: InViewOptions = { maxDistanceM: 12, margin: 0.04 };

/** Whether a point lies inside the camera's frustum (not whether something hides it). */
export function inFrustum(look: CameraLook, lens: Lens, p: P3, opts: InViewOptions = IN_VIEW_DEFAULTS): boolean {
  const dist = Math.hypot(p.x - look.eye.x, p.y - look.eye.y, p.z - look.eye.z);
  if (dist > opts.maxDistanceM) return false;
  const at = project(look, lens, p);
  const lim = 1 - opts.margin;
  return !!at && Math.abs(at.x) <= lim && Math.abs(at.y) <= lim;
}

/**
 * Runs of frames in which a node is in view, as [first, last] frame times (seconds, inclusive):
 * the TourPoses `intervals`.
 */
export function intervalsOf(seen: readonly boolean[], fps: number): [number, number][] {
  const out: [number, number][] = [];
  let from = -1;
  for (let k = 0; k <= seen.length; k++) {
    if (k < seen.length && seen[k]) {
      if (from < 0) from = k;
      continue;
    }
    if (from >= 0) {
      out.push([round(from / fps), round((k - 1) / fps)]);
      from = -1;
    }
  }
  return out;
}

/** To six decimals (frame times to the microsecond, positions and angles alike): tidy in the JSON, exact enough to seek. */
export const round = (t: number): number => Math.round(t * 1e6) / 1e6;
