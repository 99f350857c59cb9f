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
      const x = bits[v * 3]!,
        y = bits[v * 3 + 1]!,
        z = bits[v * 3 + 2]!;
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
        if (out[o] === positions[v * 3] && out[o + 1] === positions[v * 3 + 1] && out[o + 2] === positions[v * 3 + 2]) {
          id = found;
          break;
        }
        slot = (slot + 1) & mask;
      }
      remap[v] = id;
    }
    outIndex[i] = id;
  }
  return { positions: out.slice(0, next * 3), index: outIndex };
}

/**
 * Drop the triangles that add no surface after welding: a corner repeated (`f 1 1 2`) and a
 * triangle over the same three vertices as one before it, either way round. One OBJ face listing
 * four corners 30,000 times over becomes 120,000 copies of one triangle, and every collision query
 * near it then tests them all (issue 25 §7: `drive` ran until killed); scans stacked in duplicate
 * layers hold them too. Keeps the first of each, in order.
 */
export function dropRepeatedTriangles(index: Uint32Array): Uint32Array {
  const triangles = Math.floor(index.length / 3);
  let size = 1;
  while (size < triangles * 2) size <<= 1;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1); // slot → kept triangle (as its sorted corners' first index in `sorted`)
  const sorted = new Uint32Array(triangles * 3);
  const out = new Uint32Array(index.length);
  let kept = 0;
  for (let t = 0; t < triangles; t++) {
    let a = index[t * 3]!,
      b = index[t * 3 + 1]!,
      c = index[t * 3 + 2]!;
    if (a === b || b === c || a === c) continue;
    if (a > b) [a, b] = [b, a];
    if (b > c) [b, c] = [c, b];
    if (a > b) [a, b] = [b, a];
    let slot = (Math.imul(a, 73856093) ^ Math.imul(b, 19349663) ^ Math.imul(c, 83492791)) & mask;
    let seen = false;
    for (;;) {
      const found = table[slot]!;
      if (found < 0) break;
      if (sorted[found * 3] === a && sorted[found * 3 + 1] === b && sorted[found * 3 + 2] === c) {
        seen = true;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (seen) continue;
    table[slot] = kept;
    sorted[kept * 3] = a;
    sorted[kept * 3 + 1] = b;
    sorted[kept * 3 + 2] = c;
    out[kept * 3] = index[t * 3]!;
    out[kept * 3 + 1] = index[t * 3 + 1]!;
    out[kept * 3 + 2] = index[t * 3 + 2]!;
    kept++;
  }
  return kept === triangles ? index : out.slice(0, kept * 3);
}
