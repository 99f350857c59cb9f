import { floorHeight, type HouseSpec, type RampSpec, type SlabSpec, type StairSpec, type WallSpec } from './houseSpec.ts';

/**
 * The sample house as a triangle soup in metres, Y up (glTF frame), built from houseSpec.ts.
 * Every solid is closed and wound counter-clockwise seen from outside, so rays can tell a
 * wall's outside from its inside. Triangles come in named groups (contiguous index ranges, like
 * three's BufferGeometry groups) whose vertices are contiguous too, so a group can be cut out
 * as its own mesh.
 */
export const GROUP_NAMES = ['floor', 'wall', 'sill', 'stair', 'door-leaf', 'lift'] as const;
export type GroupName = (typeof GROUP_NAMES)[number];
/** Groups only the scan-like variants add (scanLike/clutter.ts): the clean house has none. */
export type SoupGroupName = GroupName | 'furniture';

export interface SoupGroup {
  name: SoupGroupName;
  /** First index (not triangle) of the group in `indices`, and how many indices it has. */
  start: number;
  count: number;
}

export interface TriangleSoup {
  positions: Float32Array;
  indices: Uint32Array;
  groups: SoupGroup[];
}

export interface HouseMeshOptions {
  /**
   * Subdivisions per metre along every surface (default 2: cells of at most 0.5 m). Raising it
   * multiplies triangles by about its square, e.g. for a large-mesh performance fixture.
   */
  detail?: number;
}

type V3 = [number, number, number];

/** The sill strip's depth across the doorway, and the door leaf's thickness. */
const SILL_DEPTH_M = 0.1;
const LEAF_THICKNESS_M = 0.04;
/** Gap between a closed leaf and the floor / the head of the opening. */
const LEAF_GAP_M = 0.01;

class SoupBuilder {
  private readonly parts = new Map<GroupName, { positions: number[]; indices: number[] }>(GROUP_NAMES.map((g) => [g, { positions: [], indices: [] }]));
  constructor(private readonly detail: number) {}

  private segments(length: number): number {
    return Math.max(1, Math.ceil(length * this.detail - 1e-9));
  }

  /** The parallelogram o + s·u + t·v (s, t ∈ [0, 1]) as a grid; its front side faces u × v. */
  quad(group: GroupName, o: V3, u: V3, v: V3): void {
    const part = this.parts.get(group)!;
    const nu = this.segments(Math.hypot(...u)),
      nv = this.segments(Math.hypot(...v));
    const base = part.positions.length / 3;
    for (let j = 0; j <= nv; j++) {
      for (let i = 0; i <= nu; i++) {
        const s = i / nu,
          t = j / nv;
        part.positions.push(o[0] + s * u[0] + t * v[0], o[1] + s * u[1] + t * v[1], o[2] + s * u[2] + t * v[2]);
      }
    }
    for (let j = 0; j < nv; j++) {
      for (let i = 0; i < nu; i++) {
        const a = base + j * (nu + 1) + i,
          b = a + 1,
          c = b + nu + 1,
          d = a + nu + 1;
        part.indices.push(a, b, c, a, c, d);
      }
    }
  }

  /** A closed axis-aligned box. */
  box(group: GroupName, min: V3, max: V3): void {
    const [x0, y0, z0] = min,
      [x1, y1, z1] = max;
    const dx = x1 - x0,
      dy = y1 - y0,
      dz = z1 - z0;
    if (dx <= 0 || dy <= 0 || dz <= 0) return;
    this.quad(group, [x1, y0, z0], [0, dy, 0], [0, 0, dz]); // +x
    this.quad(group, [x0, y0, z0], [0, 0, dz], [0, dy, 0]); // -x
    this.quad(group, [x0, y1, z0], [0, 0, dz], [dx, 0, 0]); // +y
    this.quad(group, [x0, y0, z0], [dx, 0, 0], [0, 0, dz]); // -y
    this.quad(group, [x0, y0, z1], [dx, 0, 0], [0, dy, 0]); // +z
    this.quad(group, [x0, y0, z0], [0, dy, 0], [dx, 0, 0]); // -z
  }

  /**
   * A closed parallelepiped o + s·a + t·b + r·c (s, t, r ∈ [0, 1]): a box sheared, such as a ramp
   * of constant thickness. Each face is wound to face away from the solid.
   */
  parallelepiped(group: GroupName, o: V3, a: V3, b: V3, c: V3): void {
    const cross = (p: V3, q: V3): V3 => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
    const dot = (p: V3, q: V3) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    // Right-handed (a × b · c > 0), so that u × v of every quad below points out of the solid.
    if (dot(cross(a, b), c) < 0) [a, b] = [b, a];
    const plus = (p: V3, q: V3): V3 => [p[0] + q[0], p[1] + q[1], p[2] + q[2]];
    this.quad(group, o, c, b); // s = 0
    this.quad(group, plus(o, a), b, c); // s = 1
    this.quad(group, o, a, c); // t = 0
    this.quad(group, plus(o, b), c, a); // t = 1
    this.quad(group, o, b, a); // r = 0
    this.quad(group, plus(o, c), a, b); // r = 1
  }

