import type { AgentMap } from './agentMap.ts';
import { squaredDistances } from './distance.ts';
import { planBoundsOf, ringsAround } from '../terrain/grid.ts';

/** The exact collider's answer for one pose (collider/body.ts fitsAt), standing on `floorY`. */
export type ExactFit = (x: number, z: number, yaw: number, floorY: number) => boolean;

const UNKNOWN = 0,
  FREE = 1,
  BLOCKED = 2,
  UNSURE = 3,
  UNSURE_FREE = 4,
  UNSURE_BLOCKED = 5;

/** A rectangle of terrain cells: from cell (i0, j0), ni × nj cells. */
export interface CellWindow {
  i0: number;
  j0: number;
  ni: number;
  nj: number;
}

/**
 * The agent's poses at the planner's resolution: positions on a lattice `stepM` apart over the
 * region, headings in `headings` bins over 180° for a box (a box's footprint is the same turned
 * half round, and agents may reverse), one bin for a disc.
 *
 * A pose is tested on the map three ways: with the footprint grown by a little more than a cell's
 * half diagonal (clear ⇒ surely free: every cell the true footprint touches was looked at), shrunk
 * by as much (a blocked cell inside ⇒ surely blocked: that cell lies wholly under the true
 * footprint), and otherwise it is unsure — within a centimetre of touching — and the exact collider
 * decides, when asked (`exactFree`). Results are cached.
 *
 * A lattice point where the footprint can spin on the spot (the grown disc through its corners is
 * clear) is one state, "any heading": in open rooms the search then costs no more for a box than
 * for a disc, and headings multiply only where they matter — doorways, corridors, corners.
 */
export class PoseSpace {
  readonly lx: number;
  readonly lz: number;
  readonly stepM: number;
  readonly stepCells: number;
  /** Heading bins (1 for a disc). */
  readonly K: number;
  /** States per lattice point: K, plus the "any heading" state for a box. */
  readonly S: number;
  readonly ANY: number;
  /** The terrain cell of lattice point 0. */
  readonly i0: number;
  readonly j0: number;
  /** The lattice's first point, counted in steps from the region's first cell, and that cell's centre. */
  private readonly a0: number;
  private readonly b0: number;
  private readonly ox: number;
  private readonly oz: number;
  private readonly poses: Uint8Array;
  private readonly spin: Uint8Array;
  private readonly spinRadius: number;
  /** The map's margin of doubt: a little more than a cell's half diagonal. */
  readonly sureM: number;
  /** Lattice points the search may use (all when null). */
  private within: Uint8Array | null = null;
  /** Map tests and exact collider calls made (work done). */
  tests = 0;
  exactTests = 0;
  /** A coarser lattice of the same agent on the same map whose answers this one reads where their points coincide (readFrom). */
  private coarser: PoseSpace | null = null;
  /** Points where the collider refused a motion (veto): their poses are no answer of the map's to share. */
  private vetoed: Uint8Array | null = null;

  constructor(
    readonly map: AgentMap,
    stepCells: number,
    headings: number,
    private readonly exact: ExactFit | null = null,
    /** The agent goes the other way along the route the terrain was made for: progress is counted from its far end. */
    private readonly backwards = false,
    /**
     * Only these cells of the terrain (all when null): a 1 cm lattice over a bottleneck's window
     * instead of the whole region, whose search arrays were ~165 MB for a 5 × 9 m region.
     */
    window: CellWindow | null = null,
  ) {
    const g = map.terrain.region.grid;
    this.stepM = stepCells * g.cellM;
    // Points on cell centres i0, i0 + step, i0 + 2·step…: a finer lattice's every other point is a
    // coarser one's when the cells they start on are too.
    this.stepCells = stepCells;
    this.i0 = window?.i0 ?? 0;
    this.j0 = window?.j0 ?? 0;
    this.lx = Math.floor(((window?.ni ?? g.nx) - 1) / stepCells) + 1;
    this.lz = Math.floor(((window?.nj ?? g.nz) - 1) / stepCells) + 1;
    if (this.i0 % stepCells !== 0 || this.j0 % stepCells !== 0) throw new Error('planner: a window must start on a lattice point');
    // Places are counted from the region's first cell, as the whole lattice counts them, so a point
    // of the window is at exactly the whole lattice's place for its cell.
    this.a0 = this.i0 / stepCells;
    this.b0 = this.j0 / stepCells;
    this.ox = g.x0 + g.cellM / 2;
    this.oz = g.z0 + g.cellM / 2;
    const box = map.spec.shape === 'box';
    this.K = box ? headings : 1;
    this.S = box ? headings + 1 : 1;
    this.ANY = box ? headings : -1;
    this.poses = new Uint8Array(this.lx * this.lz * this.K);
    this.spin = new Uint8Array(this.lx * this.lz);
    this.sureM = g.cellM * 0.75;
    this.spinRadius = Math.hypot(map.spec.halfWidthM, map.spec.halfDepthM) + this.sureM;
  }

