import type { Box3 } from 'three';
import type { AgentProfile } from '../../core/agents.ts';
import { driveDraft, type DriveMeasured } from '../../core/driveDraft.ts';
import type { Vec3 } from '../../core/graph.ts';
import { neededWidthM, type ReasonCategory } from '../../core/rules.ts';
import type { Pose } from '../collider/body.ts';
import { blockingSurfaces, type ColliderWorld } from '../collider/world.ts';
import { AgentBody } from '../collider/body.ts';
import { BODY_GAP_M } from '../collider/footprint.ts';
import { approachStop } from './approach.ts';
import { attempt, HEADINGS, narrowDisc, pathPoints, poseSpaceOf, STEP_CELLS, towards, type Attempt } from './attempt.ts';
import { confirmMotion } from './confirm.ts';
import { diagnose } from './diagnose.ts';
import { contradicts, doubtOf } from './doubt.ts';
import { motionOf } from './motion.ts';
import { motionOfPieces, planWay, type Plan } from './plan.ts';
import type { CellWindow, PoseSpace } from './poseSpace.ts';
import { CELL_M, terrainAround } from '../terrain/around.ts';
import { surfaceNoiseM } from '../terrain/noise.ts';
import type { Terrain } from '../terrain/terrain.ts';

/**
 * Whether an agent can get from one node to the next, decided as a motion planner decides it
 * (see docs/manual/labelling-and-drive.md, "Driving"): `reached` means the planner found a
 * collision-free motion of the agent's true footprint at its resolution and the exact collider
 * drove it end to end; `stopped` means no motion exists at that resolution within the edge's
 * region, and the reason is measured (diagnose.ts). The motion is what the studio then drives,
 * step by step.
 */

/** Where an edge runs, as the suggestion engine's reference navmesh finds it (suggest/edgeWay.ts). */
export type EdgeWay = { kind: 'route'; points: Vec3[] } | { kind: 'lift'; box: Box3 | null } | { kind: 'none'; why: string };

export interface DriveDecision {
  reached: boolean;
  reason: ReasonCategory | null;
  /** The label draft's note, in the rules' words ('' when reached). */
  note: string;
  measured: DriveMeasured;
  /** The motion (world): the whole way when reached, else as far as the agent gets. */
  motion: Pose[];
  /** Index in `motion` where a lift ride takes the agent to the other storey, or null. */
  rideAt: number | null;
  /** Where it is stopped (world), or null. */
  stoppedAt: Vec3 | null;
  /**
   * Why the answer cannot be trusted, with the figures, when it rests on a measurement within the
   * scan's noise of the agent's limit (doubt.ts); null when the scan settles it.
   */
  doubt: string | null;
  resolution: { cellM: number; stepM: number; headingDeg: number };
  stats: {
    expanded: number;
    poseTests: number;
    exactTests: number;
    repairs: number;
    terrainMs: number;
    searchMs: number;
    diagnoseMs: number;
    confirmMs: number;
    totalMs: number;
  };
}

export { CELL_M };
/** Half width of the region searched round the edge's route, and round a straight line when there is no route. */
export const TUBE_M = 1.0;
const TUBE_NO_ROUTE_M = 3.0;
/** Times the exact collider may veto a pose before the planner gives up on its map. */
const MAX_REPAIRS = 8;
/** Work spent on showing how far a stopped agent gets, when its own search had nothing to show. */
const SHOW_EXPANDED = 6_000;

const now = () => performance.now();

export class SegmentPlanner {
  private readonly terrains = new Map<string, Terrain>();
  private readonly noises = new WeakMap<Terrain, number>();
  constructor(readonly world: ColliderWorld) {}

  /** The scan's surface noise round a terrain's edge (terrain/noise.ts), measured once. */
  private noiseOf(terrain: Terrain): number {
    let n = this.noises.get(terrain);
    if (n === undefined) {
      n = surfaceNoiseM(terrain);
      this.noises.set(terrain, n);
    }
    return n;
  }

  /** The terrain round a route (built once per route and shared by every agent). */
  terrainFor(route: readonly Vec3[], radiusM: number): { terrain: Terrain; ms: number } {
    // Either way along the same route is the same region.
    const text = (r: readonly Vec3[]) => r.map((p) => `${p.x.toFixed(3)},${p.y.toFixed(3)},${p.z.toFixed(3)}`).join(';');
    const forth = text(route),
      back = text([...route].reverse());
    const key = `${radiusM}:${forth < back ? forth : back}`;
    const hit = this.terrains.get(key);
    if (hit) return { terrain: hit, ms: 0 };
    const t0 = now();
    const terrain = terrainAround(blockingSurfaces(this.world, false), route, radiusM);
    this.terrains.set(key, terrain);
    return { terrain, ms: now() - t0 };
  }

