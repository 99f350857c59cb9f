import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
/**
 * Runs split over machines (`--shard i/N` on the batch commands, issue 27 §6): shard `i` of `N`
 * does the items whose place in the run's own order is `i` modulo `N` — scenes for the commands
 * that walk a release, segments for the ones that walk one scan — and `merge` puts the shards'
 * outputs back together into exactly what one run writes. Shards count from 0, as a Slurm array
 * (`--array=0-3`) and a Kubernetes indexed Job (`JOB_COMPLETION_INDEX`) do.
 */

export interface Shard {
  index: number;
  count: number;
}

/** The whole run: one shard. */
export const WHOLE: Shard = { index: 0, count: 1 };

export const MAX_SHARDS = 100_000;

/** `--shard 2/8` read; a message saying what is wrong otherwise. */
export function parseShard(text: string): Shard | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const usage = 'takes i/N, this run\'s place among N shards counted from 0 (e.g. 0/4 … 3/4; "$SLURM_ARRAY_TASK_ID/4")';
  if (!m) return `--shard ${usage}, not "${text}"`;
  const index = Number(m[1]),
    count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) return `--shard ${text}: N is from 1 to ${MAX_SHARDS.toLocaleString('en-US')}`;
  if (index >= count) return `--shard ${text}: i counts from 0, so it is at most ${count - 1} of ${count} shards`;
  return { index, count };
}

/** Whether the item at `position` of the run's order is this shard's. */
export const inShard = (position: number, s: Shard): boolean => position % s.count === s.index;

export const shardName = (s: Shard) => `${s.index}/${s.count}`;

/**
 * What keeps shards from merging into one run, or null: they must be of one run (`run`, compared
 * as JSON: the inputs' checksums and the settings), all N of them, each once.
 */
export function shardSetProblem(shards: readonly { file: string; shard: Shard; run: unknown }[]): string | null {
  if (!shards.length) return 'no shard outputs given';
  const first = shards[0]!;
  const run = JSON.stringify(first.run);
  for (const s of shards) {
    if (s.shard.count !== first.shard.count)
      return `${s.file} is shard ${shardName(s.shard)}, ${first.file} is ${shardName(first.shard)}: they split the run differently`;
    if (JSON.stringify(s.run) !== run) return `${s.file} and ${first.file} are shards of different runs (${differs(first.run, s.run)})`;
  }
  const seen = new Map<number, string>();
  for (const s of shards) {
    const twice = seen.get(s.shard.index);
    if (twice !== undefined) return `${twice} and ${s.file} are both shard ${shardName(s.shard)}`;
    seen.set(s.shard.index, s.file);
  }
  const missing = Array.from({ length: first.shard.count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length)
    return `shard${missing.length === 1 ? '' : 's'} ${missing
      .slice(0, 5)
      .map((i) => `${i}/${first.shard.count}`)
      .join(', ')}${missing.length > 5 ? ', …' : ''} missing: every shard of the run is needed`;
  return null;
}

/** Which of a run description's fields differ, for the message. */
function differs(a: unknown, b: unknown): string {
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return 'not the same run';
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => JSON.stringify((a as Record<string, unknown>)[k]) !== JSON.stringify((b as Record<string, unknown>)[k]),
  );
  return keys.length ? `they differ in ${keys.join(', ')}` : 'not the same run';
}

/** SHA-256 of a set of files (paths and texts, in the order given): two shards read the same inputs when these agree. */
export function filesDigest(files: readonly { path: string; text: string }[]): string {
  const h = sha256.create();
  for (const f of files) h.update(utf8ToBytes(`${f.path.length}:${f.path}${f.text.length}:`)).update(utf8ToBytes(f.text));
  return bytesToHex(h.digest());
}
