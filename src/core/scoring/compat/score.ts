import { pyCompare } from './pyText.ts';
import { Scenes, scoreFile } from './records.ts';
import { summarise } from './summary.ts';
import type { CompatGroundTruth, CompatInputFile, CompatOptions, CompatRecord, CompatResult } from './types.ts';

/**
 * Score a results folder the way the released CapNav Python scorer does (scoring.md §2),
 * quirks included. `files` are the `*.json` files under the results root, the scorer's own
 * `scored_*` outputs already left out by the caller; they are read in Python `sorted()` order of
 * their relative paths, which fixes the record order and hence the float sums.
 */
export function scoreReference(files: readonly CompatInputFile[], groundTruth: CompatGroundTruth, options: CompatOptions = {}): CompatResult {
  const judge = options.judge ?? (() => 0);
  const scenes = new Scenes(groundTruth);
  const records: CompatRecord[] = [];
  const unreadable: CompatResult['unreadable'] = [];
  for (const file of [...files].sort((a, b) => pyCompare(a.path, b.path))) scoreFile(file, scenes, judge, records, unreadable);
  return { records, summary: summarise(records), unreadable };
}
