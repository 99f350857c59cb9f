import type { CellWindow, PoseSpace } from './poseSpace.ts';
import { searchPoses, tracePath, type SearchResult } from './search.ts';
import { planBoundsOf } from '../terrain/grid.ts';

/**
 * Across a bottleneck at the map's own centimetre. A box that turns where the way is only a
 * centimetre or two wider than it needs at one heading (an L-shaped corner) has a band of poses
 * there narrower than the 2 cm lattice's spacing. Searching the whole region at 1 cm costs 4× the
 * points; a window round the place the coarse search got stuck does not:
 *
 * - the window: fine lattice points within `radiusM` of the stretch of a guide path (the way of a
 *   disc as wide as the agent) from 1.5 m before the stuck point to 3 m after it;
 * - the search starts from every pose the coarse search reached in the window up to the stuck
 *   point (they are reachable from the start), and ends on any fine point that is also a coarse
 *   one, 1.5 m or more past the stuck point (or at the goal);
 * - the coarse search then carries on from there.
 *
 * The fine lattice covers the window's cells only (poseSpace.ts `window`). The lattices are aligned:
 * fine points on even cells are coarse points, and both have the same heading bins, so states map
 * one to one.
 */

const BEFORE_M = 1.5;
const AFTER_M = 3.0;
const PAST_M = 1.5;
/**
 * Rough searches tried before the exhaustive exact one. After each, the collider is asked about the
 * poses of the way found and nothing else; those it refuses the next rough search cannot use. A
 * rough search that finds nothing proves there is no way; one whose poses the collider all accepts
 * is the way. The exact search asks about every unsure pose it reaches — ~29,000 collider calls
 * (~3 s) to refuse the wheelchair at the scan-like L-corner from the utility room.
 */
const LAZY_ROUNDS = 8;

export interface Bridge {
  /** The coarse path from the start to where the fine one begins. */
  before: number[];
  /** The fine lattice it crossed on, and the fine path across. */
  fine: PoseSpace;
  across: number[];
  /** The coarse state where the fine path ends. */
  exit: number;
  expanded: number;
}

/** Makes the fine lattice (1 cm) over a window of the terrain's cells. */
export type FineOf = (window: CellWindow) => PoseSpace;

export function bridge(
  coarse: PoseSpace,
  stuck: SearchResult,
  fineOf: FineOf,
  guide: readonly { x: number; z: number }[],
  radiusM: number,
  goal: number,
): Bridge | null {
  const last = stuck.path[stuck.path.length - 1];
  if (coarse.i0 !== 0 || coarse.j0 !== 0) throw new Error('planner: the coarse lattice of a bridge must cover the whole region');
  if (last === undefined) return null;
  const sStuck = coarse.progress(Math.floor(last / coarse.S));
  const near = guide.filter((p) => {
    const s = coarse.progress(coarse.nearest(p.x, p.z));
    return s >= sStuck - BEFORE_M && s <= sStuck + AFTER_M;
  });
  if (near.length === 0) return null;
  // The fine lattice covers the window's cells only: the guide's stretch and `radiusM` round it.
  const g = coarse.map.terrain.region.grid;
  const { minX, maxX, minZ, maxZ } = planBoundsOf(near);
  const i0 = Math.max(0, Math.floor((minX - radiusM - g.x0) / g.cellM) - 1),
    j0 = Math.max(0, Math.floor((minZ - radiusM - g.z0) / g.cellM) - 1),
    i1 = Math.min(g.nx - 1, Math.ceil((maxX + radiusM - g.x0) / g.cellM) + 1),
    j1 = Math.min(g.nz - 1, Math.ceil((maxZ + radiusM - g.z0) / g.cellM) + 1);
  const fine = fineOf({ i0, j0, ni: i1 - i0 + 1, nj: j1 - j0 + 1 });
  if (fine.stepCells * 2 !== coarse.stepCells || fine.K !== coarse.K)
    throw new Error('planner: a bridge needs a lattice of half the coarse step with its heading bins');
  fine.restrictTo(near, radiusM);

  // Coarse point (a, b) stands on cell (2a, 2b); fine point (a', b') on cell (i0 + a', j0 + b').
  const toFine = (p: number) => {
    const a = 2 * (p % coarse.lx) - fine.i0,
      b = 2 * Math.floor(p / coarse.lx) - fine.j0;
    return a < 0 || b < 0 || a >= fine.lx || b >= fine.lz ? -1 : b * fine.lx + a;
  };
  const sources: number[] = [];
  const sourceOf = new Map<number, number>();
  for (const s of stuck.visited) {
    if (stuck.closed[s] !== 1) continue;
    const p = Math.floor(s / coarse.S),
      k = s - p * coarse.S;
    if (coarse.progress(p) > sStuck) continue;
    const f = toFine(p);
    if (f < 0 || (k === coarse.ANY ? !fine.spins(f) : !fine.free(f, k))) continue;
    const fs = f * fine.S + k;
    sources.push(fs);
    sourceOf.set(fs, s);
  }
  if (sources.length === 0) return null;
  const fineGoal = toFine(goal);
  const exitOk = (f: number) => {
    if (f === fineGoal) return true;
    const a = f % fine.lx,
      b = (f - a) / fine.lx;
    return (fine.i0 + a) % 2 === 0 && (fine.j0 + b) % 2 === 0 && fine.progress(f) >= sStuck + PAST_M;
  };
  // First over every pose the map does not rule out (no collider call): when even that finds no
  // way across, none exists at this resolution, and the collider need not be asked at all.
  // Headed for the far side: how far along the route a point still is from the exit line. Where a
  // way exists it is found after a fraction of the window's poses; where none does, every reachable
  // pose is still tried.
  const short = fine.shortOf(sStuck + PAST_M);
  const roughWay = roughSearch(fine, sources, exitOk, short, sStuck);
  let res: SearchResult | null = null;
  let expanded = 0;
  for (let round = 0; round < LAZY_ROUNDS && !res; round++) {
    const rough = roughWay();
    expanded += rough.expanded;
    if (!rough.found) return null;
    // The collider asked about the rough way's poses alone: all accepted, it is the way across.
    // Every pose of it, not up to the first refused: each refusal is one less way for the next round.
    let accepted = true;
    for (const s of rough.path) if (!exactOn(fine, s)) accepted = false;
    if (accepted) res = rough;
  }
  res ??= searchPoses(fine, sources, exitOk, short, { exact: true });
  expanded += res.expanded;
  if (!res.found) return null;
  const end = res.path[res.path.length - 1]!;
  const fp = Math.floor(end / fine.S),
    k = end - fp * fine.S;
  const a = fp % fine.lx,
    b = (fp - a) / fine.lx;
  const exit = (((fine.j0 + b) / 2) * coarse.lx + (fine.i0 + a) / 2) * coarse.S + k;
  return { before: tracePath(stuck.parent, sourceOf.get(res.path[0]!)!), fine, across: res.path, exit, expanded };
}

