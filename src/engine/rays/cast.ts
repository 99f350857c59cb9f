import { DoubleSide, FrontSide, Ray, Vector3, type Intersection } from 'three';
import { frameView, type FrameView } from './frames.ts';
import { bvhOrNull, type Surface, type SurfaceLayer } from './surface.ts';

/**
 * The one ray caster: picking, measuring, the collider, the suggestion probes and the planner's
 * readouts all ask it for the first surface along a world ray. Rays are cast into each surface's
 * own frame with three-mesh-bvh's first-hit query, both sides of every triangle (scans are not
 * closed, and a ray from inside a solid must still meet it), and everything comes back in world
 * units whatever the frame's rotation and scale.
 *
 * `dir` is a unit vector in the world. The hot loops pass their own `out` hit and get it back
 * filled: then nothing is allocated here (the BVH query itself still is).
 */

export interface RayHit {
  /** World distance from the ray's origin. */
  distance: number;
  /** World point. */
  point: Vector3;
  /** World unit normal of the triangle, turned towards where the ray came from. */
  normal: Vector3;
  /**
   * Whether the ray met the triangle's front (its winding faces the ray): a ray up that meets a
   * front is under a ceiling, one that meets a back started inside a solid.
   */
  front: boolean;
  /** The triangle's index in the surface's geometry (BVH order, not a render mesh's); -1 when unknown. */
  faceIndex: number;
  /** Whether the surface hit is a door layer (see SurfaceLayer); false on a single surface. */
  door: boolean;
}

/** What a ray is cast at: one surface, several (with door flags), or nothing (a scan without doors). */
export type RayTarget = Surface | readonly SurfaceLayer[] | null;

export interface RayCut {
  /** Only what lies at or below this world height is hit: the slice hides the rest from picking as from view. */
  maxY?: number;
  /** Only triangles whose front faces the ray are hit, as three's FrontSide: backs are passed through. */
  frontOnly?: boolean;
}

/** A hit to fill again and again in a loop. */
export function newRayHit(): RayHit {
  return { distance: 0, point: new Vector3(), normal: new Vector3(), front: true, faceIndex: -1, door: false };
}

const NO_CUT: RayCut = {};
/** Hits this little above the slice still count: a floor exactly at the slice height stays pickable. */
const SLICE_TOLERANCE = 1e-6;

/**
 * The first hit of a world ray within `far` (world units) on `target`, or null. A surface exactly
 * at the origin counts (distance 0); a ray of no length hits nothing. `out`, when given, is filled
 * and returned; without it a new hit is.
 */
export function castRay(target: RayTarget, origin: Vector3, dir: Vector3, far = Infinity, out?: RayHit, cut: RayCut = NO_CUT): RayHit | null {
  if (!target || !span(origin, dir, far, cut)) return null;
  if (!isLayers(target)) return castOne(target, origin, dir, cut, out);
  best.hit = null;
  for (const layer of target) castFirst(layer.surface, layer.door, origin, dir, cut);
  if (!best.hit) return null;
  return toRayHit(best.hit, best.view!, best.stretch, best.door, best.front, dir, out ?? newRayHit());
}

/** One surface, the probes' and the pointer's case: straight to the first-hit query. */
function castOne(surface: Surface, origin: Vector3, dir: Vector3, cut: RayCut, out: RayHit | undefined): RayHit | null {
  const bvh = bvhOrNull(surface);
  if (!bvh) return null;
  const view = frameView(surface.frame);
  const stretch = toLocal(view, origin, dir);
  const h = bvh.raycastFirst(localRay, cut.frontOnly ? FrontSide : DoubleSide, near * stretch, limit * stretch);
  return h ? toRayHit(h, view, stretch, false, facesRay(h), dir, out ?? newRayHit()) : null;
}

/** Every hit of a world ray within `far` on `target`, nearest first (a new array and new hits). */
export function castRayAll(target: RayTarget, origin: Vector3, dir: Vector3, far = Infinity, cut: RayCut = NO_CUT): RayHit[] {
  if (!span(origin, dir, far, cut)) return [];
  const hits: RayHit[] = [];
  const each = (surface: Surface, door: boolean) => {
    const bvh = bvhOrNull(surface);
    if (!bvh) return;
    const view = frameView(surface.frame);
    const stretch = toLocal(view, origin, dir);
    for (const h of bvh.raycast(localRay, cut.frontOnly ? FrontSide : DoubleSide, near * stretch, limit * stretch)) {
      hits.push(toRayHit(h, view, stretch, door, facesRay(h), dir, newRayHit()));
    }
  };
  if (isLayers(target)) for (const layer of target) each(layer.surface, layer.door);
  else if (target) each(target, false);
  return hits.sort((a, b) => a.distance - b.distance);
}

