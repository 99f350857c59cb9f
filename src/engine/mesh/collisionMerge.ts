import { InstancedMesh, Matrix4, Mesh, type BufferAttribute, type InterleavedBufferAttribute, type Object3D } from 'three';
import { MeshLoadError } from './errors.ts';

/**
 * Every triangle of every mesh under `root`, in `root`'s frame (node and instance transforms baked
 * in), as one position array and one index. Lines and points do not collide and are left out.
 * Mirroring transforms flip winding, so their triangles are re-wound to keep "up" facing up.
 */
export function mergeTriangles(root: Object3D, file: string): { positions: Float32Array; index: Uint32Array } {
  root.updateMatrixWorld(true);
  const toRoot = root.matrixWorld.clone().invert();
  const pieces: { mesh: Mesh; matrix: Matrix4; first: number; count: number }[] = [];
  let vertexTotal = 0;
  let indexTotal = 0;

  root.traverse((o) => {
    if (!(o instanceof Mesh)) return;
    const position = o.geometry.getAttribute('position') as BufferAttribute | InterleavedBufferAttribute | undefined;
    if (!position) return;
    const { first, count } = drawn(o);
    if (count < 3) return;
    const base = new Matrix4().multiplyMatrices(toRoot, o.matrixWorld);
    const instances = o instanceof InstancedMesh ? o.count : 1;
    for (let i = 0; i < instances; i++) {
      const matrix = base.clone();
      if (o instanceof InstancedMesh) {
        const m = new Matrix4();
        o.getMatrixAt(i, m);
        matrix.multiply(m);
      }
      pieces.push({ mesh: o, matrix, first, count });
      vertexTotal += position.count;
      indexTotal += count - (count % 3);
    }
  });

  const positions = new Float32Array(vertexTotal * 3);
  const index = new Uint32Array(indexTotal);
  let vOffset = 0;
  let iOffset = 0;
  for (const { mesh, matrix, first, count } of pieces) {
    const position = mesh.geometry.getAttribute('position') as BufferAttribute | InterleavedBufferAttribute;
    writePositions(position, matrix, positions, vOffset);
    const src = mesh.geometry.getIndex();
    const flip = matrix.determinant() < 0;
    const usable = count - (count % 3);
    for (let k = 0; k < usable; k++) {
      const corner = flip ? k - (k % 3) + REWIND[k % 3]! : k;
      const v = src ? src.getX(first + corner) : first + corner;
      if (!(v >= 0 && v < position.count)) {
        throw new MeshLoadError(file, `mesh '${mesh.name || 'unnamed'}' refers to vertex ${v}, but it has only ${position.count} vertices`);
      }
      index[iOffset + k] = v + vOffset;
    }
    vOffset += position.count;
    iOffset += usable;
  }
  return { positions, index };
}

const REWIND = [0, 2, 1];

/** The index (or vertex) range a mesh draws: its draw range, clipped to what exists. */
function drawn(mesh: Mesh): { first: number; count: number } {
  const g = mesh.geometry;
  const available = g.getIndex()?.count ?? g.getAttribute('position').count;
  const first = Math.max(0, g.drawRange.start);
  return { first, count: Math.max(0, Math.min(available - first, g.drawRange.count)) };
}

function writePositions(attr: BufferAttribute | InterleavedBufferAttribute, m: Matrix4, out: Float32Array, offset: number) {
  const e = m.elements;
  const plain = !('isInterleavedBufferAttribute' in attr) && attr.array instanceof Float32Array && !attr.normalized;
  const a = attr.array as Float32Array;
  for (let i = 0, o = offset * 3; i < attr.count; i++, o += 3) {
    // getX/Y/Z handle interleaved and quantized (normalized integer) positions from meshopt files.
    const x = plain ? a[i * 3]! : attr.getX(i);
    const y = plain ? a[i * 3 + 1]! : attr.getY(i);
    const z = plain ? a[i * 3 + 2]! : attr.getZ(i);
    out[o] = e[0]! * x + e[4]! * y + e[8]! * z + e[12]!;
    out[o + 1] = e[1]! * x + e[5]! * y + e[9]! * z + e[13]!;
    out[o + 2] = e[2]! * x + e[6]! * y + e[10]! * z + e[14]!;
  }
}