/**
 * The rough rounds' search, from the end with fewer points to start from. Proving there is no way
 * means trying every pose reachable from where the search starts; the moves are reversible (a step
 * back costs what the step forth did, a turn either way the same), so a search from the exits to
 * any source finds the same ways, reversed, and proves "none" over the poses reachable from the
 * far side instead. The two differ by orders: from the utility room round the L-corner the
 * wheelchair's 33,000 sources reach 133,000 poses, the 600 exit poses on the corridor's side 3,500;
 * the other way round it is the reverse. A start the collider has since refused starts nothing.
 */
export function roughSearch(
  fine: PoseSpace,
  sources: readonly number[],
  exitOk: (f: number) => boolean,
  short: Float32Array,
  sStuck: number,
): () => SearchResult {
  const usable = (s: number) => {
    const p = Math.floor(s / fine.S),
      k = s - p * fine.S;
    return k === fine.ANY ? fine.spins(p) : fine.free(p, k);
  };
  // Exit points where the disc of the footprint's narrow side fits (one clearance read each): where
  // the footprint may stand at some heading, as every source can.
  const { halfWidthM, halfDepthM } = fine.map.spec;
  const narrow = Math.max(0, Math.min(halfWidthM, halfDepthM) - fine.sureM);
  const exits: number[] = [];
  for (let f = 0; f < fine.points; f++) if (fine.inWindow(f) && exitOk(f) && fine.map.discFree(fine.x(f), fine.z(f), narrow)) exits.push(f);
  const sourcePoints = new Set(sources.map((s) => Math.floor(s / fine.S))).size;
  if (exits.length >= sourcePoints) return () => searchPoses(fine, sources.filter(usable), exitOk, short);
  const isSource = new Set(sources);
  const seeds = exits.flatMap((f) => fine.statesAt(f));
  const past = fine.shortOf(sStuck, true);
  return () => {
    const back = searchPoses(fine, seeds.filter(usable), (_p, s) => isSource.has(s), past);
    return { ...back, path: back.path.reverse() };
  };
}

/** Whether the collider accepts state s (a turn-anywhere state is the map's own sure answer). */
function exactOn(space: PoseSpace, s: number): boolean {
  const p = Math.floor(s / space.S),
    k = s - p * space.S;
  return k === space.ANY || space.exactFree(p, k);
}
