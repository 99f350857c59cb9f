import { Vector3, type Box3 } from 'three';
import type { Vec3 } from '../../core/graph.ts';
import type { PassageFeature, PassageKind } from '../../core/rules.ts';
import type { SceneGeometry } from './geometry.ts';
import { REFERENCE_AGENT, type AgentNavMesh, type ReferenceNavMesh } from './navmesh.ts';
import { findCorner, headingAt } from './probes/corner.ts';
import { findDoorCrossing } from './probes/door.ts';
import { lowestOpening } from './probes/headroom.ts';
import { liftApproach, liftBetween } from './probes/lift.ts';
import { findRamp } from './probes/ramp.ts';
import { findSteps, round4 } from '../terrain/steps.ts';
import { measureWidthGrid, narrowestIn, WidthProbe, type WidthGrid, type WidthSample } from './probes/width.ts';
import { routeProfile } from './profile.ts';
import { findRoute, floorUnderNode, isDetour, resample } from './route.ts';
import type { EdgeEvidence, MeasuredEdge, WidthAtHeight } from './types.ts';
import { append } from '../../core/arrays.ts';

/**
 * One edge measured in the scan, the same for every agent: the reference route from `a` to `b`, and
 * along it the stairs, the highest step or sill, a ramp, the lowest opening, the narrowest clear
 * width per height, a narrow corner, a closed door; or a lift ride; or no route at all. See
 * probes/*.ts for each measurement.
 */

const FLOOR_STEP_M = 0.01;
/** Width samples are every 5th floor sample: ~5 cm apart. */
const WIDTH_EVERY = 5;
/** Narrower than this anywhere on the route is a doorway or corridor; wider is an open passage. */
const OPEN_FROM_M = 1.5;
/** A narrowest stretch longer than this is a corridor, shorter a doorway (a wall's thickness). */
const DOORWAY_MAX_M = 0.6;
/** An opening lower than the reference walker is crawled through, not walked: a crawl space. */
const CRAWL_BELOW_M = REFERENCE_AGENT.heightM;

/** Rays over one scene's geometry, built once and shared by every edge. */
export interface MeasureContext {
  geom: SceneGeometry;
  ref: AgentNavMesh;
  /** The reference's low twin (navmesh.ts), where the reference has one: for edges it finds no route on. */
  low: (() => AgentNavMesh) | null;
  probe: WidthProbe;
}

export function measureContext(geom: SceneGeometry, ref: AgentNavMesh | ReferenceNavMesh): MeasureContext {
  return { geom, ref, low: 'low' in ref ? ref.low : null, probe: new WidthProbe(geom.solid) };
}

const plain = (v: Vector3): Vec3 => ({ x: r3(v.x), y: r3(v.y), z: r3(v.z) });
const r3 = (v: number) => Math.round(v * 1000) / 1000 + 0;

/**
 * Measure the edge between nodes at `a` and `b` (MESH frame, as graph files store them).
 * Pass a context to share its rays between edges; results are in world coordinates.
 */
export function measureEdge(geom: SceneGeometry, ref: AgentNavMesh, a: Vec3, b: Vec3, ids = { a: 'a', b: 'b' }, ctx = measureContext(geom, ref)): MeasuredEdge {
  const started = performance.now();
  const way = edgeWay(ctx, a, b, ids);
  const done = (m: Omit<MeasuredEdge, 'a' | 'b' | 'measureMs'>): MeasuredEdge => ({ a: ids.a, b: ids.b, ...m, measureMs: performance.now() - started });
  if (way.kind === 'lift') return done(measureLift(ctx, way.aFloor, way.bFloor, way.box, way.straightM));
  if (way.kind === 'none')
    return done({
      feature: null,
      noRoute: `No walkable route between the nodes in the scan (${way.why})`,
      evidence: emptyEvidence(way.straightM, way.detour),
      noiseM: 0,
    });
  return done(measureRoute(ctx, way.points, way.lengthM, way.straightM));
}

/** Where an edge runs (world): its reference route, a lift ride, or nowhere (with why). */
export type Way = { aFloor: Vector3; bFloor: Vector3; straightM: number } & (
  { kind: 'route'; points: Vector3[]; lengthM: number } | { kind: 'lift'; box: Box3 | null } | { kind: 'none'; why: string; detour: Vector3[] | null }
);

