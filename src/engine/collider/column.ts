import { Box3, Matrix4, Vector3, type BufferAttribute } from 'three';
import { bvhOf, type SurfaceLayer } from '../rays/surface.ts';
import { PolygonClipper } from './clip.ts';
import { TOUCH_M, type Footprint } from './footprint.ts';

/**
 * The steepest triangle an agent can stand on. Steeper ones (walls, the sides of a sill, risers)
 * are never support: in a finely tessellated scan a wall's lowest row of triangles would otherwise
 * count as a floor at the row's top edge.
 */
export const MAX_SUPPORT_SLOPE_DEG = 60;
const MIN_SUPPORT_NORMAL_Y = Math.cos((MAX_SUPPORT_SLOPE_DEG * Math.PI) / 180);

/**
 * Every triangle inside the footprint's column — the footprint's outline at its true yaw,
 * extruded from `yMin` to `yMax` — found with one three-mesh-bvh shapecast per surface and
 * clipped to the outline. What is kept per triangle: the triangle in agent-local coordinates
 * (u left, y up, v forward, origin on the agent's axis at y = 0) and the lowest and highest
 * height of its part inside the column. Support, rises and obstacles are all decided from these
 * ranges (body.ts), so a sill the footprint overlaps by a millimetre is seen — rays cast down at
 * sample points would miss it.
 *
 * The tree is culled with the column's axis-aligned bounds and then, for a column turned off the
 * mesh's axes, with the node's bounds seen from the agent (their centre and extents along its three
 * axes against the column's box: three of the separating axes, a few multiplications a node). On
 * a reconstruction's small dense triangles that halves an obstacle test (50 → 25 µs over the 41,000
 * collider calls of the scan-like L-corner's two hardest drives); on the sample house's few large
 * triangles it costs a step ~30 µs (a full separating-axis test per node cost more than it saved).
 */
export class ColumnScan {
  count = 0;
  /** 9 numbers per triangle: its corners in agent-local (u, y, v). */
  tri = new Float64Array(9 * 256);
  lo = new Float64Array(256);
  hi = new Float64Array(256);
  door = new Uint8Array(256);
  /** 1 when the triangle is flat enough to stand on (within MAX_SUPPORT_SLOPE_DEG of level). */
  flat = new Uint8Array(256);
  /** Agent-local plan position of the triangle's highest point inside the column. */
  topU = new Float64Array(256);
  topV = new Float64Array(256);

  readonly clipper = new PolygonClipper();
  private readonly agent = new Matrix4();
  private readonly toAgent = new Matrix4();
  private readonly toMesh = new Matrix4();
  private readonly bounds = new Box3();
  private readonly corner = new Vector3();