  build(): TriangleSoup {
    let vertices = 0,
      indices = 0;
    for (const p of this.parts.values()) {
      vertices += p.positions.length / 3;
      indices += p.indices.length;
    }
    const positions = new Float32Array(vertices * 3);
    const index = new Uint32Array(indices);
    const groups: SoupGroup[] = [];
    let v = 0,
      i = 0;
    for (const name of GROUP_NAMES) {
      const p = this.parts.get(name)!;
      positions.set(p.positions, v * 3);
      for (let k = 0; k < p.indices.length; k++) index[i + k] = p.indices[k]! + v;
      groups.push({ name, start: i, count: p.indices.length });
      v += p.positions.length / 3;
      i += p.indices.length;
    }
    return { positions, indices: index, groups };
  }
}

/** Build the house's triangle soup. */
export function houseMesh(spec: HouseSpec, options: HouseMeshOptions = {}): TriangleSoup {
  const soup = new SoupBuilder(options.detail ?? 2);
  for (const slab of spec.slabs) addSlab(soup, slab);
  for (const w of spec.walls) addWall(soup, spec, w);
  if (spec.stairs) addStairs(soup, spec, spec.stairs);
  // The cabin's floor fills the slab's hole at every stop, level with the storey's floor; above the
  // ground stop it is the full slab thickness, so the shaft is closed between storeys.
  const lift = spec.lift;
  for (const slab of lift ? spec.slabs : []) {
    if (!lift!.floors.includes(slab.floor)) continue;
    const c = lift!.cabin;
    soup.box('lift', [c.x0, slab.bottomY, c.z0], [c.x1, slab.topY, c.z1]);
  }
  for (const ramp of spec.ramps ?? []) addRamp(soup, spec, ramp);
  return soup.build();
}

/** A box on the plan spanning `a..b` along the wall and its thickness across it. */
function wallBox(w: WallSpec, a: number, b: number, across: number, y0: number, y1: number): [V3, V3] {
  const c0 = w.at - across / 2,
    c1 = w.at + across / 2;
  return w.run === 'x'
    ? [
        [a, y0, c0],
        [b, y1, c1],
      ]
    : [
        [c0, y0, a],
        [c1, y1, b],
      ];
}

function addWall(soup: SoupBuilder, spec: HouseSpec, w: WallSpec): void {
  const base = floorHeight(spec, w.floor),
    top = base + spec.wallHeightM;
  const openings = [...w.openings].sort((p, q) => p.centre - q.centre);
  let cursor = w.from;
  for (const o of openings) {
    const a = o.centre - o.clearWidthM / 2,
      b = o.centre + o.clearWidthM / 2;
    if (a < w.from || b > w.to || a < cursor) throw new Error(`opening ${o.id} does not fit wall ${w.id}`);
    soup.box('wall', ...wallBox(w, cursor, a, w.thicknessM, base, top));
    if (o.headM < spec.wallHeightM) soup.box('wall', ...wallBox(w, a, b, w.thicknessM, base + o.headM, top));
    if (o.sillHeightM !== undefined) soup.box('sill', ...wallBox(w, a, b, SILL_DEPTH_M, base, base + o.sillHeightM));
    if (o.closedDoor) soup.box('door-leaf', ...wallBox(w, a, b, LEAF_THICKNESS_M, base + LEAF_GAP_M, base + o.headM - LEAF_GAP_M));
    cursor = b;
  }
  soup.box('wall', ...wallBox(w, cursor, w.to, w.thicknessM, base, top));
}

/**
 * A slab with rectangular holes, as one closed solid: top and bottom tiled in strips between the
 * holes' x-edges, sides round the outline and round each hole (facing into it).
 */