  /** Decide one agent on one edge, driven from `a` to `b` (world). */
  decide(profile: AgentProfile, a: Vec3, b: Vec3, way: EdgeWay): DriveDecision {
    const t0 = now();
    if (way.kind === 'lift') return this.ride(profile, a, b, way.box, t0);
    const route = way.kind === 'route' ? oriented(way.points, a) : [a, b];
    return this.drive(profile, a, b, route, way.kind === 'route' ? TUBE_M : TUBE_NO_ROUTE_M, t0);
  }

  private ride(profile: AgentProfile, a: Vec3, b: Vec3, box: Box3 | null, t0: number): DriveDecision {
    if (!profile.canUseElevator)
      return finish(profile, { reached: false, reason: 'lift', measured: {}, motion: [], rideAt: null, stoppedAt: a, doubt: null, stats: blankStats() }, t0);
    if (!box) {
      // A lift the scan does not name: its cabin cannot be driven into, only ridden.
      return finish(
        profile,
        {
          reached: true,
          reason: null,
          measured: {},
          motion: [
            { ...a, yaw: 0 },
            { ...b, yaw: 0 },
          ],
          rideAt: 0,
          stoppedAt: null,
          doubt: null,
          stats: blankStats(),
        },
        t0,
      );
    }
    const c = { x: (box.min.x + box.max.x) / 2, z: (box.min.z + box.max.z) / 2 };
    const into = this.drive(profile, a, { ...c, y: a.y }, [a, { ...c, y: a.y }], TUBE_M, t0);
    if (!into.reached) return into;
    const out = this.drive(profile, { ...c, y: b.y }, b, [{ ...c, y: b.y }, b], TUBE_M, now());
    const stats = sumStats(into.stats, out.stats);
    return finish(profile, { ...out, motion: [...into.motion, ...out.motion], rideAt: into.motion.length - 1, doubt: into.doubt ?? out.doubt, stats }, t0);
  }

  /** The agent's pose space on a terrain, unsure poses answered by the exact collider. */
  private spaceFor(terrain: Terrain, profile: AgentProfile, backwards: boolean, stepCells = STEP_CELLS, window: CellWindow | null = null): PoseSpace {
    const body = AgentBody.probe(this.world, profile);
    const fp = body.footprint;
    // The support from the terrain, the obstacles from the scan's triangles (the collider's own test).
    let space: PoseSpace | null = null;
    space = poseSpaceOf(
      terrain,
      profile,
      (x, z, yaw, floorY) => {
        const support = space!.map.supportUnder(x, z, yaw, floorY);
        return body.clearOfBand(x, z, yaw, support + fp.stepLimitM + BODY_GAP_M, support + fp.heightM);
      },
      stepCells,
      backwards,
      window,
    );
    return space;
  }

