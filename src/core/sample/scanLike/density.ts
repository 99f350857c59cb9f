import type { Part } from './parts.ts';
import { between } from './random.ts';

/**
 * Density, as a reconstruction has it: every triangle cut into triangles whose longest side is at
 * most `edgeM` (3–10 cm for HM3D-like scans), their inner corners jittered within the surface so
 * they are not a regular grid. A triangle is cut into n² pieces, n from its longest side; an edge's
 * points are shared by the two triangles on it when both cut it alike (every edge inside one of the
 * house's quads), so the surface stays closed.
 */
export function densify(p: Part, edgeM: number, r: () => number): void {
  const pos = p.positions;
  const out: number[] = [];
  /** Edge (lower id first, n) → its inner points' ids, from the lower id's end. */
  const edges = new Map<string, number[]>();
  const add = (x: number, y: number, z: number) => {
    pos.push(x, y, z);
    return pos.length / 3 - 1;
  };
  const edgePoints = (a: number, b: number, n: number): number[] => {
    const lo = Math.min(a, b),
      hi = Math.max(a, b);
    const key = `${lo},${hi},${n}`;
    let pts = edges.get(key);
    if (!pts) {
      pts = [];
      for (let k = 1; k < n; k++) {
        const t = k / n;
        pts.push(
          add(
            pos[lo * 3]! + t * (pos[hi * 3]! - pos[lo * 3]!),
            pos[lo * 3 + 1]! + t * (pos[hi * 3 + 1]! - pos[lo * 3 + 1]!),
            pos[lo * 3 + 2]! + t * (pos[hi * 3 + 2]! - pos[lo * 3 + 2]!),
          ),
        );
      }
      edges.set(key, pts);
    }
    return a === lo ? pts : [...pts].reverse();
  };
  const len = (a: number, b: number) => Math.hypot(pos[a * 3]! - pos[b * 3]!, pos[a * 3 + 1]! - pos[b * 3 + 1]!, pos[a * 3 + 2]! - pos[b * 3 + 2]!);
  const triangles = p.indices.length / 3;
  for (let t = 0; t < triangles; t++) {
    const a = p.indices[t * 3]!,
      b = p.indices[t * 3 + 1]!,
      c = p.indices[t * 3 + 2]!;
    const n = Math.max(1, Math.ceil(Math.max(len(a, b), len(b, c), len(c, a)) / edgeM - 1e-9));
    if (n === 1) {
      out.push(a, b, c);
      continue;
    }
    // Grid point (i, j), i + j ≤ n: a + i/n·(b − a) + j/n·(c − a).
    const ab = edgePoints(a, b, n),
      bc = edgePoints(b, c, n),
      ca = edgePoints(c, a, n);
    const id = new Int32Array((n + 1) * (n + 1));
    const at = (i: number, j: number) => i * (n + 1) + j;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; i + j <= n; j++) {
        let v: number;
        if (i === 0 && j === 0) v = a;
        else if (i === n) v = b;
        else if (j === n) v = c;
        else if (j === 0) v = ab[i - 1]!;
        else if (i + j === n) v = bc[j - 1]!;
        else if (i === 0) v = ca[n - j - 1]!;
        else {
          // Inside: jittered by up to a fifth of a step along both sides, so pieces are irregular.
          const u = (i + between(r, -0.2, 0.2)) / n,
            w = (j + between(r, -0.2, 0.2)) / n;
          v = add(
            pos[a * 3]! + u * (pos[b * 3]! - pos[a * 3]!) + w * (pos[c * 3]! - pos[a * 3]!),
            pos[a * 3 + 1]! + u * (pos[b * 3 + 1]! - pos[a * 3 + 1]!) + w * (pos[c * 3 + 1]! - pos[a * 3 + 1]!),
            pos[a * 3 + 2]! + u * (pos[b * 3 + 2]! - pos[a * 3 + 2]!) + w * (pos[c * 3 + 2]! - pos[a * 3 + 2]!),
          );
        }
        id[at(i, j)] = v;
      }
    }
    for (let i = 0; i < n; i++) {
      for (let j = 0; i + j < n; j++) {
        out.push(id[at(i, j)]!, id[at(i + 1, j)]!, id[at(i, j + 1)]!);
        if (i + j + 1 < n) out.push(id[at(i + 1, j)]!, id[at(i + 1, j + 1)]!, id[at(i, j + 1)]!);
      }
    }
  }
  p.indices = out;
}
