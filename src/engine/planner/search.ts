import { MinHeap } from '../../core/minHeap.ts';
import type { PoseSpace } from './poseSpace.ts';

/**
 * A* over the pose lattice (poseSpace.ts). Moves: one lattice step to any of the 8 neighbours
 * keeping the heading, or a turn on the spot by one bin. Straight moves cost their length; a box
 * moving across its heading pays up to `SIDEWAYS_PENALTY` more (so a wheelchair drives along its
 * axis and turns where it has room, as a person would drive it, though sidestepping is allowed); a
 * turn costs what `TURN_COST_M` of travel does. The heuristic is the length of the shortest way to
 * the goal of a disc as wide as the footprint's narrow side (distanceField): the footprint contains
 * that disc, so it never needs less; weighted by `GREED`, the path found is at most that many times
 * a shortest one at this resolution, and where the disc cannot go the footprint is not even tried.
 * When none is found, every reachable pose of the region has been tried: no motion exists at this
 * resolution.
 *
 * `maxExpanded` caps the work (then `found` is false with the path as far as it got).
 *
 * With `exact`, a pose the map is unsure of is put to the exact collider when it is taken from the
 * queue (lazily: only the poses the search really goes through are asked), and dropped if refused.
 */

const SIDEWAYS_PENALTY = 1;
/**
 * The heuristic's weight (weighted A*): a way found is at most this many times as long as the
 * shortest at this resolution. Where a way exists it is found after a small fraction of the poses a
 * shortest one needs — in a 1.2 m ramp the 0.94 m humanoid's search went from 127,000 poses to 930 —
 * and where none exists the search still tries every reachable pose, so deciding "no" is unchanged.
 */
const GREED = 2;
const TURN_COST_M = 0.02;
/** The 8 lattice directions, (da, db) = (DA[d], DB[d]); the first 4 straight, the last 4 diagonal. */
const DA = [1, -1, 0, 0, 1, 1, -1, -1] as const;
const DB = [0, 0, 1, -1, 1, -1, 1, -1] as const;

export interface SearchResult {
  found: boolean;
  /** States from the start to the goal (found), or to the reachable state farthest along the edge's route. */
  path: number[];
  expanded: number;
  /**
   * Per state: 1 when the search went through it (reachable, and accepted when `exact`), 2 when the
   * collider refused it. The pose space's own buffer: valid until its next search.
   */
  closed: Uint8Array;
  /** Per state: the state it was reached from (−1 for a start). The pose space's own buffer, as `closed`. */
  parent: Int32Array;
  /** The states `closed` marks, in the order they were closed. */
  visited: readonly number[];
}

/**
 * A pose space's search arrays, one state each (points × headings: millions for a box agent), made
 * once and cleared after each search of just what it touched: allocating and filling them anew for
 * every search cost more than most searches. They are made zeroed, never filled: `seen` says where
 * `g` and `parent` hold a value, so the pages of a large lattice the search never reaches are never
 * written (filling a fine lattice's arrays with Infinity and −1 cost ~50 ms a space).
 */
interface Buffers {
  g: Float32Array;
  parent: Int32Array;
  seen: Uint8Array;
  closed: Uint8Array;
  touched: number[];
}
const buffers = new WeakMap<PoseSpace, Buffers>();

function buffersOf(space: PoseSpace): Buffers {
  const n = space.points * space.S;
  let b = buffers.get(space);
  if (!b) {
    b = { g: new Float32Array(n), parent: new Int32Array(n), seen: new Uint8Array(n), closed: new Uint8Array(n), touched: [] };
    buffers.set(space, b);
  } else {
    for (const s of b.touched) {
      b.seen[s] = 0;
      b.closed[s] = 0;
    }
    b.touched.length = 0;
  }
  return b;
}

/**
 * Per lattice point, a lower bound on the length of the shortest 8-connected way to `goal` of a disc
 * of radius `radiusM` (Infinity where it cannot get): Dijkstra from the goal. Once the `from` points
 * are settled it stops at twice their distance (and a metre): A* never needs more, and the points
 * left get that frontier distance, which the true length is no shorter than.
 */
export function distanceField(space: PoseSpace, goal: number, radiusM: number, from: readonly number[] = []): Float32Array {
  const { lx, lz, stepM } = space;
  const dist = new Float32Array(space.points).fill(Infinity);
  const settled = new Uint8Array(space.points);
  const fits = new Uint8Array(space.points); // 0 unknown, 1 fits, 2 not
  const heap = new MinHeap();
  dist[goal] = 0;
  heap.push(goal, 0);
  const disc = (p: number) => {
    if (!fits[p]) fits[p] = space.map.discFree(space.x(p), space.z(p), radiusM) ? 1 : 2;
    return fits[p] === 1;
  };
  let waiting = new Set(from).size,
    stopAt = Infinity;
  const wanted = new Uint8Array(space.points);
  for (const p of from) wanted[p] = 1;
  while (heap.size > 0) {
    const p = heap.pop();
    const d = dist[p]!;
    if (settled[p]) continue;
    if (d > stopAt) {
      // Cut off: what is not settled is at least this far (unreached points included: not ruled out).
      for (let q = 0; q < dist.length; q++) if (!settled[q]) dist[q] = d;
      return dist;
    }
    settled[p] = 1;
    if (wanted[p] && --waiting === 0) stopAt = 2 * d + 1;
    const a = p % lx,
      b = (p - a) / lx;
    for (let k = 0; k < 8; k++) {
      const na = a + DA[k]!,
        nb = b + DB[k]!;
      if (na < 0 || nb < 0 || na >= lx || nb >= lz) continue;
      const q = nb * lx + na;
      const nd = d + (k < 4 ? stepM : stepM * Math.SQRT2);
      if (nd >= dist[q]! || !disc(q)) continue;
      dist[q] = nd;
      heap.push(q, nd);
    }
  }
  return dist;
}