function addSlab(soup: SoupBuilder, slab: SlabSpec): void {
  const { outline: o, topY, bottomY, holes } = slab;
  const h = topY - bottomY;
  const xs = [...new Set([o.x0, o.x1, ...holes.flatMap((r) => [r.x0, r.x1])])].sort((a, b) => a - b);
  for (let i = 0; i + 1 < xs.length; i++) {
    const xa = xs[i]!,
      xb = xs[i + 1]!;
    // The strip's solid spans lie between the holes that cross it, and after the last one.
    const cuts = holes.filter((r) => r.x0 <= xa && r.x1 >= xb).map((r) => [r.z0, r.z1] as const);
    let z = o.z0;
    for (const [z0, z1] of [...cuts.sort((a, b) => a[0] - b[0]), [o.z1, o.z1] as const]) {
      if (z0 > z) {
        soup.quad('floor', [xa, topY, z], [0, 0, z0 - z], [xb - xa, 0, 0]);
        soup.quad('floor', [xa, bottomY, z], [xb - xa, 0, 0], [0, 0, z0 - z]);
      }
      z = Math.max(z, z1);
    }
  }
  const dx = o.x1 - o.x0,
    dz = o.z1 - o.z0;
  soup.quad('floor', [o.x1, bottomY, o.z0], [0, h, 0], [0, 0, dz]);
  soup.quad('floor', [o.x0, bottomY, o.z0], [0, 0, dz], [0, h, 0]);
  soup.quad('floor', [o.x0, bottomY, o.z1], [dx, 0, 0], [0, h, 0]);
  soup.quad('floor', [o.x0, bottomY, o.z0], [0, h, 0], [dx, 0, 0]);
  for (const r of holes) {
    const rx = r.x1 - r.x0,
      rz = r.z1 - r.z0;
    soup.quad('floor', [r.x0, bottomY, r.z0], [0, h, 0], [0, 0, rz]); // west side, faces +x
    soup.quad('floor', [r.x1, bottomY, r.z0], [0, 0, rz], [0, h, 0]); // east side, faces -x
    soup.quad('floor', [r.x0, bottomY, r.z0], [rx, 0, 0], [0, h, 0]); // north side, faces +z
    soup.quad('floor', [r.x0, bottomY, r.z1], [0, h, 0], [rx, 0, 0]); // south side, faces -z
  }
}

/** A ramp's thickness under its sloped surface (the storey's slab, which has a hole for it, is as thick). */
const RAMP_THICKNESS_M = 0.2;

/**
 * A ramp as a sloped slab of constant thickness: its surface runs from the storey's floor at the
 * low end up `riseM` at the high end, straight across its width, so it meets the floors at both
 * ends without a step.
 */
function addRamp(soup: SoupBuilder, spec: HouseSpec, r: RampSpec): void {
  const y0 = floorHeight(spec, r.floor) - RAMP_THICKNESS_M;
  const { x0, x1, z0, z1 } = r.clear;
  const across: V3 = r.run === 'x' ? [0, 0, z1 - z0] : [x1 - x0, 0, 0];
  const length = r.run === 'x' ? x1 - x0 : z1 - z0;
  // From the low end to the high end, climbing riseM.
  const up: V3 = r.run === 'x' ? [r.dir * length, r.riseM, 0] : [0, r.riseM, r.dir * length];
  const low: V3 = r.run === 'x' ? [r.dir === 1 ? x0 : x1, y0, z0] : [x0, y0, r.dir === 1 ? z0 : z1];
  soup.parallelepiped('floor', low, across, up, [0, RAMP_THICKNESS_M, 0]);
}

/**
 * A solid straight flight standing on the lower floor: per step a tread, a riser and both sides;
 * a back face at the top. The last riser is the upper slab's edge, so the flight's treads are
 * 1..risers-1 and the top tread is one riser below the upper floor.
 */
function addStairs(soup: SoupBuilder, spec: HouseSpec, s: StairSpec): void {
  const y0 = floorHeight(spec, s.fromFloor);
  const [a0, a1] = s.across;
  const w = a1 - a0;
  // Work in (run, y, across) and map to (x, y, z). Mapping run to z swaps two axes and climbing
  // towards -run negates the run vectors: each alone mirrors the winding, together they cancel.
  const at = (run: number, y: number, across: number): V3 => (s.run === 'z' ? [across, y, run] : [run, y, across]);
  const mirror = (s.run === 'z') !== (s.dir === -1);
  const face = (o: V3, u: V3, v: V3) => (mirror ? soup.quad('stair', o, v, u) : soup.quad('stair', o, u, v));
  const g = s.dir * s.goingM;
  for (let k = 1; k < s.risers; k++) {
    const r0 = s.firstRiserAt + (k - 1) * g; // this step's riser
    const yk = y0 + k * s.riserM;
    // Windings written for run = x, dir = +1 (the identity map); `face` flips them otherwise.
    face(at(r0, yk, a0), at(0, 0, w), at(g, 0, 0)); // tread, faces +y
    face(at(r0, yk - s.riserM, a0), at(0, 0, w), at(0, s.riserM, 0)); // riser, faces down the flight
    face(at(r0, y0, a0), at(0, yk - y0, 0), at(g, 0, 0)); // side at a0
    face(at(r0, y0, a1), at(g, 0, 0), at(0, yk - y0, 0)); // side at a1
  }
  const back = s.firstRiserAt + (s.risers - 1) * g;
  face(at(back, y0, a0), at(0, (s.risers - 1) * s.riserM, 0), at(0, 0, w)); // back, faces up the flight
}

export function triangleCount(soup: TriangleSoup): number {
  return soup.indices.length / 3;
}
