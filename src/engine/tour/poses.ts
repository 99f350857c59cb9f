import { Matrix4, Vector3 } from 'three';
import type { NavGraph } from '../../core/graph.ts';
import { settingsProblem, type TourSettings } from '../../core/tour/settings.ts';
import type { NodeInView, TourPose, TourPoses } from '../../core/tour/types.ts';
import { IN_VIEW_DEFAULTS, inFrustum, intervalsOf, round, type InViewOptions, type P3 } from '../../core/tour/view.ts';
import { Polyline, WALK_DEFAULTS, walkRoute, type Gaze, type WalkFrame, type WalkSettings } from '../../core/tour/walk.ts';
import { castRay, newRayHit } from '../rays/cast.ts';
import { scanSurface, type Surface } from '../rays/surface.ts';
import type { LoadedMesh } from '../mesh/types.ts';
import { floorProfile } from '../suggest/route.ts';
import { tourRoute, type TourRoute } from './route.ts';
import { append } from '../../core/arrays.ts';

/**
 * The touring camera's poses: the walk along the route (core/tour/walk.ts), each frame's eye put
 * `eyeHeightM` above the floor under it (a ray down on the scan, following the floor from frame to
 * frame as the suggestions' probes do, so stairs are climbed), and the times each node is in view —
 * inside the picture and not hidden behind the scan (a ray from the eye to the node).
 */

export { TOUR_DEFAULTS, type TourSettings } from '../../core/tour/settings.ts';

/** A frame as the renderer needs it: the eye in the world (Y up, metres), yaw and pitch in radians. */
export interface WorldPose {
  t: number;
  eye: P3;
  yawRad: number;
  pitchRad: number;
}

export interface TourPlan {
  /** The poses document (positions in the scan's own frame). */
  poses: TourPoses;
  /** The same frames in the world, for the renderer. */
  world: WorldPose[];
  /** Node ids in visiting order (automatic tours). */
  order: string[];
  /** Legs not walked: the video cuts there (their times are in the poses' `cuts`). */
  skippedLegs: TourRoute['skippedLegs'];
  /** Nodes the camera never shows (hidden from every point of the route it can look from). */
  unseen: string[];
}

type Nodes = Pick<NavGraph, 'nodes'>;

/** The automatic tour of every node. */
export async function planTour(loaded: LoadedMesh, graph: Nodes, settings: TourSettings): Promise<TourPlan> {
  check(settings);
  const route = await tourRoute(loaded, graph);
  const surface = scanSurface(loaded);
  const walk: WalkSettings = {
    ...WALK_DEFAULTS,
    fps: settings.fps,
    ...(settings.paceMps ? { paceMps: settings.paceMps } : {}),
    ...(settings.yawRateDegPerS ? { yawRateDegPerS: settings.yawRateDegPerS } : {}),
  };
  const first = finish(
    loaded,
    surface,
    graph,
    walkRoute(route.points, walk, settings.eyeHeightM, [], route.cuts),
    settings,
    cutsOf(route, new Polyline(route.points, route.cuts)),
  );
  const missed = first.poses.nodesInView.filter((n) => n.intervals.length === 0).map((n) => n.node);
  if (missed.length === 0) return { ...first, order: route.order, skippedLegs: route.skippedLegs };

  // Walk again, looking at each missed node from the stretch before it where nothing hides it.
  let points = route.points;
  let cuts = route.cuts;
  let shift = 0;
  const gazes: Gaze[] = [];
  if (missed.includes(route.order[0]!)) {
    // The tour starts on the first node, which a camera standing on it cannot show: come to it
    // first, back along the start of the first leg.
    const line = new Polyline(points, route.cuts);
    const back = Math.min(3, line.length / 2);
    const approach: P3[] = [];
    for (let s = back; s > 0; s -= 0.25) approach.push(line.at(s));
    points = [...approach, ...points];
    cuts = new Set([...route.cuts].map((i) => i + approach.length));
    shift = new Polyline(points, cuts).length - line.length;
  }
  const line = new Polyline(points, cuts);
  for (const node of missed) {
    const target = route.nodeWorld.get(node)!;
    const visitS = node === route.order[0] ? shift : (route.legs.find((l) => l.to === node)?.toS ?? 0) + shift;
    const startS = node === route.order[0] ? 0 : (route.legs.find((l) => l.to === node)?.fromS ?? 0) + shift;
    const window = sightWindow(surface, line, target, Math.max(startS, visitS - 6), visitS, settings.eyeHeightM);
    if (window) gazes.push({ target, ...window });
  }
  const second = finish(loaded, surface, graph, walkRoute(points, walk, settings.eyeHeightM, gazes, cuts), settings, cutsOf(route, line));
  return { ...second, order: route.order, skippedLegs: route.skippedLegs };
}

