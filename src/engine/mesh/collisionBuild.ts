import { BufferAttribute, BufferGeometry, Matrix4 } from 'three';
import { MeshBVH, type SerializedBVH } from 'three-mesh-bvh';
import { measureFacing, type Facing } from './facing.ts';
import { detectFloorLevels } from './floors.ts';
import { levelAreas, type LevelAreas } from './upAxis.ts';
import type { Handler } from './workerProtocol.ts';
import { dropRepeatedTriangles, weld } from './weld.ts';

export interface CollisionRequest {
  /** Merged triangle soup in the mesh frame (node transforms already applied). */
  positions: Float32Array;
  index: Uint32Array;
  /** Mesh frame → world, as `Matrix4.elements`, for floor detection. */
  frame: number[];
}

export interface CollisionResult {
  positions: Float32Array;
  /** Reordered by the BVH build: triangle order follows the tree. */
  index: Uint32Array;
  /** `MeshBVH.serialize` roots; the index above is the serialized index. */
  roots: ArrayBuffer[];
  floors: number[];
  facing: Facing;
  /** Level area across each axis of the mesh's own frame: which way is up (upAxis.ts). */
  levels: LevelAreas;
}

/**
 * Weld (dropping triangles that repeat another), build the BVH, find the floors and which way the surfaces face: the collision work that runs in the BVH worker (or on the
 * page when there is none). The default CENTER split builds ~4× faster than SAH, which matters more
 * on a load than SAH's slightly faster queries.
 */
export const buildCollision: Handler<CollisionRequest, CollisionResult> = (req, progress) => {
  const welded = weld(req.positions, req.index);
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(welded.positions, 3));
  geometry.setIndex(new BufferAttribute(dropRepeatedTriangles(welded.index), 1));
  const bvh = new MeshBVH(geometry, { onProgress: progress });
  const serialized = MeshBVH.serialize(bvh, { cloneBuffers: false });
  const index = serialized.index as Uint32Array;
  const frame = new Matrix4().fromArray(req.frame);
  const floors = detectFloorLevels(welded.positions, index, frame);
  return {
    result: {
      positions: welded.positions,
      index,
      roots: serialized.roots,
      floors,
      facing: measureFacing(welded.positions, index, frame),
      levels: levelAreas(welded.positions, index),
    },
    transfer: [welded.positions.buffer, index.buffer, ...serialized.roots],
  };
};

/** Rebuild the geometry and its BVH from a `buildCollision` result without rebuilding the tree. */
export function collisionGeometry(result: CollisionResult): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(result.positions, 3));
  geometry.setIndex(new BufferAttribute(result.index, 1));
  // version 1 is the node layout serialize() writes; without it deserialize "fixes up" the roots.
  const data = { version: 1, roots: result.roots, index: result.index, indirectBuffer: null } as SerializedBVH;
  const bvh = MeshBVH.deserialize(data, geometry, { setIndex: true });
  // drei brings its own three-mesh-bvh 0.8 whose `boundsTree` typing wins the module augmentation.
  geometry.boundsTree = bvh as unknown as NonNullable<BufferGeometry['boundsTree']>;
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  return geometry;
}