  private drive(profile: AgentProfile, a: Vec3, b: Vec3, route: Vec3[], tube: number, t0: number): DriveDecision {
    const { terrain, ms: terrainMs } = this.terrainFor(route, tube);
    // The terrain is shared by both ways along the edge: progress is counted the way this drive goes.
    const backwards = drivenBackwards(terrain, route);
    const coarse = this.spaceFor(terrain, profile, backwards);
    // The 1 cm lattices of the bottlenecks crossed, each over its own window.
    const fines: PoseSpace[] = [];
    // Where the collider refused a way the map let through (ruled out on every lattice, later ones too).
    const vetoed: { x: number; z: number }[] = [];
    const veto = (space: PoseSpace, at: { x: number; z: number }) => {
      const p = space.nearest(at.x, at.z);
      if (p >= 0) space.veto(p);
    };
    const across = {
      fine: (window: CellWindow) => {
        const f = this.spaceFor(terrain, profile, backwards, 1, window);
        f.readFrom(coarse);
        for (const at of vetoed) veto(f, at);
        fines.push(f);
        return f;
      },
      guide: () => {
        // On the map alone: it only places the bridge's window, and the collider's say on the guide's
        // unsure poses cost 15-45 ms a bridge (the quadruped's and the wheelchair's at the L-corner).
        const g = attempt(poseSpaceOf(terrain, guideOf(profile), null, STEP_CELLS, backwards), a, b);
        return g.result.found ? pathPoints(g) : null;
      },
      radiusM: Math.hypot(profile.widthM, profile.depthM ?? profile.widthM) / 2 + 0.9,
    };
    const stats = { ...blankStats(), terrainMs };
    let plan: Plan;
    let lastContact: string | null = null;
    for (;;) {
      const s0 = now();
      plan = planWay(coarse, a, b, across);
      stats.searchMs += now() - s0;
      stats.expanded += plan.expanded;
      if (!plan.found) break;
      const c0 = now();
      const first = plan.pieces[0]!;
      const p0 = Math.floor(first.path[0]! / first.space.S);
      const floorY = first.space.map.floorAt(first.space.x(p0), first.space.z(p0));
      let conf = confirmMotion(this.world, profile, motionOfPieces(plan.pieces), floorY);
      if (!conf.ok) conf = confirmMotion(this.world, profile, motionOfPieces(plan.pieces, false), floorY);
      stats.confirmMs += now() - c0;
      if (conf.ok) {
        countTests(stats, coarse, ...fines);
        const measured: DriveMeasured = { lengthM: pathLength(conf.poses) };
        if (conf.narrowestWidthM !== null) measured.clearWidthM = conf.narrowestWidthM;
        if (round3(conf.highestRiseM) > 0) measured.stepHeightM = conf.highestRiseM;
        if (Number.isFinite(conf.tightestClearanceM)) measured.tightestClearanceM = conf.tightestClearanceM;
        const doubt = doubtOf({ reached: true, reason: null, measured, stoppedAt: null }, profile, terrain, this.noiseOf(terrain));
        return finish(profile, { reached: true, reason: null, measured, motion: conf.poses, rideAt: null, stoppedAt: null, doubt, stats }, t0);
      }
      lastContact = conf.contact.message;
      if (stats.repairs >= MAX_REPAIRS) break;
      // The collider refused a pose the map let through: rule it out on every lattice and search again.
      const failed = conf.poses[conf.poses.length - 1]!;
      vetoed.push(failed);
      for (const space of [coarse, ...fines]) veto(space, failed);
      stats.repairs++;
    }
    countTests(stats, coarse, ...fines);
    // As far as it gets: the reachable pose farthest along the route, driven by the collider until it stops.
    const shown = (stuck: Attempt) => {
      const c0 = now();
      const { space, result } = stuck;
      const p0 = result.path.length ? Math.floor(result.path[0]! / space.S) : -1;
      const partial = p0 >= 0 ? confirmMotion(this.world, profile, motionOf(space, result.path), space.map.floorAt(space.x(p0), space.z(p0))) : null;
      stats.confirmMs += now() - c0;
      return partial ? partial.poses : [];
    };
    if (plan.found) {
      // The map found ways the collider refused every time: say what the collider met.
      const motion = shown(plan.last);
      return finish(
        profile,
        {
          reached: false,
          reason: 'other',
          measured: {},
          message: lastContact ?? undefined,
          motion,
          rideAt: null,
          stoppedAt: motion.at(-1) ?? null,
          doubt: null,
          stats,
        },
        t0,
      );
    }
    const d0 = now();
    const why = diagnose({ terrain, world: this.world, profile, a, b, full: plan.last, spaceFor: (p) => this.spaceFor(terrain, p, backwards) });
    // Its own search had nothing to search (its width never gets there): head for where it is stopped.
    stats.diagnoseMs += now() - d0;
    const s0 = now();
    const stuck = plan.last.result.path.length > 1 || !why.at ? plan.last : towards(coarse, a, why.at, SHOW_EXPANDED);
    stats.searchMs += now() - s0;
    const doubt = doubtOf({ reached: false, reason: why.reason, measured: why.measured, stoppedAt: why.at }, profile, terrain, this.noiseOf(terrain));
    // The motion ends against what stopped it (the search may show a pose metres short of it).
    const motion = approachStop(this.world, profile, shown(stuck), a, why.at);
    return finish(
      profile,
      { reached: false, reason: why.reason, measured: why.measured, message: why.message, motion, rideAt: null, stoppedAt: why.at, doubt, stats },
      t0,
    );
  }
}

/** A guide across bottlenecks: a disc as wide as the agent's narrow side less one coarse lattice step. */
function guideOf(profile: AgentProfile): AgentProfile {
  const disc = narrowDisc(profile);
  return { ...disc, widthM: Math.max(0.02, disc.widthM - STEP_CELLS * CELL_M) };
}

function countTests(stats: DriveDecision['stats'], ...spaces: (PoseSpace | null)[]): void {
  stats.poseTests = spaces.reduce((n, s) => n + (s?.tests ?? 0), 0);
  stats.exactTests = spaces.reduce((n, s) => n + (s?.exactTests ?? 0), 0);
}

