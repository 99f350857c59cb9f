import { addTo, emptyTally, metricSet, type Tally } from './metrics.ts';
import type { PathLengthBucket, ScoredRecord, Weights } from './types.ts';

/** Routes this many hops long or longer share the last bucket. */
export const LONGEST_BUCKET = 6;

/**
 * Score by path length: the scored records grouped by the hops of the shortest route on the
 * graph between the task's start and end, whatever the agent (the task's length, not the model's
 * route), 1 … 5, then 6 or more, then start and end not connected; each group's metrics as the
 * headline's (pooled). Only groups with records.
 */
export function byPathLength(records: readonly ScoredRecord[], hopsOf: (r: ScoredRecord) => number | null, weights: Weights): PathLengthBucket[] {
  const tallies = new Map<number, Tally>();
  for (const r of records) {
    const h = hopsOf(r);
    const key = h === null ? -1 : Math.min(h, LONGEST_BUCKET);
    let t = tallies.get(key);
    if (!t) {
      t = emptyTally();
      tallies.set(key, t);
    }
    addTo(t, r);
  }
  const keys = [...tallies.keys()].sort((a, b) => (a < 0 ? 1 : b < 0 ? -1 : a - b));
  return keys.map((k) => ({
    label: k < 0 ? 'not connected' : k === LONGEST_BUCKET ? `${k}+` : String(k),
    hops: k < 0 ? null : k,
    metrics: metricSet(tallies.get(k)!, weights),
  }));
}
