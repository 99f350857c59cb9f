import type { PoseSpace } from './poseSpace.ts';
import { searchPoses, tracePath, type SearchResult } from './search.ts';

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
 * The lattices are aligned (poseSpace.ts): fine point (2a, 2b) is coarse point (a, b), and both have
 * the same heading bins, so states map one to one.
 */

const BEFORE_M = 1.5;
const AFTER_M = 3.0;
const PAST_M = 1.5;

export interface Bridge {
  /** The coarse path from the start to where the fine one begins. */
  before: number[];
  /** The fine path across. */
  across: number[];
  /** The coarse state where the fine path ends. */
  exit: number;
  expanded: number;
}

export function bridge(
  coarse: PoseSpace,
  stuck: SearchResult,
  fine: PoseSpace,
  guide: readonly { x: number; z: number }[],
  radiusM: number,
  goal: number,
): Bridge | null {
  const last = stuck.path[stuck.path.length - 1];
  if (last === undefined || fine.stepCells * 2 !== coarse.stepCells || fine.K !== coarse.K) return null;
  const sStuck = coarse.progress(Math.floor(last / coarse.S));
  const near = guide.filter((p) => {
    const s = fine.progress(fine.nearest(p.x, p.z));
    return s >= sStuck - BEFORE_M && s <= sStuck + AFTER_M;
  });
  if (near.length === 0) return null;
  fine.restrictTo(near, radiusM);

  const toFine = (p: number) => 2 * Math.floor(p / coarse.lx) * fine.lx + 2 * (p % coarse.lx);
  const sources: number[] = [];
  const sourceOf = new Map<number, number>();
  for (const s of stuck.visited) {
    if (stuck.closed[s] !== 1) continue;
    const p = Math.floor(s / coarse.S),
      k = s - p * coarse.S;
    if (coarse.progress(p) > sStuck) continue;
    const f = toFine(p);
    if (k === coarse.ANY ? !fine.spins(f) : !fine.free(f, k)) continue;
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
    return a % 2 === 0 && b % 2 === 0 && fine.progress(f) >= sStuck + PAST_M;
  };
  // First over every pose the map does not rule out (no collider call): when even that finds no
  // way across, none exists at this resolution, and the collider need not be asked at all.
  // Headed for the far side: how far along the route a point still is from the exit line. Where a
  // way exists it is found after a fraction of the window's poses; where none does, every reachable
  // pose is still tried.
  const short = fine.shortOf(sStuck + PAST_M);
  const rough = searchPoses(fine, sources, exitOk, short);
  if (!rough.found) return null;
  const res = searchPoses(fine, sources, exitOk, short, { exact: true });
  if (!res.found) return null;
  const end = res.path[res.path.length - 1]!;
  const fp = Math.floor(end / fine.S),
    k = end - fp * fine.S;
  const a = fp % fine.lx,
    b = (fp - a) / fine.lx;
  const exit = ((b / 2) * coarse.lx + a / 2) * coarse.S + k;
  return { before: tracePath(stuck.parent, sourceOf.get(res.path[0]!)!), across: res.path, exit, expanded: res.expanded };
}