/** A path walked by hand (walk view): the camera as recorded, at `settings.fps`, put on the floor. */
export function planRecordedTour(loaded: LoadedMesh, graph: Nodes, samples: readonly WorldPose[], settings: TourSettings): TourPlan {
  check(settings);
  if (samples.length === 0) throw new Error('nothing was recorded: walk in the walk view (F) while recording');
  const t0 = samples[0]!.t,
    end = samples[samples.length - 1]!.t - t0;
  const frames: WalkFrame[] = [];
  let j = 0;
  for (let k = 0; k <= Math.floor(end * settings.fps + 1e-9); k++) {
    const t = k / settings.fps;
    while (j < samples.length - 1 && samples[j + 1]!.t - t0 <= t) j++;
    const a = samples[j]!;
    // The walk view's camera does not follow floors: its height only hints where the floor is.
    frames.push({ t: round(t), at: { x: a.eye.x, y: a.eye.y - settings.eyeHeightM, z: a.eye.z }, s: 0, yawRad: a.yawRad, pitchRad: a.pitchRad });
  }
  const done = finish(loaded, scanSurface(loaded), graph, frames, settings, []);
  return { ...done, order: [], skippedLegs: [] };
}

function check(s: TourSettings): void {
  const problem = settingsProblem(s);
  if (problem) throw new Error(problem);
}

/** The route's skipped legs as cuts, each at the distance walked where the walked line cuts (skipped legs and the line's cuts come in one order). */
function cutsOf(route: TourRoute, line: Polyline): { s: number; from: string; to: string; why: string }[] {
  return route.legs.filter((l) => l.skipped).map((l, k) => ({ s: line.cutS[k]!, from: l.from, to: l.to, why: l.why ?? 'no walkable route' }));
}