  get points(): number {
    return this.lx * this.lz;
  }

  get exactAvailable(): boolean {
    return this.exact !== null;
  }

  x(p: number): number {
    return this.ox + (this.a0 + (p % this.lx)) * this.stepM;
  }
  z(p: number): number {
    return this.oz + (this.b0 + Math.floor(p / this.lx)) * this.stepM;
  }
  /** The lattice column and row nearest a plan x and z (may lie off the lattice). */
  private column(x: number): number {
    return Math.round((x - this.ox) / this.stepM) - this.a0;
  }
  private row(z: number): number {
    return Math.round((z - this.oz) / this.stepM) - this.b0;
  }

  /** Yaw of heading bin k (radians). */
  yaw(k: number): number {
    return (k * Math.PI) / this.K;
  }

  /** Where the agent stands at point p: how far along the edge's route (metres), in the direction it drives. */
  progress(p: number): number {
    const { along, length } = this.map.terrain.region;
    const s = along[this.cellOf(p)] ?? 0;
    return this.backwards ? length - s : s;
  }

  /** The terrain cell of lattice point p. */
  cellOf(p: number): number {
    const a = p % this.lx,
      b = (p - a) / this.lx;
    return (this.j0 + b * this.stepCells) * this.map.terrain.region.grid.nx + this.i0 + a * this.stepCells;
  }

  /**
   * Per lattice point the search may use, how much progress it still lacks to reach `target` (0 past
   * it); with `past`, how far past `target` it still is (0 short of it): the way back.
   */
  shortOf(target: number, past = false): Float32Array {
    const out = new Float32Array(this.points);
    const sign = past ? -1 : 1;
    for (let p = 0; p < out.length; p++) if (this.inWindow(p)) out[p] = Math.max(0, sign * (target - this.progress(p)));
    return out;
  }

  /** Whether point p is one the search may use (restrictTo). */
  inWindow(p: number): boolean {
    return !this.within || this.within[p] === 1;
  }

  /** The lattice point nearest (x, z), or −1 off the lattice. */
  nearest(x: number, z: number): number {
    const a = this.column(x),
      b = this.row(z);
    return a < 0 || b < 0 || a >= this.lx || b >= this.lz ? -1 : b * this.lx + a;
  }

  private classify(x: number, z: number, yaw: number): number {
    this.tests++;
    const { spec } = this.map,
      d = this.sureM;
    if (spec.shape === 'disc') {
      if (this.map.discFree(x, z, spec.halfWidthM + d)) return FREE;
      return this.map.discFree(x, z, Math.max(0, spec.halfWidthM - d)) ? UNSURE : BLOCKED;
    }
    if (this.map.boxFree(x, z, yaw, spec.halfWidthM + d, spec.halfDepthM + d)) return FREE;
    return this.map.boxFree(x, z, yaw, Math.max(0, spec.halfWidthM - d), Math.max(0, spec.halfDepthM - d)) ? UNSURE : BLOCKED;
  }

  /**
   * Keep the search within `radiusM` of a path (plan points, each on the lattice: the bridge makes
   * its window round them): a narrow tube where a finer lattice is affordable. The points within r
   * steps of a path point are found with one distance transform over the path's rectangle (a disc
   * stamped per path point cost ~10⁵ writes each at 1 cm).
   */
  restrictTo(path: readonly { x: number; z: number }[], radiusM: number): void {
    const r = Math.ceil(radiusM / this.stepM);
    const on = path.map(({ x, z }) => {
      const a = this.column(x),
        b = this.row(z);
      if (a < 0 || b < 0 || a >= this.lx || b >= this.lz)
        throw new Error(`planner: a path point (${x.toFixed(3)}, ${z.toFixed(3)}) lies off the lattice it restricts`);
      return { x: a, z: b };
    });
    const within = new Uint8Array(this.points);
    if (on.length > 0) {
      const { minX, maxX, minZ, maxZ } = planBoundsOf(on);
      // Over the rectangle r round the path's points only: nothing farther can be within r.
      const a0 = Math.max(0, minX - r),
        b0 = Math.max(0, minZ - r),
        w = Math.min(this.lx - 1, maxX + r) - a0 + 1,
        h = Math.min(this.lz - 1, maxZ + r) - b0 + 1;
      const marked = new Uint8Array(w * h);
      for (const q of on) marked[(q.z - b0) * w + (q.x - a0)] = 1;
      const d2 = squaredDistances(marked, w, h);
      for (let b = 0; b < h; b++) for (let a = 0; a < w; a++) if (d2[b * w + a]! <= r * r) within[(b + b0) * this.lx + a + a0] = 1;
    }
    this.within = within;
  }

