import { InputError } from './files.ts';
import { readShardOutputs, type ShardOutput } from './shardFiles.ts';

/**
 * `merge --out <dir|file> [--gt <release-dir>] <shard output>...`: the outputs of a run's N shards
 * (`--shard i/N`) put together into exactly what the run writes unsharded. The kind of run is read
 * from the shards' files; all of them must be of one run, every shard once.
 */
export interface MergeArgs {
  paths: string[];
  out?: string;
  gt?: string;
  json: boolean;
  acceptUnjudged: boolean;
  table2: boolean;
}

type Merger = (shards: ShardOutput[], a: MergeArgs) => Promise<{ text: string; code: number }>;

const MERGERS: Record<string, Merger> = {
  'traversa-score-shard': async (shards, a) => (await import('./scoreShard.ts')).mergeScoreShards(shards, a),
  'traversa-suggest-shard': async (shards, a) => (await import('./scanShard.ts')).mergeScanShards(shards, a.out),
  'traversa-drive-shard': async (shards, a) => (await import('./scanShard.ts')).mergeScanShards(shards, a.out),
  'traversa-tour-shard': async (shards, a) => (await import('./tourMerge.ts')).mergeTourShardOutputs(shards, a.out),
  'traversa-eval-inputs-shard': async (shards, a) => (await import('./evalInputsShard.ts')).mergeEvalInputsShards(shards, a.out),
  'traversa-run-model-shard': async (shards, a) => (await import('./runModelShard.ts')).mergeRunModelShards(shards, a.out),
};

export async function mergeCommand(a: MergeArgs): Promise<{ text: string; code: number }> {
  const shards = readShardOutputs(a.paths);
  const format = shards[0]!.format;
  const other = shards.find((s) => s.format !== format);
  if (other)
    throw new InputError(`${other.file} and ${shards[0]!.file} are outputs of different commands (${other.format || 'unknown'}, ${format || 'unknown'})`);
  const merger = MERGERS[format];
  if (!merger)
    throw new InputError(
      `${shards[0]!.file}: not a shard output (format "${format}"); merge reads what ${Object.keys(MERGERS).length} commands write with --shard`,
    );
  return merger(shards, a);
}
