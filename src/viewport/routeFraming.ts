import { Vector3 } from 'three';

/** How much of the view's width or height the route should span once framed. */
export const ROUTE_FILL = 0.75;
/** Room kept around each node (its marker and label) so the route is never cut at the edge. */
const PAD = 0.25;

/**
 * A perspective camera that shows `points` (a route's nodes, world coordinates) as large as the
 * view allows: seen from 55° above the horizon, from the side of the route's main horizontal
 * direction (so the route runs across the view, not into it), as close as keeps every point
 * within `fill` of the view's half-width and half-height.
 */
export function fitPerspective(
  points: readonly Vector3[],
  aspect: number,
  fovDeg: number,
  fill = ROUTE_FILL,
  elevationDeg = 55,
): { position: Vector3; target: Vector3 } {
  const min = new Vector3(Infinity, Infinity, Infinity),
    max = new Vector3(-Infinity, -Infinity, -Infinity);
  for (const p of points) {
    min.min(p);
    max.max(p);
  }
  const target = points.length ? min.clone().add(max).multiplyScalar(0.5) : new Vector3();
  const across = mainDirection(points, target);
  // Look from the side of the route: the horizontal part of the view direction is perpendicular to it.
  const side = new Vector3(-across.z, 0, across.x);
  const el = (elevationDeg * Math.PI) / 180;
  const forward = side
    .clone()
    .multiplyScalar(Math.cos(el))
    .add(new Vector3(0, -Math.sin(el), 0))
    .normalize();
  const right = forward
    .clone()
    .cross(new Vector3(0, 1, 0))
    .normalize();
  const up = right.clone().cross(forward).normalize();
  const tanV = Math.tan((fovDeg * Math.PI) / 360),
    tanH = tanV * Math.max(0.1, aspect);
  let distance = 1.5;
  const corner = new Vector3();
  for (const p of points) {
    for (const dx of [-PAD, PAD])
      for (const dy of [0, PAD])
        for (const dz of [-PAD, PAD]) {
          corner.set(p.x + dx, p.y + dy, p.z + dz).sub(target);
          const depth = corner.dot(forward);
          distance = Math.max(distance, Math.abs(corner.dot(right)) / (fill * tanH) - depth, Math.abs(corner.dot(up)) / (fill * tanV) - depth);
        }
  }
  return { position: target.clone().addScaledVector(forward, -distance), target };
}

/** Zoom of a top-down orthographic camera (pixels per metre) that fits the points within `fill` of a view of `width`×`height` pixels. */
export function fitTopZoom(points: readonly Vector3[], width: number, height: number, fill = ROUTE_FILL): { center: Vector3; zoom: number } {
  const min = new Vector3(Infinity, Infinity, Infinity),
    max = new Vector3(-Infinity, -Infinity, -Infinity);
  for (const p of points) {
    min.min(p);
    max.max(p);
  }
  const center = points.length ? min.clone().add(max).multiplyScalar(0.5) : new Vector3();
  const spanX = Math.max(max.x - min.x + 2 * PAD, 1),
    spanZ = Math.max(max.z - min.z + 2 * PAD, 1);
  return { center, zoom: Math.min((fill * width) / spanX, (fill * height) / spanZ) };
}

/** The route's main horizontal direction (principal axis of its nodes on the floor plan); x when it has none. */
function mainDirection(points: readonly Vector3[], c: Vector3): Vector3 {
  let xx = 0,
    xz = 0,
    zz = 0;
  for (const p of points) {
    const dx = p.x - c.x,
      dz = p.z - c.z;
    xx += dx * dx;
    xz += dx * dz;
    zz += dz * dz;
  }
  if (xx + zz < 1e-6) return new Vector3(1, 0, 0);
  const angle = 0.5 * Math.atan2(2 * xz, xx - zz);
  return new Vector3(Math.cos(angle), 0, Math.sin(angle));
}
