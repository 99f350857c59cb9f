import { Box3, BufferAttribute, BufferGeometry, Matrix4, Vector3 } from 'three';
import { MeshBVH, type SerializedBVH } from 'three-mesh-bvh';
import type { Surface } from '../rays/surface.ts';
import type { SceneGeometry } from './geometry.ts';

/**
 * A SceneGeometry as plain arrays, to send to a worker: positions, index and the serialized BVH of
 * each surface (so the worker does not build it again), lift boxes and the frame. Packing copies
 * (the page keeps using its own geometry); `transfer` lists the copies' buffers so posting moves them.
 */
export interface PackedSurface {
  positions: Float32Array;
  index: Uint32Array | Uint16Array;
  bvh: SerializedBVH;
  frame: number[];
}
export interface PackedGeometry {
  solid: PackedSurface;
  doors: PackedSurface | null;
  lifts: { min: [number, number, number]; max: [number, number, number] }[];
  liftParts: PackedSurface | null;
  frame: number[];
  named: boolean;
}

function packSurface(s: Surface, transfer: ArrayBufferLike[]): PackedSurface {
  const pos = s.geometry.getAttribute('position');
  const positions = new Float32Array(pos.count * 3);
  for (let i = 0; i < pos.count; i++) {
    positions[3 * i] = pos.getX(i);
    positions[3 * i + 1] = pos.getY(i);
    positions[3 * i + 2] = pos.getZ(i);
  }
  const bvh = s.geometry.boundsTree as unknown as MeshBVH | undefined;
  if (!bvh) throw new Error('the scan surface has no BVH');
  // The BVH reorders the geometry's index; its serialized copy carries that order.
  const serialized = MeshBVH.serialize(bvh, { cloneBuffers: true });
  if (!serialized.index) throw new Error('the scan surface has no index');
  const index = serialized.index as Uint32Array | Uint16Array;
  transfer.push(positions.buffer, ...serialized.roots, index.buffer);
  if (serialized.indirectBuffer) transfer.push(serialized.indirectBuffer.buffer);
  return { positions, index, bvh: serialized, frame: s.frame.toArray() };
}

function unpackSurface(p: PackedSurface): Surface {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(p.positions, 3));
  geometry.setIndex(new BufferAttribute(p.index, 1));
  geometry.boundsTree = MeshBVH.deserialize(p.bvh, geometry, { setIndex: true }) as unknown as NonNullable<BufferGeometry['boundsTree']>;
  geometry.computeBoundingBox();
  return { geometry, frame: new Matrix4().fromArray(p.frame) };
}

export function packGeometry(g: SceneGeometry): { packed: PackedGeometry; transfer: ArrayBufferLike[] } {
  const transfer: ArrayBufferLike[] = [];
  const packed: PackedGeometry = {
    solid: packSurface(g.solid, transfer),
    doors: g.doors ? packSurface(g.doors, transfer) : null,
    lifts: g.lifts.map((b) => ({ min: b.min.toArray() as [number, number, number], max: b.max.toArray() as [number, number, number] })),
    liftParts: g.liftParts ? packSurface(g.liftParts, transfer) : null,
    frame: g.frame.toArray(),
    named: g.named,
  };
  return { packed, transfer };
}

export function unpackGeometry(p: PackedGeometry): SceneGeometry {
  return {
    solid: unpackSurface(p.solid),
    doors: p.doors ? unpackSurface(p.doors) : null,
    lifts: p.lifts.map((b) => new Box3(new Vector3(...b.min), new Vector3(...b.max))),
    liftParts: p.liftParts ? unpackSurface(p.liftParts) : null,
    frame: new Matrix4().fromArray(p.frame),
    named: p.named,
  };
}
