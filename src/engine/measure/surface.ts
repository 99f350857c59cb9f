import { DoubleSide, Matrix4, Ray, Vector3, type BufferGeometry } from 'three';
import type { MeshBVH } from 'three-mesh-bvh';

/** A scan's collision geometry (mesh frame) with its BVH, and the matrix from mesh frame to world. */
export interface Surface {
  /** Carries a three-mesh-bvh `boundsTree` (a MeshBVH). */
  geometry: BufferGeometry;
  frame: Matrix4;
}

export interface SurfaceHit {
  point: Vector3; // world
  normal: Vector3; // world, unit
  distance: number; // world units along the ray
}

const inv = new Matrix4();
const localRay = new Ray();
const normalMatrix = new Matrix4();

/**
 * The nearest surface hit along a world ray that lies at or below `maxY` (so a slice hides the
 * ceilings and upper floors from picking as it hides them from view). Null when nothing is hit.
 */
export function raycastSurface(surface: Surface, origin: Vector3, dir: Vector3, maxY = Infinity, far = Infinity): SurfaceHit | null {
  const bvh = surface.geometry.boundsTree as MeshBVH | undefined;
  if (!bvh) return null;
  inv.copy(surface.frame).invert();
  localRay.origin.copy(origin).applyMatrix4(inv);
  localRay.direction.copy(dir).transformDirection(inv);
  // Uniform scale: local distance × scale = world distance.
  const scale = new Vector3().setFromMatrixScale(surface.frame).x;
  let best: SurfaceHit | null = null;
  const hits = Number.isFinite(maxY) ? bvh.raycast(localRay, DoubleSide, 0, far / scale) : [bvh.raycastFirst(localRay, DoubleSide, 0, far / scale)].filter((h) => h !== null);
  for (const h of hits) {
    const point = h.point.clone().applyMatrix4(surface.frame);
    if (point.y > maxY + 1e-6) continue;
    const distance = h.distance * scale;
    if (best && distance >= best.distance) continue;
    normalMatrix.copy(surface.frame);
    const normal = (h.face?.normal.clone() ?? new Vector3(0, 1, 0)).transformDirection(normalMatrix);
    if (normal.dot(dir) > 0) normal.negate();
    best = { point, normal, distance };
  }
  return best;
}

const DOWN = new Vector3(0, -1, 0);

/** The floor under a world point: the first surface straight below it within `maxDrop`. */
export function floorBelow(surface: Surface, point: Vector3, maxDrop = 3): SurfaceHit | null {
  return raycastSurface(surface, point, DOWN, point.y, maxDrop);
}
