/**
 * The exact squared Euclidean distance, in cells, from every cell centre of a grid to the nearest
 * marked cell centre (Felzenszwalb & Huttenlocher's separable transform: one pass down the
 * columns, one along the rows, each linear). Infinity where nothing is marked.
 */
export function squaredDistances(marked: Uint8Array, nx: number, nz: number): Float32Array {
  const out = new Float32Array(nx * nz);
  const n = Math.max(nx, nz);
  const f = new Float64Array(n),
    d = new Float64Array(n),
    z = new Float64Array(n + 1);
  const v = new Int32Array(n);
  // Columns: for marks the 1-D transform is the distance to the nearest marked cell of the column,
  // swept down and then up a row at a time (in memory order: a column at a time strides the grid).
  for (let i = 0; i < nx; i++) out[i] = marked[i] ? 0 : Infinity;
  for (let c = nx; c < nx * nz; c++) out[c] = marked[c] ? 0 : out[c - nx]! + 1;
  for (let c = nx * (nz - 1) - 1; c >= 0; c--) {
    const up = out[c + nx]! + 1;
    if (up < out[c]!) out[c] = up;
  }
  for (let c = 0; c < nx * nz; c++) out[c] = out[c]! * out[c]!;
  // Rows: combine with the columns' results.
  for (let j = 0; j < nz; j++) {
    for (let i = 0; i < nx; i++) f[i] = out[j * nx + i]!;
    transform1d(f, nx, d, v, z);
    for (let i = 0; i < nx; i++) out[j * nx + i] = d[i]!;
  }
  return out;
}

/** The lower envelope of parabolas (q − i)² + f(i): d(q) = min over i. */
function transform1d(f: Float64Array, n: number, d: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = -1;
  for (let q = 0; q < n; q++) {
    if (f[q] === Infinity) continue;
    if (k < 0) {
      k = 0;
      v[0] = q;
      z[0] = -Infinity;
      z[1] = Infinity;
      continue;
    }
    let s = (f[q]! + q * q - (f[v[k]!]! + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    while (s <= z[k]!) {
      k--;
      if (k < 0) break;
      s = (f[q]! + q * q - (f[v[k]!]! + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    }
    if (k < 0) {
      k = 0;
      v[0] = q;
      z[0] = -Infinity;
      z[1] = Infinity;
      continue;
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  if (k < 0) {
    d.fill(Infinity, 0, n);
    return;
  }
  let m = 0;
  for (let q = 0; q < n; q++) {
    while (z[m + 1]! < q) m++;
    const dq = q - v[m]!;
    d[q] = dq * dq + f[v[m]!]!;
  }
}
