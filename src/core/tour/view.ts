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

/** The camera's frame: forward, right (horizontal: no roll) and up (completing the frame). */
function axesOf(look: CameraLook): { f: P3; r: P3; u: P3 } {
  const f = forwardOf(look.yawRad, look.pitchRad);
  const r = { x: Math.cos(look.yawRad), y: 0, z: -Math.sin(look.yawRad) };
  const u = { x: r.y * f.z - r.z * f.y, y: r.z * f.x - r.x * f.z, z: r.x * f.y - r.y * f.x };
  return { f, r, u };
}

/** Half the picture's height and width at distance 1 along the view. */
function halfExtents(lens: Lens): { tanH: number; tanV: number } {
  const tanV = Math.tan((lens.fovDeg * Math.PI) / 360);
  return { tanH: tanV * lens.aspect, tanV };
}

/**
 * Where a point lands in the picture: x and y from −1 to 1 (left to right, bottom to top) and its
 * depth along the view, or null when it is behind the camera.
 */
export function project(look: CameraLook, lens: Lens, p: P3): { x: number; y: number; depth: number } | null {
  const { f, r, u } = axesOf(look);
  const v = { x: p.x - look.eye.x, y: p.y - look.eye.y, z: p.z - look.eye.z };
  const depth = v.x * f.x + v.y * f.y + v.z * f.z;
  if (depth <= 1e-6) return null;
  const { tanH, tanV } = halfExtents(lens);
  return { x: (v.x * r.x + v.y * r.y + v.z * r.z) / depth / tanH, y: (v.x * u.x + v.y * u.y + v.z * u.z) / depth / tanV, depth };
}

/**
 * The ray through a point of the picture (x, y from −1 to 1 as `project` gives them): its unit
 * direction, and how much of a unit step along it goes along the view (a hit `d` along the ray is
 * `d * along` deep). `project` of any point on it gives (x, y) back.
 */
export function viewRay(look: CameraLook, lens: Lens, x: number, y: number): { dir: P3; along: number } {
  const { f, r, u } = axesOf(look);
  const { tanH, tanV } = halfExtents(lens);
  const a = x * tanH,
    b = y * tanV;
  const d = { x: f.x + a * r.x + b * u.x, y: f.y + a * r.y + b * u.y, z: f.z + a * r.z + b * u.z };
  const n = Math.hypot(d.x, d.y, d.z);
  return { dir: { x: d.x / n, y: d.y / n, z: d.z / n }, along: 1 / n };
}

/** A pixel's centre (column, row from the top-left, of a width × height picture) as `project`'s x, y. */
export const pixelCentre = (col: number, row: number, width: number, height: number): { x: number; y: number } => ({
  x: ((col + 0.5) / width) * 2 - 1,
  y: 1 - ((row + 0.5) / height) * 2,
});

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
