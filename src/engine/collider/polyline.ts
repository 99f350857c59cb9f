import type { Vec3 } from '../../core/graph.ts';

/**
 * A route on the plan (x, z; heights are the floor's business): arc length, the nearest point to
 * a position, and the point a given arc length along.
 */
export class PlanPolyline {
  readonly xs: number[];
  readonly zs: number[];
  /** Arc length at each vertex. */
  readonly at: number[];

  constructor(points: Vec3[]) {
    // Repeated points would make zero-length segments with no direction.
    const kept = points.filter((p, i) => i === 0 || Math.hypot(p.x - points[i - 1]!.x, p.z - points[i - 1]!.z) > 1e-9);
    this.xs = kept.map((p) => p.x);
    this.zs = kept.map((p) => p.z);
    this.at = [0];
    for (let i = 1; i < kept.length; i++) this.at.push(this.at[i - 1]! + Math.hypot(this.xs[i]! - this.xs[i - 1]!, this.zs[i]! - this.zs[i - 1]!));
  }

  get length(): number {
    return this.at[this.at.length - 1]!;
  }

  /** The point `s` metres along (clamped to the ends). */
  pointAt(s: number): { x: number; z: number } {
    const n = this.at.length;
    if (n === 1 || s <= 0) return { x: this.xs[0]!, z: this.zs[0]! };
    if (s >= this.length) return { x: this.xs[n - 1]!, z: this.zs[n - 1]! };
    let i = 1;
    while (this.at[i]! < s) i++;
    const t = (s - this.at[i - 1]!) / (this.at[i]! - this.at[i - 1]!);
    return { x: this.xs[i - 1]! + t * (this.xs[i]! - this.xs[i - 1]!), z: this.zs[i - 1]! + t * (this.zs[i]! - this.zs[i - 1]!) };
  }

  /** Heading (yaw, +Z = 0, towards +X positive) of the segment under arc length `s`. */
  yawAt(s: number): number {
    const n = this.at.length;
    if (n === 1) return 0;
    let i = 1;
    while (i < n - 1 && this.at[i]! <= s) i++;
    return Math.atan2(this.xs[i]! - this.xs[i - 1]!, this.zs[i]! - this.zs[i - 1]!);
  }

  /**
   * Arc length of the point nearest to (x, z), searching only from arc length `from` − `back` on:
   * progress along a route that doubles back on itself is not confused with the other leg.
   */
  project(x: number, z: number, from = 0, back = 0.5): { s: number; distance: number } {
    let best = { s: 0, distance: Infinity };
    for (let i = 1; i < this.at.length; i++) {
      if (this.at[i]! < from - back) continue;
      const ax = this.xs[i - 1]!,
        az = this.zs[i - 1]!,
        dx = this.xs[i]! - ax,
        dz = this.zs[i]! - az;
      const len2 = dx * dx + dz * dz;
      const t = Math.min(1, Math.max(0, ((x - ax) * dx + (z - az) * dz) / len2));
      const d = Math.hypot(ax + t * dx - x, az + t * dz - z);
      if (d < best.distance - 1e-12) best = { s: this.at[i - 1]! + t * Math.sqrt(len2), distance: d };
    }
    return best;
  }
}
