import type { AgentProfile } from '../../core/agents.ts';
import type { DriveMeasured } from '../../core/driveDraft.ts';
import type { Vec3 } from '../../core/graph.ts';
import { neededWidthM, type ReasonCategory } from '../../core/rules.ts';
import { STEP_CLASS_M } from '../collider/body.ts';
import { footprintOf } from '../collider/footprint.ts';
import { clearWidthAcross } from '../collider/readouts.ts';
import type { ColliderWorld } from '../collider/world.ts';
import { attempt, narrowDisc, pathPoints, type Attempt } from './attempt.ts';
import type { PoseSpace } from './poseSpace.ts';
import type { Terrain } from '../terrain/terrain.ts';

/**
 * Why no motion exists, measured rather than guessed: the search is repeated with one constraint
 * of the agent restored at a time, in the rules' order (core/rules.ts), starting from a ghost (a
 * 10 cm disc that opens every door, climbs anything below the collider's step class and fits under
 * anything). The first constraint whose restoring leaves no way through is the reason, and what
 * stops it is measured on the best way found before it: the stairs' risers, the highest step, the
 * lowest opening, the narrowest clear width (the collider's ray measurement, jamb to jamb). When a
 * disc as wide as the agent gets through but its box does not, no heading sequence turns the box
 * where it stops: turning space. Figures are returned as measured: the decision rounds them to
 * millimetres for showing only after its doubt has read them (decide.ts).
 */
export interface Diagnosis {
  reason: ReasonCategory;
  measured: DriveMeasured;
  /** Where it is stopped (world, on the floor). */
  at: Vec3 | null;
  message?: string;
}

/** A 10 cm disc (6 cm and the side clearance) that fits under anything, climbs anything below a wall, opens every door. */
const GHOST: AgentProfile = {
  name: 'GHOST',
  shape: 'cylinder',
  widthM: 0.06,
  depthM: null,
  heightM: 0.05,
  maxStepM: STEP_CLASS_M - 0.01,
  canUseStairs: true,
  canUseElevator: true,
  canOpenDoors: true,
  turningSpaceM: null,
  description: '',
};

export interface DiagnoseInput {
  terrain: Terrain;
  world: ColliderWorld;
  profile: AgentProfile;
  a: Vec3;
  b: Vec3;
  /** The agent's own search, which found nothing. */
  full: Attempt;
  /** The pose space of an agent on this terrain (with the exact collider for unsure poses). */
  spaceFor: (profile: AgentProfile) => PoseSpace;
}

export function diagnose({ terrain, world, profile, a, b, full, spaceFor }: DiagnoseInput): Diagnosis {
  const tried = new Map<string, Attempt>();
  const tryWith = (p: AgentProfile) => {
    const key = JSON.stringify(p);
    let at = tried.get(key);
    if (!at) tried.set(key, (at = attempt(spaceFor(p), a, b, { explore: true })));
    return at;
  };
  const box = profile.shape === 'box' && profile.depthM !== null;
  const disc = narrowDisc(profile);
  // Every constraint but the box's shape, as the steps below restore them: the ghost with the agent's
  // stairs, doors (where a door is too low for it), step, height, and its narrow side as a disc.
  const doorsMatter = !profile.canOpenDoors && terrain.doorHeadroom.some((h) => h < profile.heightM);
  const allButShape: AgentProfile = {
    ...GHOST,
    ...(profile.canUseStairs ? {} : { canUseStairs: false }),
    ...(doorsMatter ? { canOpenDoors: false } : {}),
    maxStepM: profile.maxStepM,
    heightM: profile.heightM,
    shape: 'cylinder',
    widthM: disc.widthM,
    depthM: null,
  };
  // A box whose narrow side's disc the map lets through (its own search was not hopeless) is most
  // often stopped by its shape. When that disc, every other constraint restored, gets through, each
  // step below would get through too (a constraint only takes ways away): it is the shape, measured
  // on that disc's way, and the ghost and the steps are not searched (~100 ms of a stop at the L-corner).
  if (box && full.result.expanded > 0) {
    const shapeOnly = tryWith(allButShape);
    if (shapeOnly.result.found) return turning(world, profile, terrain, samples(terrain, shapeOnly), full);
  }
  let best = tryWith(GHOST);
  if (!best.result.found)
    return { reason: 'other', measured: {}, at: endOf(terrain, best), message: 'No walkable way between the nodes in the scan, even for the smallest agent' };
  let caps: AgentProfile = GHOST;
  const restore = (next: AgentProfile): Attempt | null => {
    // The way found so far still open to the agent with one more constraint settles it without a search.
    if (stillFree(spaceFor(next), best)) {
      caps = next;
      return null;
    }
    const at = tryWith(next);
    if (!at.result.found) return at;
    best = at;
    caps = next;
    return null;
  };

  if (!profile.canUseStairs) {
    const stuck = restore({ ...caps, canUseStairs: false });
    if (stuck) {
      const flight = terrain.flight;
      return {
        reason: 'stairs',
        measured: flight ? { risers: flight.risers, riserM: flight.riserM } : {},
        at: firstOn(terrain, best, (c) => terrain.stair[c] === 1),
      };
    }
  }
  if (doorsMatter) {
    if (restore({ ...caps, canOpenDoors: false }))
      return { reason: 'door', measured: {}, at: firstOn(terrain, best, (c) => terrain.doorHeadroom[c]! < profile.heightM) };
  }
  const route = () => samples(terrain, best);
  if (restore({ ...caps, maxStepM: profile.maxStepM })) {
    const { riseM, at } = highestRise(terrain, route());
    return { reason: 'step', measured: { stepHeightM: riseM }, at };
  }
  if (restore({ ...caps, heightM: profile.heightM })) {
    const { heightM, at } = lowestOpening(terrain, route(), caps.canOpenDoors);
    return { reason: 'narrow', measured: { clearHeightM: heightM }, at };
  }
  const fp = footprintOf(profile);
  // The agent's narrow side as a disc: a box contains it at every heading, so where it cannot pass the box cannot.
  const widthStuck = restore({ ...caps, shape: 'cylinder', widthM: disc.widthM, depthM: null });
  if (
    widthStuck &&
    profile.maxStepM < GHOST.maxStepM &&
    tryWith({ ...caps, shape: 'cylinder', widthM: disc.widthM, depthM: null, maxStepM: GHOST.maxStepM }).result.found
  ) {
    // As wide as the agent it gets through where it may climb: what stops it are rises its step
    // limit refuses all across the way (a sill read cell by cell in a noisy scan), not the width.
    const { riseM, at } = highestRise(terrain, samples(terrain, widthStuck.result.found ? widthStuck : best));
    return { reason: 'step', measured: { stepHeightM: riseM }, at };
  }
  if (widthStuck) {
    const { widthM, at } = narrowestNear(world, fp, terrain, route(), endOf(terrain, widthStuck), 1.5, false, widthStuck);
    return { reason: 'narrow', measured: { ...(widthM !== null ? { clearWidthM: widthM } : {}), neededWidthM: round3(neededWidthM(profile)) }, at };
  }
  if (box) return turning(world, profile, terrain, route(), full);
  return { reason: 'other', measured: {}, at: endOf(terrain, full), message: 'The collider stops the agent where its map says it fits' };
}

