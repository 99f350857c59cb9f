import { Matrix4 } from 'three';
import type { Surface } from '../rays/surface.ts';
import { surfaceFromTriangles } from './world.ts';

type V3 = readonly [number, number, number];

/**
 * Small collision worlds from boxes and quads (metres, Y up): synthetic rooms for tests, benches
 * and previews where the exact answer is known by construction.
 */
export class ShapeBuilder {
  private readonly positions: number[] = [];
  private readonly index: number[] = [];

  /** A quad a–b–c–d (two triangles), optionally split into n × n cells like a scan's fine tessellation. */
  quad(a: V3, b: V3, c: V3, d: V3, n = 1): this {
    const base = this.positions.length / 3;
    for (let j = 0; j <= n; j++) {
      for (let i = 0; i <= n; i++) {
        const s = i / n,
          t = j / n;
        for (let k = 0; k < 3; k++) {
          // Bilinear between the corners: a (0,0), b (1,0), c (1,1), d (0,1).
          this.positions.push((1 - s) * (1 - t) * a[k]! + s * (1 - t) * b[k]! + s * t * c[k]! + (1 - s) * t * d[k]!);
        }
      }
    }
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const p = base + j * (n + 1) + i,
          q = p + 1,
          r = q + n + 1,
          o = p + n + 1;
        this.index.push(p, q, r, p, r, o);
      }
    }
    return this;
  }

  /** A closed axis-aligned box, faces wound to face out. */
  box(min: V3, max: V3): this {
    const [x0, y0, z0] = min,
      [x1, y1, z1] = max;
    this.quad([x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]); // top
    this.quad([x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]); // bottom
    this.quad([x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]); // −z
    this.quad([x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]); // +z
    this.quad([x0, y0, z0], [x0, y0, z1], [x0, y1, z1], [x0, y1, z0]); // −x
    this.quad([x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]); // +x
    return this;
  }

  /** A level floor at height y over [x0, x1] × [z0, z1]. */
  floor(x0: number, x1: number, z0: number, z1: number, y = 0, cells = 1): this {
    return this.quad([x0, y, z0], [x0, y, z1], [x1, y, z1], [x1, y, z0], cells);
  }

  get triangles(): number {
    return this.index.length / 3;
  }

  /** The shapes as a Surface with its BVH; `frame` maps these coordinates to the world. */
  build(frame = new Matrix4()): Surface {
    return surfaceFromTriangles(new Float32Array(this.positions), new Uint32Array(this.index), frame);
  }
}