/**
 * Search from the given start states to any state at lattice point `goal`. `field` is distanceField's
 * for the footprint's narrow side, or null when that disc cannot reach the goal at all: then no
 * state can either, and the search only maps how far the footprint gets (every reachable state).
 */
export function searchPoses(
  space: PoseSpace,
  starts: readonly number[],
  goal: number | ((p: number, s: number) => boolean),
  field: Float32Array | null,
  { exact = false, maxExpanded = Infinity } = {},
): SearchResult {
  const isGoal = typeof goal === 'number' ? (p: number) => p === goal : goal;
  const { S, K, ANY, lx, lz, stepM } = space;
  const { g, parent, seen, closed, touched } = buffersOf(space);
  const visited: number[] = [];
  const heap = new MinHeap();
  // Where the disc cannot get (field Infinity), nor can the footprint; no field: no estimate. A start
  // is queued as any other state, at GREED times its estimate: at the estimate alone, the many starts
  // of a bridge (every pose reached before the bottleneck) all came out before any state one step
  // closer to the goal, and a way across cost ~40,000 expansions instead of ~9,000.
  for (const s of starts) {
    if (!seen[s]) touched.push(s);
    seen[s] = 1;
    g[s] = 0;
    parent[s] = -1;
    heap.push(s, Math.min(field ? GREED * field[Math.floor(s / S)]! : 0, 1e9));
  }
  const box = ANY >= 0;
  // Per direction d and heading k (d·K + k): how far across its heading the move takes a box.
  const sinOff = new Float64Array(8 * Math.max(1, K));
  if (box) for (let d = 0; d < 8; d++) for (let k = 0; k < K; k++) sinOff[d * K + k] = Math.abs(Math.sin(Math.atan2(DA[d]!, DB[d]!) - space.yaw(k)));
  const lens = [stepM, stepM, stepM, stepM, stepM * Math.SQRT2, stepM * Math.SQRT2, stepM * Math.SQRT2, stepM * Math.SQRT2];
  let expanded = 0,
    best = starts[0] ?? -1,
    bestProgress = -Infinity;

  /** Reach state `to` from `from` at `cost` more, when that is shorter than known and the footprint may get to the goal from there. */
  const relax = (from: number, to: number, cost: number) => {
    const ng = g[from]! + cost;
    if (seen[to] && ng >= g[to]!) return;
    const h = field ? field[Math.floor(to / S)]! : 0;
    if (h === Infinity) return;
    if (!seen[to]) {
      touched.push(to);
      seen[to] = 1;
    }
    g[to] = ng;
    parent[to] = from;
    heap.push(to, ng + GREED * h);
  };

  while (heap.size > 0 && expanded < maxExpanded) {
    const s = heap.pop();
    if (closed[s]) continue;
    closed[s] = 1;
    visited.push(s);
    expanded++;
    const p = Math.floor(s / S),
      k = s - p * S;
    // A pose the collider refuses is dropped: marked 2, not reached.
    if (exact && k !== ANY && !space.exactFree(p, k)) {
      closed[s] = 2;
      continue;
    }
    const pr = space.progress(p);
    if (pr > bestProgress) {
      bestProgress = pr;
      best = s;
    }
    if (isGoal(p, s)) return { found: true, path: tracePath(parent, s), expanded, closed, parent, visited };
    const a = p % lx,
      b = (p - a) / lx;
    for (let d = 0; d < 8; d++) {
      const na = a + DA[d]!,
        nb = b + DB[d]!;
      if (na < 0 || nb < 0 || na >= lx || nb >= lz) continue;
      const q = nb * lx + na;
      const len = lens[d]!;
      if (!box) {
        if (space.free(q, 0)) relax(s, q, len);
        continue;
      }
      if (space.spins(q)) {
        relax(s, q * S + ANY, k === ANY ? len : len * (1 + SIDEWAYS_PENALTY * sinOff[d * K + k]!));
        continue;
      }
      if (k === ANY) {
        for (let kk = 0; kk < K; kk++) if (space.free(q, kk)) relax(s, q * S + kk, len * (1 + SIDEWAYS_PENALTY * sinOff[d * K + kk]!));
      } else if (space.free(q, k)) relax(s, q * S + k, len * (1 + SIDEWAYS_PENALTY * sinOff[d * K + k]!));
    }
    if (box && k !== ANY) {
      // A turn on the spot by one bin, either way.
      const up = (k + 1) % K,
        down = (k + K - 1) % K;
      if (space.free(p, up)) relax(s, p * S + up, TURN_COST_M);
      if (space.free(p, down)) relax(s, p * S + down, TURN_COST_M);
    }
  }
  return { found: false, path: best >= 0 ? tracePath(parent, best) : [], expanded, closed, parent, visited };
}

/** The states from a start to `s`, by the parents a search left. */
export function tracePath(parent: Int32Array, s: number): number[] {
  const out: number[] = [];
  for (let t = s; t >= 0; t = parent[t]!) out.push(t);
  return out.reverse();
}