/**
 * The way between nodes at `a` and `b` (MESH frame): the reference navmesh's route when it is
 * direct; else a lift ride when the nodes face the same lift (lift.ts); else the low reference's
 * direct route (under a low opening, such as a crawl space, the walker does not fit through); else
 * none. The suggestions measure along it, and the drive searches round it (engine/planner).
 */
export function edgeWay(ctx: MeasureContext, a: Vec3, b: Vec3, ids = { a: 'a', b: 'b' }): Way {
  const aFloor = floorUnderNode(ctx.geom.solid, new Vector3(a.x, a.y, a.z).applyMatrix4(ctx.geom.frame));
  const bFloor = floorUnderNode(ctx.geom.solid, new Vector3(b.x, b.y, b.z).applyMatrix4(ctx.geom.frame));
  const straightM = aFloor.distanceTo(bFloor);
  const route = findRoute(ctx.ref, aFloor, bFloor, [ids.a, ids.b]);
  if (route.ok && !isDetour(route.lengthM, straightM)) return { kind: 'route', aFloor, bFloor, straightM, points: route.points, lengthM: route.lengthM };
  const lift = liftBetween(ctx.geom.lifts, aFloor, bFloor);
  if (lift) return { kind: 'lift', aFloor, bFloor, straightM, box: lift.box };
  const low = ctx.low ? findRoute(ctx.low(), aFloor, bFloor, [ids.a, ids.b]) : null;
  if (low?.ok && !isDetour(low.lengthM, straightM) && !underFloor(low.points, aFloor, bFloor))
    return { kind: 'route', aFloor, bFloor, straightM, points: low.points, lengthM: low.lengthM };
  const why = route.ok ? `the only walkable route is a ${route.lengthM.toFixed(1)} m detour` : route.why;
  return { kind: 'none', aFloor, bFloor, straightM, why, detour: route.ok ? route.points : null };
}

/**
 * Whether a route sinks below the floors of both its ends: the 10 cm crawler threading the inside of
 * a slab (a scan's faces wound either way leave recast no way to tell a slab's underside from a
 * floor), not a way through the house. A crawl space is at the floor's height.
 */
function underFloor(points: readonly Vector3[], a: Vector3, b: Vector3): boolean {
  const floor = Math.min(a.y, b.y) - UNDER_FLOOR_M;
  return points.some((p) => p.y < floor);
}
const UNDER_FLOOR_M = 0.1;

function emptyEvidence(straight: number, route: Vector3[] | null): EdgeEvidence {
  return {
    route: route ? route.map(plain) : null,
    routeLengthM: null,
    straightLengthM: round4(straight),
    samples: [],
    sampleWidthM: [],
    steps: [],
    stairs: null,
    widthsByHeight: [],
    corner: null,
    door: null,
    lift: null,
    clearHeight: null,
  };
}

interface Sampled {
  samples: (WidthSample & { s: number })[];
  floor: number[];
  headroom: number[];
  noiseM: number;
  fine: { s: number; at: Vec3 }[];
}

/** The route every centimetre with the floor under it and the free height over it, and every ~5 cm for the width probes. */
function sample(ctx: MeasureContext, points: readonly Vector3[]): Sampled {
  const fineRoute = resample(points, FLOOR_STEP_M);
  const { floor, headroom, noiseM } = routeProfile(
    ctx.geom,
    points,
    fineRoute.map((f) => f.p),
  );
  const fine = fineRoute.map((f, i) => ({ s: f.s, at: plain(new Vector3(f.p.x, floor[i]!, f.p.z)) }));
  const samples: Sampled['samples'] = [];
  for (let i = 0; i < fineRoute.length; i += WIDTH_EVERY) push(i);
  if ((fineRoute.length - 1) % WIDTH_EVERY !== 0) push(fineRoute.length - 1);
  function push(i: number) {
    const f = fineRoute[i]!;
    samples.push({ p: new Vector3(f.p.x, floor[i]!, f.p.z), floorY: floor[i]!, heading: f.heading, s: f.s });
  }
  return { samples, floor, headroom, noiseM, fine };
}

