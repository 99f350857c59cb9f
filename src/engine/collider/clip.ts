/**
 * Convex polygon clipping in agent-local coordinates (u, y, v), for the footprint column: a
 * triangle cut down to the part inside the footprint and inside a height band. Polygons are flat
 * arrays of (u, y, v) triples; scratch buffers are reused, so nothing allocates per triangle.
 */

/** A triangle clipped by up to 32 + 2 planes has at most 3 + 34 vertices. */
const MAX_VERTICES = 40;

export class PolygonClipper {
  private a = new Float64Array(MAX_VERTICES * 3);
  private b = new Float64Array(MAX_VERTICES * 3);
  /** The current polygon after the last operation (valid until the next `start`). */
  poly = this.a;
  count = 0;

  /** Begin with a triangle given as 9 numbers at `offset` of `src`. */
  start(src: ArrayLike<number>, offset: number): this {
    this.poly = this.a;
    for (let k = 0; k < 9; k++) this.a[k] = src[offset + k]!;
    this.count = 3;
    return this;
  }

  /** Keep the part where a·u + b·y + c·v ≤ d (Sutherland–Hodgman against one plane). */
  clip(pa: number, pb: number, pc: number, d: number): this {
    const n = this.count;
    if (n === 0) return this;
    const src = this.poly;
    // Most planes leave a polygon alone: check before copying it.
    let outside = 0;
    for (let i = 0; i < n; i++) if (pa * src[i * 3]! + pb * src[i * 3 + 1]! + pc * src[i * 3 + 2]! > d) outside++;
    if (outside === 0) return this;
    if (outside === n) {
      this.count = 0;
      return this;
    }
    const dst = src === this.a ? this.b : this.a;
    let out = 0;
    let pu = src[(n - 1) * 3]!,
      py = src[(n - 1) * 3 + 1]!,
      pv = src[(n - 1) * 3 + 2]!;
    let ps = pa * pu + pb * py + pc * pv - d;
    for (let i = 0; i < n; i++) {
      const cu = src[i * 3]!,
        cy = src[i * 3 + 1]!,
        cv = src[i * 3 + 2]!;
      const cs = pa * cu + pb * cy + pc * cv - d;
      if (ps <= 0 !== cs <= 0) {
        const t = ps / (ps - cs);
        dst[out++] = pu + t * (cu - pu);
        dst[out++] = py + t * (cy - py);
        dst[out++] = pv + t * (cv - pv);
      }
      if (cs <= 0) {
        dst[out++] = cu;
        dst[out++] = cy;
        dst[out++] = cv;
      }
      pu = cu;
      py = cy;
      pv = cv;
      ps = cs;
    }
    this.poly = dst;
    this.count = out / 3;
    return this;
  }

  /** Keep the part with y0 ≤ y ≤ y1. */
  band(y0: number, y1: number): this {
    return this.clip(0, 1, 0, y1).clip(0, -1, 0, -y0);
  }

  /** Lowest y of the polygon (Infinity when empty). */
  minY(): number {
    let lo = Infinity;
    for (let i = 0; i < this.count; i++) lo = Math.min(lo, this.poly[i * 3 + 1]!);
    return lo;
  }

  /** Index of the polygon's highest vertex (−1 when empty). */
  topIndex(): number {
    let top = -1;
    for (let i = 0; i < this.count; i++) if (top < 0 || this.poly[i * 3 + 1]! > this.poly[top * 3 + 1]!) top = i;
    return top;
  }

  /** The polygon's vertex average (u, y, v), written into `out`. */
  centroid(out: { u: number; y: number; v: number }): typeof out {
    let u = 0,
      y = 0,
      v = 0;
    for (let i = 0; i < this.count; i++) {
      u += this.poly[i * 3]!;
      y += this.poly[i * 3 + 1]!;
      v += this.poly[i * 3 + 2]!;
    }
    const n = Math.max(1, this.count);
    out.u = u / n;
    out.y = y / n;
    out.v = v / n;
    return out;
  }

  /**
   * Squared horizontal distance from the vertical axis u = v = 0 to the polygon (0 when the axis
   * passes through it): the exact test of a cylinder against what is left after `band`.
   */
  axisDistanceSq(): number {
    const n = this.count,
      p = this.poly;
    if (n === 0) return Infinity;
    let area = 0,
      pos = 0,
      neg = 0,
      best = Infinity;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const au = p[i * 3]!,
        av = p[i * 3 + 2]!,
        bu = p[j * 3]!,
        bv = p[j * 3 + 2]!;
      const cross = au * bv - av * bu; // sign tells which side of edge a→b the axis lies on
      area += cross;
      if (cross > 0) pos++;
      else if (cross < 0) neg++;
      // Distance from the origin to segment a–b.
      const eu = bu - au,
        ev = bv - av;
      const len = eu * eu + ev * ev;
      const t = len > 0 ? Math.min(1, Math.max(0, -(au * eu + av * ev) / len)) : 0;
      const qu = au + t * eu,
        qv = av + t * ev;
      best = Math.min(best, qu * qu + qv * qv);
    }
    // A vertical triangle projects to a line: no inside, only its edges count.
    if (Math.abs(area) > 1e-12 && (pos === 0 || neg === 0)) return 0;
    return best;
  }
}