/** Turning space: the clear width round where the agent's own search got stuck, on a disc's way through. */
function turning(world: ColliderWorld, profile: AgentProfile, terrain: Terrain, route: Sample[], full: Attempt): Diagnosis {
  const { widthM, at } = narrowestNear(world, footprintOf(profile), terrain, route, endOf(terrain, full), 0.6, true);
  return { reason: 'turning', measured: widthM !== null ? { clearWidthM: widthM } : {}, at };
}

/** Whether every pose of a found way (a disc's: one state per point) is free in another agent's space. */
function stillFree(space: PoseSpace, at: Attempt): boolean {
  if (!at.result.found || space.S !== 1) return false;
  for (const s of at.result.path) {
    const p = space.nearest(at.space.x(Math.floor(s / at.space.S)), at.space.z(Math.floor(s / at.space.S)));
    if (p < 0 || !space.exactFree(p, 0)) return false;
  }
  return true;
}

interface Sample {
  x: number;
  z: number;
  cell: number;
  s: number;
  yaw: number;
}

/** The path of an attempt every centimetre, with the grid cell and the direction of travel. */
function samples(terrain: Terrain, at: Attempt): Sample[] {
  const pts = pathPoints(at);
  const g = terrain.region.grid;
  const out: Sample[] = [];
  let s = 0;
  for (let i = 1; i < pts.length; i++) {
    const p = pts[i - 1]!,
      q = pts[i]!;
    const len = Math.hypot(q.x - p.x, q.z - p.z);
    const n = Math.max(1, Math.round(len / g.cellM));
    const yaw = Math.atan2(q.x - p.x, q.z - p.z);
    for (let m = 0; m < n; m++) {
      const x = p.x + ((q.x - p.x) * m) / n,
        z = p.z + ((q.z - p.z) * m) / n;
      const i0 = Math.floor((x - g.x0) / g.cellM),
        j0 = Math.floor((z - g.z0) / g.cellM);
      out.push({ x, z, cell: j0 * g.nx + i0, s: s + (len * m) / n, yaw });
    }
    s += len;
  }
  return out;
}

const point = (terrain: Terrain, p: { x: number; z: number; cell: number }): Vec3 => ({ x: p.x, y: floorOr(terrain, p.cell), z: p.z });
const floorOr = (terrain: Terrain, c: number): number => {
  const f = terrain.floor[c];
  return f === undefined || Number.isNaN(f) ? 0 : f;
};
const round3 = (v: number) => Math.round(v * 1000) / 1000 + 0;

function endOf(terrain: Terrain, at: Attempt): Vec3 | null {
  const pts = pathPoints(at);
  const last = pts[pts.length - 1];
  if (!last) return null;
  const g = terrain.region.grid;
  return point(terrain, { ...last, cell: Math.floor((last.z - g.z0) / g.cellM) * g.nx + Math.floor((last.x - g.x0) / g.cellM) });
}

