import { DoubleSide, Matrix3, Matrix4, Ray, Vector3, type Material, type Mesh, type Side } from 'three';
import type { MeshBVH } from 'three-mesh-bvh';

export interface FloorHit {
  /** World position of the hit. */
  point: Vector3;
  /** World unit normal of the hit triangle, turned to face where the ray came from. */
  normal: Vector3;
  /** Triangle index in the collision geometry (BVH order, not the render mesh's). */
  faceIndex: number;
  /** World distance from the ray origin. */
  distance: number;
}

// Scratch objects: these run on every pointer move, so they allocate only the returned hit.
const toLocal = new Matrix4();
const localRay = new Ray();
const worldDir = new Vector3();
const linear = new Matrix3();
const DOWN = new Vector3(0, -1, 0);

/**
 * The first surface a world ray hits on the collision mesh (BVH first-hit query, the one
 * `raycaster.firstHitOnly` uses), or null. `frame` maps the collision mesh's frame to the world,
 * as on the wrapper group, so the mesh need not be in a scene graph. A few microseconds per call
 * on a million triangles.
 */
export function pickFloor(collision: Mesh, frame: Matrix4, rayOriginWorld: Vector3, rayDirWorld: Vector3, far = Infinity): FloorHit | null {
  return cast(collision, frame, rayOriginWorld, rayDirWorld, far);
}

/**
 * The surface straight below a world point within `maxDrop` (world units), or null: what an agent
 * standing there would stand on. A surface exactly at the point counts (distance 0).
 */
export function floorUnder(collision: Mesh, frame: Matrix4, pointWorld: Vector3, maxDrop: number): FloorHit | null {
  return cast(collision, frame, pointWorld, DOWN, maxDrop);
}

function cast(collision: Mesh, frame: Matrix4, origin: Vector3, dir: Vector3, far: number): FloorHit | null {
  const bvh = collision.geometry.boundsTree as unknown as MeshBVH | undefined;
  if (!bvh) return null;
  worldDir.copy(dir).normalize();
  toLocal.copy(frame).invert();
  localRay.origin.copy(origin).applyMatrix4(toLocal);
  // Before normalising, its length is how many local units one world unit spans along the ray.
  localRay.direction.copy(worldDir).applyMatrix3(linear.setFromMatrix4(toLocal));
  const stretch = localRay.direction.length();
  localRay.direction.divideScalar(stretch);
  const hit = bvh.raycastFirst(localRay, sideOf(collision.material), 0, far * stretch);
  if (!hit || hit.faceIndex == null) return null;
  const point = hit.point.clone().applyMatrix4(frame);
  const normal = (hit.face?.normal.clone() ?? new Vector3(0, 1, 0)).transformDirection(frame);
  if (normal.dot(worldDir) > 0) normal.negate();
  return { point, normal, faceIndex: hit.faceIndex, distance: hit.distance / stretch };
}

function sideOf(material: Material | Material[]): Side {
  return Array.isArray(material) ? DoubleSide : material.side;
}