/**
 * Per height, the narrowest width over the samples (refined), and per sample the narrowest over
 * heights. Heights at or above `below` (the top of a low opening on the route) are left out: there
 * the route runs through the solid above the opening, and an agent that tall is stopped by the
 * opening's height before its width counts.
 */
function widthsOf(
  ctx: MeasureContext,
  grid: WidthGrid,
  samples: readonly WidthSample[],
  below = Infinity,
): { byHeight: WidthAtHeight[]; perSample: (number | null)[] } {
  const byHeight = grid.heights.map((heightM, k): WidthAtHeight => {
    const n = heightM < below ? narrowestIn(ctx.probe, grid, samples, k) : null;
    return { heightM, widthM: n ? round4(n.width) : null, at: n ? plain(samples[n.index]!.p) : null };
  });
  const H = grid.heights.length;
  const perSample = samples.map((_, i) => {
    let m = Infinity;
    for (let k = 0; k < H && grid.heights[k]! < below; k++) {
      const w = grid.width[i * H + k]!;
      if (w < m) m = w;
    }
    return Number.isFinite(m) ? round4(m) : null;
  });
  return { byHeight, perSample };
}

const minOf = (ws: readonly (number | null)[]): number | undefined => {
  const m = Math.min(...ws.map((w) => w ?? Infinity));
  return Number.isFinite(m) ? round4(m) : undefined;
};

function measureRoute(ctx: MeasureContext, points: Vector3[], lengthM: number, straight: number): Omit<MeasuredEdge, 'a' | 'b' | 'measureMs'> {
  const { samples, floor, headroom, noiseM, fine } = sample(ctx, points);
  const steps = findSteps(fine, floor);
  const low = lowestOpening(headroom);
  const clearHeightM = low ? round4(low.heightM) : undefined;
  const ramp = steps.stairs ? null : findRamp(fine, floor);
  const grid = measureWidthGrid(ctx.probe, samples);
  const { byHeight, perSample } = widthsOf(ctx, grid, samples, low?.heightM);
  const corner = findCorner(ctx.probe, grid, samples);
  const door = ctx.geom.doors ? findDoorCrossing(ctx.geom.doors, samples) : null;

  const clearWidthM = minOf(byHeight.map((w) => w.widthM));
  let kind: PassageKind;
  let at: number; // sample index of the obstacle
  const nearestSample = (s0: number) => samples.reduce((best, s, i) => (Math.abs(s.s - s0) < Math.abs(samples[best]!.s - s0) ? i : best), 0);
  if (steps.stairs) {
    kind = 'stairs';
    at = nearestSample((steps.stairs.fromS + steps.stairs.toS) / 2);
  } else if (low && low.heightM < CRAWL_BELOW_M) {
    kind = 'crawl';
    at = nearestSample(fine[low.index]!.s);
  } else if (corner) {
    kind = 'corner';
    at = corner.index;
  } else if (ramp) {
    kind = 'ramp';
    at = nearestSample(ramp.midS);
  } else {
    ({ kind, at } = passageKind(perSample, samples, door !== null));
  }
  const where = samples[at]!;
  const feature: PassageFeature = {
    kind,
    ...(clearWidthM !== undefined ? { clearWidthM } : {}),
    ...(steps.sillHeightM !== undefined ? { sillHeightM: steps.sillHeightM } : {}),
    ...(door ? { closedDoor: true } : {}),
    ...(corner ? { cornerWidthsM: [minOf(corner.legWidthsByHeight[0])!, minOf(corner.legWidthsByHeight[1])!] as [number, number] } : {}),
    ...(steps.stairs ? { riserM: steps.stairs.riserM, risers: steps.stairs.risers } : {}),
    ...(kind === 'ramp' && ramp ? { riseM: ramp.riseM, runM: ramp.runM } : {}),
    ...(clearHeightM !== undefined ? { clearHeightM } : {}),
    at: door && kind === 'doorway' ? plain(door) : plain(where.p),
    ...(kind !== 'corner' ? { direction: headingAt(samples, at) } : {}),
  };
  const evidence: EdgeEvidence = {
    route: points.map(plain),
    routeLengthM: round4(lengthM),
    straightLengthM: round4(straight),
    samples: samples.map((s) => plain(s.p)),
    sampleWidthM: perSample,
    steps: steps.steps,
    stairs: steps.stairs,
    widthsByHeight: byHeight,
    corner: corner
      ? {
          at: plain(samples[corner.index]!.p),
          turnDeg: Math.round(corner.turnDeg),
          legWidthsByHeight: [corner.legWidthsByHeight[0].map(n4), corner.legWidthsByHeight[1].map(n4)],
        }
      : null,
    door: door ? { at: plain(door) } : null,
    lift: null,
    clearHeight: low ? { heightM: clearHeightM!, at: fine[low.index]!.at } : null,
  };
  return { feature, noRoute: null, evidence, noiseM };
}

