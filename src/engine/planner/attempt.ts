import type { AgentProfile } from '../../core/agents.ts';
import { keyedMemo } from '../../core/keyedMemo.ts';
import type { Vec3 } from '../../core/graph.ts';
import { footprintOf } from '../collider/footprint.ts';
import { AgentMap, type AgentSpec } from './agentMap.ts';
import { motionOf, type PlanPose } from './motion.ts';
import { PoseSpace, type CellWindow, type ExactFit } from './poseSpace.ts';
import { distanceField, searchPoses, type SearchResult } from './search.ts';
import type { Terrain } from '../terrain/terrain.ts';

/** Lattice step in grid cells (2 × 1 cm) and heading bins over 180° (5° each). */
export const STEP_CELLS = 2;
export const HEADINGS = 36;
/** How far from a node its agent may be set down when the node itself is too tight for it. */
export const SNAP_M = 0.5;
/**
 * The exact pass may take this many times the optimistic pass's work (and at least this much). Of
 * every exact pass that found its way on the scan-like and the small house (280 segments, both ways)
 * the longest took 2,682 poses; one that has not found it by 3,000 is at a bottleneck for the 1 cm
 * bridge, and each pose more asks the collider about one in four (the quadruped at the L-corner:
 * 1,475 calls at 6,000, 860 at 3,000, the same bridge and answer after).
 */
const EXACT_OVER_ROUGH = 1.5;
const EXACT_MIN_EXPANDED = 3_000;

/** The map's view of an agent: its footprint as the collider inflates it, its limits and abilities. */
export function specOf(profile: AgentProfile): AgentSpec {
  const fp = footprintOf(profile);
  return {
    shape: fp.shape === 'box' ? 'box' : 'disc',
    halfWidthM: fp.halfWidthM,
    halfDepthM: fp.halfDepthM,
    heightM: profile.heightM,
    stepLimitM: fp.stepLimitM,
    doorsOpen: profile.canOpenDoors,
    stairs: profile.canUseStairs,
  };
}

/** One search for one agent over one terrain, from node a to node b (world). */
export interface Attempt {
  space: PoseSpace;
  result: SearchResult;
  /** Lattice points the search ran between (−1 for a start where the agent fits nowhere near). */
  start: number;
  goal: number;
}

/**
 * Make the pose space of an agent on a terrain; `exact` answers the poses the map is unsure of;
 * `backwards` when the agent drives the terrain's route from its far end (progress counts from there);
 * `window` to cover only those cells of the terrain.
 */
export function poseSpaceOf(
  terrain: Terrain,
  profile: AgentProfile,
  exact: ExactFit | null,
  stepCells = STEP_CELLS,
  backwards = false,
  window: CellWindow | null = null,
): PoseSpace {
  return new PoseSpace(agentMapOf(terrain, specOf(profile)), stepCells, HEADINGS, exact, backwards, window);
}

/**
 * The agent map of a spec on a terrain, made once: the coarse and the fine lattice of a drive, and
 * the diagnosis's agents that restore the same constraints, share it (and its distance transform,
 * the costliest part of a map) instead of each building its own.
 */
const maps = keyedMemo<Terrain, AgentMap>();
const agentMapOf = (terrain: Terrain, spec: AgentSpec): AgentMap => maps(terrain, JSON.stringify(spec), () => new AgentMap(terrain, spec));

/** A disc as wide as the agent's narrow side: a box contains it at every heading. */
export function narrowDisc(profile: AgentProfile): AgentProfile {
  const box = profile.shape === 'box' && profile.depthM !== null;
  return { ...profile, shape: 'cylinder', widthM: box ? Math.min(profile.widthM, profile.depthM!) : profile.widthM, depthM: null };
}

/**
 * Search in two passes: first over every pose the map does not rule out (cheap; finding nothing
 * settles it: no motion exists), then, when that found a way, again with the unsure poses put to
 * the exact collider, so a way found is one the collider accepts pose by pose.
 */
export function attempt(space: PoseSpace, a: Vec3, b: Vec3, { explore = false } = {}): Attempt {
  const start = space.snap(a.x, a.z, SNAP_M);
  const snapped = space.snap(b.x, b.z, SNAP_M);
  const goal = snapped >= 0 ? snapped : space.nearest(b.x, b.z);
  if (start < 0 || goal < 0) {
    const none = new Uint8Array(0);
    return { space, start, goal, result: { found: false, path: [], expanded: 0, closed: none, parent: new Int32Array(0), visited: [] } };
  }
  return { space, start, goal, result: searchFrom(space, space.statesAt(start), goal, { explore }) };
}

/**
 * The two passes (see attempt) from given start states. When even the disc of the agent's narrow
 * side cannot get there, nothing is searched — unless `explore`, which maps every reachable state
 * to say how far the agent gets (cheap for a disc, which has one state per point).
 */
export function searchFrom(space: PoseSpace, starts: readonly number[], goal: number, { explore = false } = {}): SearchResult {
  const { halfWidthM, halfDepthM } = space.map.spec;
  // Shrunk by the map's margin of doubt, so the disc never rules out a pose the collider would accept.
  const points = starts.map((s) => Math.floor(s / space.S));
  const field = distanceField(space, goal, Math.max(0, Math.min(halfWidthM, halfDepthM) - space.sureM), points);
  // When the disc cannot get there from any start, nor can the footprint.
  const hopeless = points.every((p) => field[p] === Infinity);
  if (hopeless && !explore) return { found: false, path: starts.slice(0, 1), expanded: 0, closed: new Uint8Array(0), parent: new Int32Array(0), visited: [] };
  const heuristic = hopeless ? null : field;
  const rough = searchPoses(space, starts, goal, heuristic);
  if (!rough.found || !space.exactAvailable) return rough;
  // Where the collider refuses the way the map let through, the band left is finer than the lattice:
  // searching on at this resolution would map the whole region for nothing. The pass stops, with
  // what it reached, for a finer search across the bottleneck (bridge.ts).
  const exact = searchPoses(space, starts, goal, heuristic, { exact: true, maxExpanded: Math.max(EXACT_MIN_EXPANDED, EXACT_OVER_ROUGH * rough.expanded) });
  return { ...exact, expanded: rough.expanded + exact.expanded };
}

/**
 * As far as the agent gets towards a point (world) in at most `maxExpanded` expansions: for
 * showing where it is stopped when its own search had nothing to search.
 */
export function towards(space: PoseSpace, a: Vec3, to: Vec3, maxExpanded: number): Attempt {
  const start = space.snap(a.x, a.z, SNAP_M);
  const goal = space.nearest(to.x, to.z);
  if (start < 0 || goal < 0)
    return { space, start, goal, result: { found: false, path: [], expanded: 0, closed: new Uint8Array(0), parent: new Int32Array(0), visited: [] } };
  const field = distanceField(space, goal, 0, [start]);
  return { space, start, goal, result: searchPoses(space, space.statesAt(start), goal, field, { maxExpanded }) };
}

/** The path's lattice points as plan points (every lattice step). */
export function pathPoints(at: Attempt): { x: number; z: number }[] {
  const { space } = at;
  return at.result.path.map((s) => {
    const p = Math.floor(s / space.S);
    return { x: space.x(p), z: space.z(p) };
  });
}

export function motionOfAttempt(at: Attempt, smooth = true): PlanPose[] {
  return motionOf(at.space, at.result.path, { smooth });
}
