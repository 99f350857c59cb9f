import { BufferAttribute, BufferGeometry } from 'three';

/** Vertex attribute arrays three.js can upload (Float64 is converted on the way out of a parser). */
export type AttributeArray = Float32Array | Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array;

/** A BufferGeometry as plain typed arrays, so it can cross a worker boundary by transfer. */
export interface GeometryBuffers {
  attributes: Record<string, { array: AttributeArray; itemSize: number; normalized: boolean }>;
  index: Uint32Array | Uint16Array | null;
  groups: { start: number; count: number; materialIndex: number }[];
}

export function toBuffers(geometry: BufferGeometry): GeometryBuffers {
  const attributes: GeometryBuffers['attributes'] = {};
  for (const [name, attr] of Object.entries(geometry.attributes)) {
    if (!(attr instanceof BufferAttribute)) continue; // parsers here never make interleaved data
    const src = attr.array;
    const array = src instanceof Float64Array ? new Float32Array(src) : (src as AttributeArray);
    attributes[name] = { array, itemSize: attr.itemSize, normalized: attr.normalized };
  }
  const idx = geometry.getIndex()?.array;
  const index = idx instanceof Uint32Array || idx instanceof Uint16Array ? idx : idx ? Uint32Array.from(idx) : null;
  const groups = geometry.groups.map((g) => ({ start: g.start, count: g.count, materialIndex: g.materialIndex ?? 0 }));
  return { attributes, index, groups };
}

export function fromBuffers(buffers: GeometryBuffers): BufferGeometry {
  const geometry = new BufferGeometry();
  for (const [name, a] of Object.entries(buffers.attributes)) geometry.setAttribute(name, new BufferAttribute(a.array, a.itemSize, a.normalized));
  if (buffers.index) geometry.setIndex(new BufferAttribute(buffers.index, 1));
  for (const g of buffers.groups) geometry.addGroup(g.start, g.count, g.materialIndex);
  return geometry;
}

/** The distinct ArrayBuffers behind `buffers` (a buffer listed twice makes postMessage throw). */
export function transferList(buffers: GeometryBuffers[]): ArrayBuffer[] {
  const set = new Set<ArrayBuffer>();
  for (const b of buffers) {
    for (const a of Object.values(b.attributes)) set.add(a.array.buffer as ArrayBuffer);
    if (b.index) set.add(b.index.buffer as ArrayBuffer);
  }
  return [...set];
}

export function triangleCount(buffers: GeometryBuffers): number {
  const position = buffers.attributes.position;
  if (buffers.index) return Math.floor(buffers.index.length / 3);
  return position ? Math.floor(position.array.length / position.itemSize / 3) : 0;
}