  /**
   * Collect the triangles of `surfaces` inside the column of `fp` standing at (x, z) facing `yaw`;
   * with `stop`, only until a kept triangle satisfies it (then the last kept one is that triangle).
   */
  run(surfaces: readonly SurfaceLayer[], fp: Footprint, x: number, z: number, yaw: number, yMin: number, yMax: number, stop?: (i: number) => boolean): this {
    this.count = 0;
    let stopped = false;
    // Agent frame → world: a turn about +Y by yaw (local +Z forward, local +X left), then (x, 0, z).
    this.agent.makeRotationY(yaw).setPosition(x, 0, z);
    const hu = fp.halfWidthM - TOUCH_M,
      hv = fp.halfDepthM - TOUCH_M;
    for (const { surface, door } of surfaces) {
      this.toAgent.copy(this.agent).invert().multiply(surface.frame); // mesh frame → agent frame
      this.toMesh.copy(surface.frame).invert().multiply(this.agent); // agent frame → mesh frame
      this.bounds.makeEmpty();
      for (let k = 0; k < 8; k++) {
        this.bounds.expandByPoint(this.corner.set(k & 1 ? hu : -hu, k & 2 ? yMax : yMin, k & 4 ? hv : -hv).applyMatrix4(this.toMesh));
      }
      const e = this.toAgent.elements;
      const bvh = bvhOf(surface);
      const index = surface.geometry.index!.array;
      const position = surface.geometry.getAttribute('position') as BufferAttribute;
      const plain = position.itemSize === 3 && !('isInterleavedBufferAttribute' in position) && !position.normalized;
      const pos = position.array;
      const b = this.bounds;
      const yMid = (yMin + yMax) / 2,
        yHalf = (yMax - yMin) / 2;
      // Turned to the mesh's axes, the column's bounds are its box already.
      const oriented = Math.abs(e[0]!) < 0.999 && Math.abs(e[2]!) < 0.999;
      bvh.shapecast({
        intersectsBounds: (box) => {
          if (!(box.min.x <= b.max.x && box.max.x >= b.min.x && box.min.y <= b.max.y && box.max.y >= b.min.y && box.min.z <= b.max.z && box.max.z >= b.min.z))
            return false;
          if (!oriented) return true;
          // The node's box seen from the agent: its centre and half extents along the agent's axes.
          const cx = (box.min.x + box.max.x) / 2,
            cy = (box.min.y + box.max.y) / 2,
            cz = (box.min.z + box.max.z) / 2;
          const hx = (box.max.x - box.min.x) / 2,
            hy = (box.max.y - box.min.y) / 2,
            hz = (box.max.z - box.min.z) / 2;
          const u = e[0]! * cx + e[4]! * cy + e[8]! * cz + e[12]!,
            hu2 = Math.abs(e[0]!) * hx + Math.abs(e[4]!) * hy + Math.abs(e[8]!) * hz;
          if (Math.abs(u) - hu2 > hu) return false;
          const v = e[2]! * cx + e[6]! * cy + e[10]! * cz + e[14]!,
            hv2 = Math.abs(e[2]!) * hx + Math.abs(e[6]!) * hy + Math.abs(e[10]!) * hz;
          if (Math.abs(v) - hv2 > hv) return false;
          const y = e[1]! * cx + e[5]! * cy + e[9]! * cz + e[13]!,
            hy2 = Math.abs(e[1]!) * hx + Math.abs(e[5]!) * hy + Math.abs(e[9]!) * hz;
          return Math.abs(y - yMid) - hy2 <= yHalf;
        },
        intersectsRange: (offset, count) => {
          for (let t = offset; t < offset + count; t++) {
            const tri = bvh.indirect ? bvh.resolveTriangleIndex(t) : t;
            const base = this.reserve() * 9;
            const out = this.tri;
            for (let c = 0; c < 3; c++) {
              const v = index[tri * 3 + c]!;
              const px = plain ? pos[v * 3]! : position.getX(v),
                py = plain ? pos[v * 3 + 1]! : position.getY(v),
                pz = plain ? pos[v * 3 + 2]! : position.getZ(v);
              out[base + c * 3] = e[0]! * px + e[4]! * py + e[8]! * pz + e[12]!;
              out[base + c * 3 + 1] = e[1]! * px + e[5]! * py + e[9]! * pz + e[13]!;
              out[base + c * 3 + 2] = e[2]! * px + e[6]! * py + e[10]! * pz + e[14]!;
            }
            const before = this.count;
            this.keep(base, fp, hu, hv, yMin, yMax, door);
            // A caller that only asks whether anything is there stops at the first that is.
            if (stop && this.count > before && stop(before)) {
              stopped = true;
              return true;
            }
          }
          return false;
        },
      });
      if (stopped) break;
    }
    return this;
  }

  /** Clip the triangle just written at `base` to the outline and keep it when something is left. */
  private keep(base: number, fp: Footprint, hu: number, hv: number, yMin: number, yMax: number, door: boolean): void {
    const t = this.tri;
    const u0 = t[base]!,
      y0 = t[base + 1]!,
      v0 = t[base + 2]!;
    const u1 = t[base + 3]!,
      y1 = t[base + 4]!,
      v1 = t[base + 5]!;
    const u2 = t[base + 6]!,
      y2 = t[base + 7]!,
      v2 = t[base + 8]!;
    // Cheap rejections first: outside the height range or the outline's bounding rectangle.
    if (Math.max(y0, y1, y2) < yMin || Math.min(y0, y1, y2) > yMax) return;
    if (Math.min(u0, u1, u2) > hu || Math.max(u0, u1, u2) < -hu || Math.min(v0, v1, v2) > hv || Math.max(v0, v1, v2) < -hv) return;
    let lo: number, hi: number, topU: number, topV: number;
    const inside =
      fp.shape === 'box'
        ? Math.max(Math.abs(u0), Math.abs(u1), Math.abs(u2)) <= hu && Math.max(Math.abs(v0), Math.abs(v1), Math.abs(v2)) <= hv
        : // The polygon standing in for the circle contains the circle itself.
          u0 * u0 + v0 * v0 <= hu * hu && u1 * u1 + v1 * v1 <= hu * hu && u2 * u2 + v2 * v2 <= hu * hu;
    if (inside) {
      // Wholly inside: no clipping needed (most floor triangles under the agent).
      lo = Math.min(y0, y1, y2);
      hi = Math.max(y0, y1, y2);
      const top = y0 >= y1 && y0 >= y2 ? 0 : y1 >= y2 ? 1 : 2;
      topU = t[base + top * 3]!;
      topV = t[base + top * 3 + 2]!;
    } else {
      const clipper = this.clipper.start(t, base);
      // A cylinder's outline polygon lies within R = r / cos(π/n) of the axis: farther triangles
      // (the corners of the bounding square) are dropped before 32 clipping planes.
      if (fp.shape === 'cylinder' && clipper.axisDistanceSq() > fp.outerRadiusM * fp.outerRadiusM) return;
      this.clipToOutline(fp, u0, v0, u1, v1, u2, v2);
      if (clipper.count === 0) return;
      const top = clipper.topIndex();
      lo = clipper.minY();
      hi = clipper.poly[top * 3 + 1]!;
      topU = clipper.poly[top * 3]!;
      topV = clipper.poly[top * 3 + 2]!;
    }
    if (hi < yMin || lo > yMax) return;
    const i = this.count++;
    this.lo[i] = Math.max(lo, yMin);
    this.hi[i] = Math.min(hi, yMax);
    this.door[i] = door ? 1 : 0;
    this.topU[i] = topU;
    this.topV[i] = topV;
    // Normal = a × b in (u, y, v); its y share says how level the triangle is (either winding).
    const au = u1 - u0,
      ay = y1 - y0,
      av = v1 - v0,
      bu = u2 - u0,
      by = y2 - y0,
      bv = v2 - v0;
    const nu = ay * bv - av * by,
      ny = av * bu - au * bv,
      nv = au * by - ay * bu;
    const len2 = nu * nu + ny * ny + nv * nv;
    this.flat[i] = len2 > 0 && ny * ny >= MIN_SUPPORT_NORMAL_Y * MIN_SUPPORT_NORMAL_Y * len2 ? 1 : 0;
  }