/** Eyes on the floor, the poses document and what each node's view is. */
function finish(
  loaded: LoadedMesh,
  surface: Surface,
  graph: Nodes,
  frames: readonly WalkFrame[],
  settings: TourSettings,
  cuts: readonly { s: number; from: string; to: string; why: string }[],
): Omit<TourPlan, 'order' | 'skippedLegs'> {
  // The floor is followed from frame to frame, and picked up afresh after a cut (the next room may be on another storey).
  const floors: number[] = [];
  let piece: WalkFrame[] = [];
  const flush = () => {
    append(
      floors,
      floorProfile(
        surface,
        piece.map((f) => new Vector3(f.at.x, f.at.y, f.at.z)),
      ),
    );
    piece = [];
  };
  for (const [k, f] of frames.entries()) {
    if (k > 0 && cuts.some((c) => frames[k - 1]!.s < c.s && f.s >= c.s)) flush();
    piece.push(f);
  }
  flush();
  // A cut's time: the first frame at or past it.
  const cutTimes = cuts.map((c) => ({ t: frames.find((f) => f.s >= c.s)?.t ?? frames[frames.length - 1]?.t ?? 0, from: c.from, to: c.to, why: c.why }));
  const world: WorldPose[] = frames.map((f, k) => ({
    t: f.t,
    eye: { x: f.at.x, y: floors[k]! + settings.eyeHeightM, z: f.at.z },
    yawRad: f.yawRad,
    pitchRad: f.pitchRad,
  }));
  const toScan = new Matrix4().copy(loaded.frame).invert();
  const v = new Vector3();
  const deg = (rad: number) => round((rad * 180) / Math.PI);
  const frameList: TourPose[] = world.map((w) => {
    v.set(w.eye.x, w.eye.y, w.eye.z).applyMatrix4(toScan);
    return { t: w.t, position: { x: round(v.x), y: round(v.y), z: round(v.z) }, yawDeg: deg(w.yawRad), pitchDeg: deg(w.pitchRad) };
  });
  const lens = { fovDeg: settings.fovDeg, aspect: settings.width / settings.height };
  const opts: InViewOptions = { ...IN_VIEW_DEFAULTS, ...(settings.maxViewDistanceM ? { maxDistanceM: settings.maxViewDistanceM } : {}) };
  const nodesInView: NodeInView[] = graph.nodes.map((n) => {
    const p = v.set(n.position.x, n.position.y, n.position.z).applyMatrix4(loaded.frame).clone();
    const seen = world.map((w) => inFrustum({ eye: w.eye, yawRad: w.yawRad, pitchRad: w.pitchRad }, lens, p, opts) && unhidden(surface, w.eye, p));
    return { node: n.id, intervals: intervalsOf(seen, settings.fps) };
  });
  const up = isZUp(loaded.frame) ? 'z' : 'y';
  return {
    poses: {
      fps: settings.fps,
      fovDeg: settings.fovDeg,
      eyeHeightM: settings.eyeHeightM,
      width: settings.width,
      height: settings.height,
      up,
      frames: frameList,
      nodesInView,
      ...(cutTimes.length ? { cuts: cutTimes } : {}),
    },
    world,
    unseen: nodesInView.filter((n) => n.intervals.length === 0).map((n) => n.node),
  };
}

/** The scan's up axis, read back from its frame (a Z-up scan's +Z becomes the world's +Y). */
function isZUp(frame: Matrix4): boolean {
  const e = frame.elements;
  // Column 2 is where the scan's Z goes; for a Z-up scan it points up.
  return Math.abs(e[9]!) > Math.abs(e[5]!);
}

/** Closer than this to the point, a hit is the point's own surface, not something in front of it. */
const NEAR_POINT_M = 0.05;
const hit = newRayHit();
const dir = new Vector3();
const from = new Vector3();

/** Nothing of the scan between the eye and the point. */
export function unhidden(surface: Surface, eye: P3, p: P3): boolean {
  dir.set(p.x - eye.x, p.y - eye.y, p.z - eye.z);
  const dist = dir.length();
  if (dist < 1e-6) return true;
  dir.divideScalar(dist);
  const h = castRay(surface, from.set(eye.x, eye.y, eye.z), dir, dist, hit);
  return !h || h.distance >= dist - NEAR_POINT_M;
}

/**
 * The stretch of the route nearest before the visit from which the node can be seen (nothing in
 * between, at least 0.5 m away on the plan), or null.
 */
function sightWindow(surface: Surface, line: Polyline, target: P3, fromS: number, toS: number, eye: number): { fromS: number; toS: number } | null {
  let end = -1,
    start = -1;
  for (let s = toS; s >= fromS; s -= 0.2) {
    const p = line.at(s);
    const ok = Math.hypot(target.x - p.x, target.z - p.z) >= 0.5 && unhidden(surface, { x: p.x, y: p.y + eye, z: p.z }, target);
    if (ok && end < 0) end = s;
    if (ok) start = s;
    else if (end >= 0) break;
  }
  return end < 0 ? null : { fromS: Math.max(0, start - 0.5), toS: end };
}