function firstOn(terrain: Terrain, at: Attempt, test: (cell: number) => boolean): Vec3 | null {
  const hit = samples(terrain, at).find((p) => test(p.cell));
  return hit ? point(terrain, hit) : endOf(terrain, at);
}

/**
 * The largest rise on the way off the stairs: a sill's or a step's height. Each is read as the
 * difference of the floor's typical level (the median) over a few centimetres before it and after
 * it, not between two single cells: in a noisy scan a sill's edge spreads over a cell or two and a
 * single cell can stand a few millimetres proud.
 */
function highestRise(terrain: Terrain, route: Sample[]): { riseM: number; at: Vec3 | null } {
  let riseM = 0,
    at: Vec3 | null = null;
  const f = route.map((p) => floorOr(terrain, p.cell));
  const level = (from: number, to: number): number | null => {
    const xs: number[] = [];
    for (let k = Math.max(0, from); k <= Math.min(route.length - 1, to); k++) if (!terrain.stair[route[k]!.cell]) xs.push(f[k]!);
    if (xs.length === 0) return null;
    xs.sort((a, b) => a - b);
    return xs[xs.length >> 1]!;
  };
  for (let i = 1; i < route.length; i++) {
    const p = route[i - 1]!,
      q = route[i]!;
    if (terrain.stair[p.cell] || terrain.stair[q.cell]) continue;
    if (Math.abs(f[i]! - f[i - 1]!) <= 0.002) continue;
    const before = level(i - 1 - RISE_WINDOW, i - 1 - RISE_GAP),
      after = level(i + RISE_GAP, i + RISE_WINDOW);
    if (before === null || after === null) continue;
    const d = Math.abs(after - before);
    if (d > riseM) {
      riseM = d;
      at = point(terrain, after > before ? q : p);
    }
  }
  return { riseM, at };
}

/** A rise is read between the floor RISE_GAP to RISE_WINDOW samples (centimetres) either side of it. */
const RISE_GAP = 2;
const RISE_WINDOW = 6;

function lowestOpening(terrain: Terrain, route: Sample[], doorsOpen: boolean): { heightM: number; at: Vec3 | null } {
  let heightM = Infinity,
    at: Vec3 | null = null;
  for (const p of route) {
    const room = doorsOpen ? terrain.headroom[p.cell]! : Math.min(terrain.headroom[p.cell]!, terrain.doorHeadroom[p.cell]!);
    if (room < heightM) {
      heightM = room;
      at = point(terrain, p);
    }
  }
  return { heightM, at };
}

/**
 * The narrowest clear width (the collider's rays across the way, jamb to jamb) on the route near
 * where a search got stuck: from the route point nearest `stuck` on for `aheadM` (or `aheadM`
 * either side when `around`), every 5 cm. With `barred` (the search that got stuck), from the
 * first route point it never reached, if that comes earlier: the farthest point it reached may lie
 * beside the bottleneck (in the hall next to a door it cannot pass), and the route point nearest
 * to that beyond it (in the room behind the door).
 */
function narrowestNear(
  world: ColliderWorld,
  fp: ReturnType<typeof footprintOf>,
  terrain: Terrain,
  route: Sample[],
  stuck: Vec3 | null,
  aheadM: number,
  around = false,
  barred?: Attempt,
): { widthM: number | null; at: Vec3 | null } {
  if (route.length === 0) return { widthM: null, at: stuck };
  let k = 0;
  if (stuck) {
    let d = Infinity;
    route.forEach((p, i) => {
      const e = Math.hypot(p.x - stuck.x, p.z - stuck.z);
      if (e < d) {
        d = e;
        k = i;
      }
    });
  }
  const s0 = route[k]!.s;
  const from = Math.min(around ? s0 - aheadM : s0, barred ? (firstUnreached(route, barred)?.s ?? Infinity) : Infinity);
  let widthM: number | null = null,
    at: Vec3 | null = stuck;
  let lastS = -Infinity;
  for (const p of route) {
    if (p.s < from || p.s > s0 + aheadM || p.s - lastS < 0.05) continue;
    lastS = p.s;
    // The searched path runs in 8 directions, so it crosses a doorway at 45° as often as square on: the
    // lines across it are fanned ±50° (as the suggestion probes fan theirs), which holds jamb to jamb then.
    const reading = clearWidthAcross(world, fp, floorOr(terrain, p.cell), p, p.yaw, barred ? { spreadDeg: 50 } : {});
    if (reading && (widthM === null || reading.widthM < widthM)) {
      widthM = reading.widthM;
      at = point(terrain, p);
    }
  }
  return { widthM, at };
}

/** The first route sample whose lattice point the attempt's search never went through, or null. */
function firstUnreached(route: Sample[], at: Attempt): Sample | null {
  const { space, result } = at;
  if (result.closed.length === 0) return null;
  for (const p of route) {
    const q = space.nearest(p.x, p.z);
    if (q < 0) continue;
    let reached = false;
    for (let k = 0; k < space.S && !reached; k++) reached = result.closed[q * space.S + k] === 1;
    if (!reached) return p;
  }
  return null;
}