const n4 = (w: number | null) => (w === null ? null : round4(w));

/**
 * Doorway, corridor or open passage, from the narrowest stretch of the route: wider than 1.5 m is
 * open; a stretch within 5 cm of the narrowest that is longer than 0.6 m is a corridor.
 */
function passageKind(perSample: readonly (number | null)[], samples: readonly { s: number }[], closedDoor: boolean): { kind: PassageKind; at: number } {
  let m = -1;
  perSample.forEach((w, i) => {
    if (w !== null && (m < 0 || w < perSample[m]!)) m = i;
  });
  if (m < 0) return { kind: closedDoor ? 'doorway' : 'open', at: samples.length >> 1 };
  const limit = perSample[m]! + 0.05;
  let lo = m,
    hi = m;
  while (lo > 0 && (perSample[lo - 1] ?? Infinity) <= limit) lo--;
  while (hi < samples.length - 1 && (perSample[hi + 1] ?? Infinity) <= limit) hi++;
  const centre = samples.findIndex((s) => s.s >= (samples[lo]!.s + samples[hi]!.s) / 2);
  if (closedDoor) return { kind: 'doorway', at: centre };
  if (perSample[m]! >= OPEN_FROM_M) return { kind: 'open', at: centre };
  return { kind: samples[hi]!.s - samples[lo]!.s > DOORWAY_MAX_M ? 'corridor' : 'doorway', at: centre };
}

/** A lift ride: the lift door's clear width from both approaches. */
function measureLift(ctx: MeasureContext, aFloor: Vector3, bFloor: Vector3, box: Box3 | null, straight: number): Omit<MeasuredEdge, 'a' | 'b' | 'measureMs'> {
  const approaches: Vector3[][] = [];
  const samples: WidthSample[] = [];
  let noiseM = 0;
  for (const from of [aFloor, bFloor]) {
    const way = box ? liftApproach(ctx.ref, from, box) : null;
    if (!way) continue;
    approaches.push(way.points);
    const { samples: onRoute, noiseM: n } = sample(ctx, way.points.slice(0, way.doorIndex + 1));
    noiseM = Math.max(noiseM, n);
    const doorFloor = onRoute[onRoute.length - 1]?.floorY ?? from.y;
    append(samples, onRoute);
    // Into the cabin, whose floor is not part of the walkable scan: keep the lobby's floor height.
    for (const f of resample(way.points.slice(way.doorIndex), FLOOR_STEP_M * WIDTH_EVERY).slice(1)) {
      samples.push({ p: new Vector3(f.p.x, doorFloor, f.p.z), floorY: doorFloor, heading: f.heading });
    }
  }
  const grid = measureWidthGrid(ctx.probe, samples);
  const { byHeight, perSample } = widthsOf(ctx, grid, samples);
  const clearWidthM = minOf(byHeight.map((w) => w.widthM));
  const centre = box ? box.getCenter(new Vector3()) : aFloor.clone().lerp(bFloor, 0.5);
  const feature: PassageFeature = { kind: 'lift', ...(clearWidthM !== undefined ? { clearWidthM } : {}), at: plain(centre) };
  const evidence: EdgeEvidence = {
    ...emptyEvidence(straight, null),
    samples: samples.map((s) => plain(s.p)),
    sampleWidthM: perSample,
    widthsByHeight: byHeight,
    lift: { box: box ? { min: plain(box.min), max: plain(box.max) } : null, approaches: approaches.map((w) => w.map(plain)) },
  };
  return { feature, noRoute: null, evidence, noiseM };
}
