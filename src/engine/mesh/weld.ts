/**
 * Merge vertices with bit-identical positions and drop vertices no triangle uses. Collision
 * geometry comes from many primitives and unindexed formats (OBJ stores every corner); welding
 * makes it compact and connected, which later navmesh and footprint queries rely on.
 * Exact matching (not a tolerance) keeps this a pure re-indexing: no triangle moves.
 */
export function weld(positions: Float32Array, index: Uint32Array): { positions: Float32Array; index: Uint32Array } {
  const vertexCount = Math.floor(positions.length / 3);
  // -0 and +0 have different bits but are the same point.
  for (let i = 0; i < positions.length; i++) if (positions[i] === 0) positions[i] = 0;
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, vertexCount * 3);

  let size = 1;
  while (size < vertexCount * 2) size <<= 1;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1); // slot → new vertex id
  const remap = new Int32Array(vertexCount).fill(-1); // old vertex id → new vertex id
  const out = new Float32Array(vertexCount * 3);
  let next = 0;

  const outIndex = new Uint32Array(index.length);
  for (let i = 0; i < index.length; i++) {
    const v = index[i]!;
    let id = remap[v]!;
    if (id < 0) {
      const x = bits[v * 3]!, y = bits[v * 3 + 1]!, z = bits[v * 3 + 2]!;
      let slot = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & mask;
      for (;;) {
        const found = table[slot]!;
        if (found < 0) {
          id = next++;
          table[slot] = id;
          out[id * 3] = positions[v * 3]!;
          out[id * 3 + 1] = positions[v * 3 + 1]!;
          out[id * 3 + 2] = positions[v * 3 + 2]!;
          break;
        }
        const o = found * 3;
        if (out[o] === positions[v * 3] && out[o + 1] === positions[v * 3 + 1] && out[o + 2] === positions[v * 3 + 2]) { id = found; break; }
        slot = (slot + 1) & mask;
      }
      remap[v] = id;
    }
    outIndex[i] = id;
  }
  return { positions: out.slice(0, next * 3), index: outIndex };
}