const DOWN = new Vector3(0, -1, 0);

/**
 * The surface straight below a world point within `maxDrop` (world units), or null: what an agent
 * standing there stands on. A surface exactly at the point counts, so a point on a floor finds
 * that floor; the ray starts where it is told, so a caller that wants a floor under a ceiling
 * starts it under the ceiling.
 */
export function floorBelow(target: RayTarget, point: Vector3, maxDrop: number, out?: RayHit): RayHit | null {
  return castRay(target, point, DOWN, maxDrop, out);
}

// ---------------------------------------------------------------------------------------------
// One cast at a time (nothing here awaits), so the state of the cast in progress is kept here.

const localRay = new Ray();
/** The part of the ray that counts, in world units along it: [near, limit]. */
let near = 0;
let limit = Infinity;
const best: { hit: Intersection | null; view: FrameView | null; stretch: number; door: boolean; front: boolean } = {
  hit: null,
  view: null,
  stretch: 1,
  door: false,
  front: true,
};

const isLayers = (target: RayTarget): target is readonly SurfaceLayer[] => Array.isArray(target);

/** Set [near, limit] from `far` and the slice; false when nothing of the ray is left. */
function span(origin: Vector3, dir: Vector3, far: number, cut: RayCut): boolean {
  if (!(far > 0)) return false;
  near = 0;
  limit = far;
  if (cut.maxY !== undefined && cut.maxY < Infinity) {
    // A hit is at or below the slice exactly when its distance lies on the right side of where the
    // ray crosses it: cutting the ray there lets the first-hit query skip what the slice hides.
    const top = cut.maxY + SLICE_TOLERANCE;
    if (dir.y === 0) return origin.y <= top;
    const t = (top - origin.y) / dir.y;
    if (dir.y < 0) near = Math.max(near, t);
    else limit = Math.min(limit, t);
  }
  return limit >= near;
}

/** Cast into one surface, keeping its hit in `best` when it is nearer than the best so far. */
function castFirst(surface: Surface, door: boolean, origin: Vector3, dir: Vector3, cut: RayCut): void {
  const bvh = bvhOrNull(surface);
  if (!bvh) return;
  const view = frameView(surface.frame);
  const stretch = toLocal(view, origin, dir);
  const bestDistance = best.hit ? best.hit.distance / best.stretch : limit;
  const h = bvh.raycastFirst(localRay, cut.frontOnly ? FrontSide : DoubleSide, near * stretch, bestDistance * stretch);
  if (!h || (best.hit && h.distance / stretch >= bestDistance)) return;
  best.hit = h;
  best.view = view;
  best.stretch = stretch;
  best.door = door;
  best.front = facesRay(h);
}

/** Put the world ray into `localRay` in the surface's frame; returns mesh units per world unit along it. */
function toLocal(view: FrameView, origin: Vector3, dir: Vector3): number {
  localRay.origin.copy(origin);
  localRay.direction.copy(dir);
  if (view.identity) return 1;
  localRay.origin.applyMatrix4(view.toLocal);
  // Its length before normalising is how many mesh units one world unit spans (frames scale uniformly).
  localRay.direction.applyMatrix3(view.linear);
  const stretch = localRay.direction.length();
  localRay.direction.divideScalar(stretch);
  return stretch;
}

/** Whether a hit met its triangle's front, judged in the mesh frame where the winding is. */
const facesRay = (h: Intersection): boolean => !h.face || h.face.normal.dot(localRay.direction) < 0;

function toRayHit(h: Intersection, view: FrameView, stretch: number, door: boolean, front: boolean, dir: Vector3, out: RayHit): RayHit {
  out.distance = h.distance / stretch;
  out.point.copy(h.point);
  if (h.face) out.normal.copy(h.face.normal);
  else out.normal.set(0, 1, 0);
  if (!view.identity) {
    out.point.applyMatrix4(view.frame);
    out.normal.transformDirection(view.frame);
  }
  if (out.normal.dot(dir) > 0) out.normal.negate();
  out.front = front;
  out.faceIndex = h.faceIndex ?? -1;
  out.door = door;
  return out;
}
