import type { ScoredRecord } from '../../../core/scoring/paper/types.ts';
import type { PathPreview } from '../../../state/store.ts';

export type HopState = PathPreview['hops'][number]['state'];
export const STATE_LABEL: Record<HopState, string> = {
  traversable: 'traversable',
  blocked: 'not traversable',
  unlabelled: 'unlabelled',
  invalid: 'no such edge',
};

export function hopState(h: ScoredRecord['hops'][number]): HopState {
  if (!h.isEdge) return 'invalid';
  return h.traversable === true ? 'traversable' : h.note === undefined ? 'unlabelled' : 'blocked';
}

/** Why a hop is or is not traversable for the agent, in words: its state and the label's note. */
export function hopReason(h: ScoredRecord['hops'][number], agent: string): string {
  const st = hopState(h);
  if (st === 'invalid') return h.from && h.to ? 'no such edge: the two nodes are not connected in the graph' : 'a node of this hop is not in the graph';
  if (st === 'unlabelled') return `unlabelled for ${agent} (counts as not traversable)`;
  return `${STATE_LABEL[st]} for ${agent}${h.note ? `: ${h.note}` : ''}`;
}

/** How far above the highest floor of the route the view is cut, and how far below its lowest floor things are hidden. */
const ABOVE = 1.6,
  BELOW = 0.5;

/**
 * The slice that shows a route's floors and no others: cut above the highest floor it touches,
 * floors below its lowest hidden. `heights`: the route's node heights (world Y); `floors`: the
 * scene's floor heights, ascending. Null when there is nothing to slice by.
 */
export function routeSlice(heights: readonly number[], floors: readonly number[]): { on: boolean; height: number; below: number | null } | null {
  if (!heights.length || !floors.length) return null;
  const floorOf = (h: number) => {
    let best = 0;
    floors.forEach((f, k) => {
      if (f <= h + BELOW) best = k;
    });
    return best;
  };
  const ks = heights.map(floorOf);
  const lo = Math.min(...ks),
    hi = Math.max(...ks);
  return {
    on: true,
    height: Math.max(floors[hi]! + ABOVE, ...heights.map((h) => h + 0.1)),
    below: lo > 0 ? Math.min(floors[lo]! - BELOW, ...heights.map((h) => h - 0.1)) : null,
  };
}

/**
 * The nodes to frame: the model's route (and the compared model's), the question's start and end;
 * a route that names no node falls back to the ground-truth route, then to the two ends.
 */
export function frameNodes(rec: ScoredRecord, other: ScoredRecord | null, gtRoute: readonly string[] | null): string[] {
  const ids = new Set<string>();
  for (const r of [rec, other]) for (const id of r?.pathIds ?? []) if (id) ids.add(id);
  for (const id of [rec.src, rec.tgt]) if (id) ids.add(id);
  if (ids.size < 2) for (const id of gtRoute ?? []) ids.add(id);
  return [...ids];
}
