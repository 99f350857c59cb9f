import { Box3, Vector3 } from 'three';
import type { AgentNavMesh } from '../navmesh.ts';
import { findRoute } from '../route.ts';

/**
 * Lifts. Between two lift lobbies the scan has no direct walkable route (the shaft is closed), so an
 * edge is a lift ride when there is no direct route and either the same lift part is near both nodes,
 * or the nodes are more than 1.5 m apart in height and less than 4 m apart on the plan (one above
 * the other: a lift in a scan that names nothing).
 */

const NEAR_PLAN_M = 3;
const STOREY_APART_M = 1.5;
const PLAN_CLOSE_M = 4;
/** How far into the cabin the approach carries on past the last navmesh point. */
const INTO_CABIN_M = 0.3;

/** The lift part within 3 m of a node on the plan and spanning its height, or null. */
export function liftNear(lifts: readonly Box3[], p: Vector3): Box3 | null {
  for (const box of lifts) {
    const dx = Math.max(box.min.x - p.x, 0, p.x - box.max.x),
      dz = Math.max(box.min.z - p.z, 0, p.z - box.max.z);
    if (Math.hypot(dx, dz) <= NEAR_PLAN_M && p.y >= box.min.y - 1 && p.y <= box.max.y + 1) return box;
  }
  return null;
}

/** Whether an edge without a direct route is a lift ride, and which lift part it uses. */
export function liftBetween(lifts: readonly Box3[], a: Vector3, b: Vector3): { box: Box3 | null } | null {
  const boxA = liftNear(lifts, a),
    boxB = liftNear(lifts, b);
  if (boxA && boxA === boxB) return { box: boxA };
  if (Math.abs(a.y - b.y) > STOREY_APART_M && Math.hypot(a.x - b.x, a.z - b.z) < PLAN_CLOSE_M) return { box: boxA ?? boxB };
  return null;
}

/**
 * The way from a node into the lift: the reference route to the walkable point nearest the cabin's
 * centre at the node's level (in front of, or in, the lift door), then straight on into the cabin,
 * whose floor is not walkable scan. `doorIndex` is the index of the last navmesh point.
 */
export function liftApproach(ref: AgentNavMesh, from: Vector3, box: Box3): { points: Vector3[]; doorIndex: number } | null {
  const c = box.getCenter(new Vector3()),
    size = box.getSize(new Vector3());
  if (!ref.query) return null;
  const r = ref.query.findClosestPoint(new Vector3(c.x, from.y, c.z), { halfExtents: { x: size.x / 2 + 1.5, y: 0.3, z: size.z / 2 + 1.5 } });
  if (!r.success || r.polyRef === 0) return null;
  const door = new Vector3(r.point.x, r.point.y, r.point.z);
  const route = findRoute(ref, from, door);
  if (!route.ok) return null;
  const toCentre = Math.hypot(c.x - door.x, c.z - door.z);
  const points = [...route.points];
  if (toCentre > 0.01) {
    const dir = new Vector3(c.x - door.x, 0, c.z - door.z).divideScalar(toCentre);
    let t = 0;
    const p = new Vector3();
    while (t < toCentre && !(p.set(door.x + dir.x * t, 0, door.z + dir.z * t), insidePlan(box, p))) t += 0.01;
    const end = Math.min(toCentre, t + INTO_CABIN_M);
    points.push(new Vector3(door.x + dir.x * end, door.y, door.z + dir.z * end));
  }
  return { points, doorIndex: route.points.length - 1 };
}

const insidePlan = (box: Box3, p: Vector3) => p.x >= box.min.x && p.x <= box.max.x && p.z >= box.min.z && p.z <= box.max.z;
