import type { BufferGeometry, Matrix4 } from 'three';
import type { MeshBVH } from 'three-mesh-bvh';
import type { LoadedMesh } from '../mesh/types.ts';

/**
 * What rays are cast at and shapes are swept through: triangles in a scan's own frame with their
 * three-mesh-bvh BVH, and the matrix from that frame to the world (Y up, metres). The frame is
 * shared, not copied, so changing a scan's up axis or unit scale in place moves every query with it.
 */
export interface Surface {
  /** Carries a three-mesh-bvh `boundsTree` (a MeshBVH). */
  geometry: BufferGeometry;
  frame: Matrix4;
}

/**
 * One surface of several queried together, flagged when it holds closed door leaves: the collider
 * blocks an agent that cannot open doors with them and must say a door stopped it, not a wall.
 */
export interface SurfaceLayer {
  surface: Surface;
  door: boolean;
}

/** A loaded scan as picking, measuring and the collider see it: its collision mesh under its frame. */
export function scanSurface(loaded: Pick<LoadedMesh, 'collision' | 'frame'>): Surface {
  return { geometry: loaded.collision.geometry, frame: loaded.frame };
}

/** The BVH of a surface, or null once the scan is disposed (typed as the 0.9 MeshBVH: drei pulls in a 0.8 one whose typing wins). */
export function bvhOrNull(surface: Surface): MeshBVH | null {
  return (surface.geometry.boundsTree as unknown as MeshBVH | undefined) ?? null;
}

/** The BVH of a surface a query cannot do without (the collider's and the planner's sweeps). */
export function bvhOf(surface: Surface): MeshBVH {
  const bvh = bvhOrNull(surface);
  if (!bvh) throw new Error('the surface has no boundsTree (build its MeshBVH first)');
  return bvh;
}