  /**
   * Read the answers `coarser` already has (its map tests and its collider's) at the points the two
   * lattices share, instead of asking again: a bridge's 1 cm lattice has every coarse point of its
   * window among its own, a quarter of its points, and their poses are the same questions.
   */
  readFrom(coarser: PoseSpace): void {
    if (coarser.map !== this.map || coarser.K !== this.K || coarser.stepCells % this.stepCells !== 0 || coarser.i0 !== 0 || coarser.j0 !== 0)
      throw new Error('planner: a lattice reads the answers of a coarser one of the same map over the whole region');
    this.coarser = coarser;
  }

  /** The coarser lattice's point on the same cell as point p, or −1 (none there, or vetoed). */
  private coarserPoint(p: number): number {
    const c = this.coarser!;
    const i = this.i0 + (p % this.lx) * this.stepCells,
      j = this.j0 + Math.floor(p / this.lx) * this.stepCells;
    if (i % c.stepCells !== 0 || j % c.stepCells !== 0) return -1;
    const a = i / c.stepCells,
      b = j / c.stepCells;
    if (a >= c.lx || b >= c.lz) return -1;
    const q = b * c.lx + a;
    return c.vetoed && c.vetoed[q] ? -1 : q;
  }

  private state(p: number, k: number): number {
    if (this.within && !this.within[p]) return BLOCKED;
    const i = p * this.K + k;
    if (this.poses[i] === UNKNOWN) {
      const q = this.coarser ? this.coarserPoint(p) : -1;
      const known = q >= 0 ? this.coarser!.poses[q * this.K + k]! : UNKNOWN;
      this.poses[i] = known !== UNKNOWN ? known : this.classify(this.x(p), this.z(p), this.yaw(k));
    }
    return this.poses[i]!;
  }

  /** Whether the footprint may fit at point p in bin k: surely, or unsure and not yet refused by the collider. */
  free(p: number, k: number): boolean {
    const v = this.state(p, k);
    return v !== BLOCKED && v !== UNSURE_BLOCKED;
  }

  /** Whether it fits: surely, or the exact collider says so (asked once, when unsure). */
  exactFree(p: number, k: number): boolean {
    const v = this.state(p, k);
    if (v === FREE || v === UNSURE_FREE) return true;
    if (v === BLOCKED || v === UNSURE_BLOCKED) return false;
    if (!this.exact) return true;
    this.exactTests++;
    const x = this.x(p),
      z = this.z(p);
    const ok = this.exact(x, z, this.yaw(k), this.map.floorAt(x, z));
    this.poses[p * this.K + k] = ok ? UNSURE_FREE : UNSURE_BLOCKED;
    return ok;
  }

  /** A pose off the lattice that is surely free (for straightening the motion between lattice poses). */
  surelyFree(x: number, z: number, yaw: number): boolean {
    return this.classify(x, z, yaw) === FREE;
  }

  /** Whether the footprint can turn on the spot at p (always false for a disc: it has one state). */
  spins(p: number): boolean {
    if (this.ANY < 0 || (this.within && !this.within[p])) return false;
    let v = this.spin[p]!;
    if (v === 0 && this.coarser) {
      const q = this.coarserPoint(p);
      if (q >= 0) v = this.spin[p] = this.coarser.spin[q]!;
    }
    if (v === 0) {
      this.tests++;
      v = this.map.discFree(this.x(p), this.z(p), this.spinRadius) ? 1 : 2;
      this.spin[p] = v;
    }
    return v === 1;
  }

  /** The states the agent may be in at point p: "any heading", or each bin it may fit. */
  statesAt(p: number): number[] {
    if (this.spins(p)) return [p * this.S + this.ANY];
    const out: number[] = [];
    for (let k = 0; k < this.K; k++) if (this.free(p, k)) out.push(p * this.S + k);
    return out;
  }

  /** Mark every pose at p blocked: the exact collider refused a motion there. */
  veto(p: number): void {
    (this.vetoed ??= new Uint8Array(this.points))[p] = 1;
    this.spin[p] = 2;
    this.poses.fill(BLOCKED, p * this.K, (p + 1) * this.K);
  }

  /** The nearest lattice point within `radiusM` of (x, z) where the agent may fit at all, or −1. */
  snap(x: number, z: number, radiusM: number): number {
    const a0 = this.column(x),
      b0 = this.row(z);
    let best = -1,
      bestD = Infinity;
    for (const [a, b, r] of ringsAround(a0, b0, Math.ceil(radiusM / this.stepM), this.lx, this.lz)) {
      // A ring's nearest point is r steps away: once that is farther than the best found, stop.
      if (best >= 0 && r * this.stepM > bestD) break;
      const p = b * this.lx + a;
      const d = Math.hypot(this.x(p) - x, this.z(p) - z);
      if (d > radiusM || d >= bestD) continue;
      if (this.statesAt(p).length > 0) {
        best = p;
        bestD = d;
      }
    }
    return best;
  }
}
