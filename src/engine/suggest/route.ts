import { Vector3 } from 'three';
import type { AgentNavMesh } from './navmesh.ts';
import { castRay, floorBelow, newRayHit } from '../rays/cast.ts';
import type { Surface } from '../rays/surface.ts';

/**
 * Routes on a navmesh between two graph nodes, and the route resampled for the probes.
 */

/** Snap extents: tight, so a node never lands on a wall top or the storey above (platform notes). */
const SNAP_TIGHT = { x: 0.3, y: 0.3, z: 0.3 };
const SNAP_WIDE = { x: 1.0, y: 0.3, z: 1.0 };

/**
 * A route longer than this is a detour through other rooms, not the edge's own passage
 * (e.g. between two lift lobbies the only walkable route is down the hall and up the stairs).
 */
export function isDetour(lengthM: number, straightM: number): boolean {
  return lengthM > 2 * straightM + 3;
}

/** The floor under a graph node (nodes float some way above it in CapNav graphs), or the node itself. */
export function floorUnderNode(solid: Surface, p: Vector3): Vector3 {
  const y = floorBelow(solid, new Vector3(p.x, p.y + 0.1, p.z), 2.5)?.point.y;
  return y === undefined ? p.clone() : new Vector3(p.x, y, p.z);
}

/** The nearest navmesh point to a floor point, or null when none is close. */
export function snap(nav: AgentNavMesh, floor: Vector3): Vector3 | null {
  if (!nav.query) return null;
  for (const halfExtents of [SNAP_TIGHT, SNAP_WIDE]) {
    const r = nav.query.findClosestPoint(floor, { halfExtents });
    if (r.success && r.polyRef !== 0) return new Vector3(r.point.x, r.point.y, r.point.z);
  }
  return null;
}

export type RouteResult = { ok: true; points: Vector3[]; lengthM: number } | { ok: false; why: string };

/** Plan length of a polyline. */
export function planLength(points: readonly Vector3[]): number {
  let n = 0;
  for (let i = 1; i < points.length; i++) n += Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.z - points[i - 1]!.z);
  return n;
}

/**
 * A complete route between two floor points. `computePath` reports success for a partial path (to
 * the reachable point nearest the target), so the last corner must reach the target.
 */
export function findRoute(nav: AgentNavMesh, fromFloor: Vector3, toFloor: Vector3, names = ['the first node', 'the second node']): RouteResult {
  if (!nav.query) return { ok: false, why: 'the agent fits nowhere in the scan' };
  const start = snap(nav, fromFloor);
  if (!start) return { ok: false, why: `${names[0]} is not on walkable floor` };
  const end = snap(nav, toFloor);
  if (!end) return { ok: false, why: `${names[1]} is not on walkable floor` };
  const r = nav.query.computePath(start, end, { halfExtents: { x: 0.05, y: 0.3, z: 0.05 }, maxPathPolys: 4096, maxStraightPathPoints: 2048 });
  if (!r.success || r.path.length === 0) return { ok: false, why: 'no walkable route' };
  const points = r.path.map((p) => new Vector3(p.x, p.y, p.z));
  const last = points[points.length - 1]!;
  if (Math.hypot(last.x - end.x, last.z - end.z) > 0.05 || Math.abs(last.y - end.y) > 0.3)
    return { ok: false, why: 'no walkable route (only part of the way)' };
  return { ok: true, points, lengthM: planLength(points) };
}

/** Points along a polyline every `step` metres on the plan (both ends included), with their distance. */
export function resample(points: readonly Vector3[], step: number): { p: Vector3; s: number; heading: Vector3 }[] {
  const out: { p: Vector3; s: number; heading: Vector3 }[] = [];
  const total = planLength(points);
  const n = Math.max(1, Math.round(total / step));
  let seg = 0,
    segStart = 0;
  for (let k = 0; k <= n; k++) {
    const s = (k / n) * total;
    while (seg < points.length - 2 && segStart + segLen(points, seg) < s) {
      segStart += segLen(points, seg);
      seg++;
    }
    const a = points[seg]!,
      b = points[Math.min(seg + 1, points.length - 1)]!;
    const len = segLen(points, seg);
    const t = len > 0 ? Math.min(1, Math.max(0, (s - segStart) / len)) : 0;
    const heading = new Vector3(b.x - a.x, 0, b.z - a.z);
    if (heading.lengthSq() > 0) heading.normalize();
    else heading.set(1, 0, 0);
    out.push({ p: a.clone().lerp(b, t), s, heading });
  }
  return out;
}

function segLen(points: readonly Vector3[], i: number): number {
  const a = points[i]!,
    b = points[Math.min(i + 1, points.length - 1)]!;
  return Math.hypot(b.x - a.x, b.z - a.z);
}

/** How far above the last floor height the next floor ray starts: above any step the reference climbs. */
const FOLLOW_ABOVE_M = 0.45;

/** Rays looking for a ceiling start this far above the floor. */
const CEILING_FROM_M = 0.005;
const UP = new Vector3(0, 1, 0);

/**
 * The floor under each point, following the floor from point to point: each ray starts a little
 * above the previous floor, so stairs up and down are both found — or, under a ceiling lower than
 * that (a crawl space), just below the ceiling, which would otherwise be taken for the floor. A
 * ceiling is a surface a ray up meets from the front; inside a step's solid it meets the tread's
 * back, and the step is found from above as before. Where a ray finds nothing the previous height
 * is kept.
 */
export function floorProfile(solid: Surface, points: readonly Vector3[]): number[] {
  const out: number[] = [];
  let prev: number | null = null;
  const at = new Vector3(),
    hit = newRayHit();
  /** How far above `base` the ray down starts: FOLLOW_ABOVE_M, or half-way up to a lower ceiling. */
  const startAbove = (x: number, base: number, z: number): number => {
    const ceiling = castRay(solid, at.set(x, base + CEILING_FROM_M, z), UP, FOLLOW_ABOVE_M, hit);
    return ceiling?.front ? CEILING_FROM_M + ceiling.distance / 2 : FOLLOW_ABOVE_M;
  };
  const floorAt = (x: number, y: number, z: number, maxDrop: number): number | null => floorBelow(solid, at.set(x, y, z), maxDrop, hit)?.point.y ?? null;
  for (const p of points) {
    let y: number | null = null;
    if (prev !== null) {
      const up = startAbove(p.x, prev, p.z);
      y = floorAt(p.x, prev + up, p.z, up + 1);
    }
    if (y === null) {
      const up = startAbove(p.x, p.y, p.z);
      y = floorAt(p.x, p.y + up, p.z, up + 2);
    }
    y ??= prev ?? p.y;
    out.push(y);
    prev = y;
  }
  return out;
}