type Draft = Omit<DriveDecision, 'note' | 'resolution'> & { message?: string | undefined };

/**
 * The decision with its draft note in the rules' words — never one its own figures contradict (a
 * "narrow passage" wider than needed, a "sill" the agent climbs): such a stop is a doubt when the
 * figure is within the scan's noise of the limit (then the note is the doubt, which says so), and
 * otherwise "other", saying what was measured and that it does not explain the stop.
 */
function finish(profile: AgentProfile, d: Draft, t0: number): DriveDecision {
  const { message, ...rest } = d;
  // Millimetres, as shown; the doubt was decided on the figures as measured (rounded first, a sill
  // 3.6 mm under the limit read 4 mm under it and fell out of a ±4 mm doubt).
  const measured: DriveMeasured = Object.fromEntries(Object.entries(d.measured).map(([k, v]) => [k, round3(v)]));
  if (d.reason === 'narrow' && measured.clearWidthM !== undefined) measured.neededWidthM ??= round3(neededWidthM(profile));
  let reason = d.reason;
  let note = driveDraft({ reached: d.reached, reason, measured, ...(message ? { message } : {}) }, profile)?.note ?? '';
  if (!d.reached && contradicts(reason, measured, profile)) {
    if (d.doubt) note = d.doubt;
    else {
      note = unexplained(measured, profile);
      reason = 'other';
    }
  }
  return {
    ...rest,
    reason,
    measured,
    note,
    resolution: { cellM: CELL_M, stepM: CELL_M * STEP_CELLS, headingDeg: 180 / HEADINGS },
    stats: { ...d.stats, totalMs: now() - t0 },
  };
}

/** What a stop measured that does not explain it, worded for the annotator. */
function unexplained(m: DriveMeasured, profile: AgentProfile): string {
  const figures = [
    m.clearWidthM !== undefined ? `the way is ${m.clearWidthM.toFixed(2)} m wide (${neededWidthM(profile).toFixed(2)} m needed)` : null,
    m.clearHeightM !== undefined ? `${m.clearHeightM.toFixed(2)} m high (${profile.heightM.toFixed(2)} m needed)` : null,
    m.stepHeightM !== undefined ? `its highest step ${m.stepHeightM.toFixed(3)} m (${profile.maxStepM.toFixed(3)} m climbed)` : null,
  ].filter((f): f is string => f !== null);
  return `Stopped where the scan does not show why: ${figures.join(', ') || 'nothing measured stops it'}; drive by hand (B) to see what the footprint meets`;
}

function blankStats(): DriveDecision['stats'] {
  return { expanded: 0, poseTests: 0, exactTests: 0, repairs: 0, terrainMs: 0, searchMs: 0, diagnoseMs: 0, confirmMs: 0, totalMs: 0 };
}

function sumStats(x: DriveDecision['stats'], y: DriveDecision['stats']): DriveDecision['stats'] {
  return {
    expanded: x.expanded + y.expanded,
    poseTests: x.poseTests + y.poseTests,
    exactTests: x.exactTests + y.exactTests,
    repairs: x.repairs + y.repairs,
    terrainMs: x.terrainMs + y.terrainMs,
    searchMs: x.searchMs + y.searchMs,
    diagnoseMs: x.diagnoseMs + y.diagnoseMs,
    confirmMs: x.confirmMs + y.confirmMs,
    totalMs: 0,
  };
}

/** Whether a route runs from the far end of the one its (shared) terrain was made for. */
function drivenBackwards(terrain: Terrain, route: readonly Vec3[]): boolean {
  const { from } = terrain.region,
    first = route[0]!,
    last = route[route.length - 1]!;
  return Math.hypot(last.x - from.x, last.z - from.z) < Math.hypot(first.x - from.x, first.z - from.z);
}

/** The route walked from the end nearer `a`. */
function oriented(points: readonly Vec3[], a: Vec3): Vec3[] {
  const first = points[0]!,
    last = points[points.length - 1]!;
  return Math.hypot(first.x - a.x, first.z - a.z) <= Math.hypot(last.x - a.x, last.z - a.z) ? [...points] : [...points].reverse();
}

function pathLength(poses: readonly Pose[]): number {
  let n = 0;
  for (let i = 1; i < poses.length; i++) n += Math.hypot(poses[i]!.x - poses[i - 1]!.x, poses[i]!.z - poses[i - 1]!.z);
  return n;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000 + 0;