  /**
   * Clip the clipper's triangle (plan corners given) to the outline. A box has four sides; of a
   * cylinder's 32 only those some corner lies beyond can cut the triangle (the rest leave it
   * whole), and for a small triangle those are the few facing it: a corner at radius ρ and angle
   * θ lies beyond side k only within acos(d/ρ) of θ, and the corners lie within asin(spread/ρc)
   * of the centroid's angle.
   */
  private clipToOutline(fp: Footprint, u0: number, v0: number, u1: number, v1: number, u2: number, v2: number): void {
    const planes = fp.planes,
      n = planes.length,
      clipper = this.clipper;
    let k0 = 0,
      k1 = n - 1;
    if (fp.shape === 'cylinder') {
      const cu = (u0 + u1 + u2) / 3,
        cv = (v0 + v1 + v2) / 3;
      const rc = Math.sqrt(cu * cu + cv * cv);
      const spread = Math.sqrt(Math.max((u0 - cu) ** 2 + (v0 - cv) ** 2, (u1 - cu) ** 2 + (v1 - cv) ** 2, (u2 - cu) ** 2 + (v2 - cv) ** 2));
      const rmax = Math.sqrt(Math.max(u0 * u0 + v0 * v0, u1 * u1 + v1 * v1, u2 * u2 + v2 * v2));
      const d = planes[0]!.d;
      if (rc > spread * 1.0001 && rmax > d) {
        const beta = Math.asin(spread / rc) + Math.acos(d / rmax);
        if (beta < Math.PI) {
          const theta = Math.atan2(cv, cu),
            step = (2 * Math.PI) / n;
          k0 = Math.ceil((theta - beta) / step);
          k1 = Math.floor((theta + beta) / step);
        }
      }
    }
    for (let k = k0; k <= k1 && clipper.count > 0; k++) {
      const pl = planes[((k % n) + n) % n]!;
      clipper.clip(pl.nu, 0, pl.nv, pl.d);
    }
  }

  /**
   * Whether triangle `i` reaches into the body between heights y0 and y1. A box is exactly its
   * clipped range; a cylinder is tested against the true circle, not the polygon standing in for it.
   */
  touches(i: number, fp: Footprint, y0: number, y1: number): boolean {
    return this.touchDistanceSq(i, fp, y0, y1) >= 0;
  }

  /**
   * −1 when triangle `i` does not reach into the body between y0 and y1; otherwise the squared
   * plan distance from the agent's axis to the triangle's part in that band (for a box an
   * approximation, used only to pick the nearest obstacle to report).
   */
  touchDistanceSq(i: number, fp: Footprint, y0: number, y1: number): number {
    if (!(this.hi[i]! > y0 && this.lo[i]! < y1)) return -1;
    const d = this.clipper
      .start(this.tri, i * 9)
      .band(y0, y1)
      .axisDistanceSq();
    if (fp.shape === 'box') return d === Infinity ? -1 : d;
    return d < (fp.halfWidthM - TOUCH_M) ** 2 ? d : -1;
  }

  /** Centre (agent-local) of triangle `i`'s part inside the column between y0 and y1. */
  partCentre(i: number, fp: Footprint, y0: number, y1: number, out: { u: number; y: number; v: number }): typeof out {
    this.clipper.start(this.tri, i * 9);
    for (const pl of fp.planes) this.clipper.clip(pl.nu, 0, pl.nv, pl.d);
    return this.clipper.band(y0, y1).centroid(out);
  }

  /** Index of the next free slot, growing the pools when full (the slot is taken only on `count++`). */
  private reserve(): number {
    if (this.count === this.lo.length) {
      const grow = <T extends Float64Array | Uint8Array>(a: T, per = 1): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a.subarray(0, this.count * per));
        return b;
      };
      this.tri = grow(this.tri, 9);
      this.lo = grow(this.lo);
      this.hi = grow(this.hi);
      this.door = grow(this.door);
      this.flat = grow(this.flat);
      this.topU = grow(this.topU);
      this.topV = grow(this.topV);
    }
    return this.count;
  }
}
