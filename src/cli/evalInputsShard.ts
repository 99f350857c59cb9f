import { cpSync, readdirSync } from 'node:fs';
import { append } from '../core/arrays.ts';
import { dirname, join } from 'node:path';
import { evalManifest } from '../core/evalinputs/build.ts';
import { EvalInputsManifestSchema, type EvalInput, type ExcludedQuestion, type SpatialPart } from '../core/evalinputs/types.ts';
import { shardSetProblem, type Shard } from '../core/shard.ts';
import type { FrameBudget } from '../core/tour/types.ts';
import { CliError, InputError, makeFolder, readInputText, writeOutput } from './files.ts';
import type { ShardOutput } from './shardFiles.ts';

/**
 * `eval-inputs --shard i/N`: the shard exports the chosen scenes i, i+N, … — a whole export of
 * its own (its manifest lists its inputs, so `run-model --inputs` can run on it) — and writes
 * shard.json beside it; `merge` lays the shards' files into one folder and writes the manifest the
 * unsharded export writes, so the merged folder is that export, byte for byte.
 */

export const EVAL_INPUTS_SHARD_FORMAT = 'traversa-eval-inputs-shard';
const SHARD_FILE = 'shard.json';

interface EvalInputsRun {
  /** Checksum of the release's JSON files. */
  truth: string;
  budget: FrameBudget;
  with: SpatialPart[];
  agents: string[];
  scenes: string[];
  up: 'y' | 'z';
}

export function writeEvalInputsShard(out: string, shard: Shard, run: EvalInputsRun, order: readonly string[]): void {
  writeOutput(join(out, SHARD_FILE), JSON.stringify({ format: EVAL_INPUTS_SHARD_FORMAT, version: 1, shard, run, order }, null, 2) + '\n');
}

interface Doc {
  file: string;
  dir: string;
  shard: Shard;
  run: EvalInputsRun;
  order: string[];
}

function checked(s: ShardOutput): Doc {
  const d = s.doc as Partial<Doc>;
  if (!d.shard || !d.run || !Array.isArray(d.order))
    throw new InputError(`${s.file}: not a shard written by "eval-inputs --shard" (its shard, run or order is missing)`);
  return { file: s.file, dir: dirname(s.file), shard: d.shard, run: d.run, order: d.order };
}

const json = (path: string, what: string): unknown => {
  try {
    return JSON.parse(readInputText(path, what));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${path}: the ${what} is not valid JSON`);
  }
};

/** `merge --out <dir>` of eval-inputs shards. */
export function mergeEvalInputsShards(shards: readonly ShardOutput[], out: string | undefined): { text: string; code: number } {
  if (!out) throw new CliError('merging eval-inputs shards needs --out <dir>, the folder of the merged export');
  const docs = shards.map(checked);
  const problem = shardSetProblem(docs);
  if (problem) throw new InputError(problem);
  const { order, run } = docs[0]!;
  const place = new Map(order.map((s, i) => [s, i]));
  const inputs: EvalInput[] = [];
  const excluded: ExcludedQuestion[] = [];
  makeFolder(out);
  for (const d of docs) {
    const path = join(d.dir, 'manifest.json');
    const manifest = EvalInputsManifestSchema.safeParse(json(path, 'evaluation inputs manifest'));
    if (!manifest.success) throw new InputError(`${path}: not a manifest written by "eval-inputs"`);
    for (const rel of manifest.data.inputs) inputs.push(json(join(d.dir, rel), 'evaluation input') as EvalInput);
    append(excluded, manifest.data.excluded);
    for (const name of readdirSync(d.dir)) {
      if (name !== SHARD_FILE && name !== 'manifest.json') cpSync(join(d.dir, name), join(out, name), { recursive: true });
    }
  }
  // The unsharded export's order: scene by scene in the order chosen, each scene's own order kept.
  const byScene = <T extends { scene: string }>(xs: T[]) =>
    xs
      .map((x, i) => [x, i] as const)
      .sort((a, b) => place.get(a[0].scene)! - place.get(b[0].scene)! || a[1] - b[1])
      .map(([x]) => x);
  const manifest = evalManifest({ inputs: byScene(inputs), excluded: byScene(excluded) }, run.budget, run.with);
  writeOutput(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return { text: `merged the ${docs.length} shards of ${manifest.counts.inputs} evaluation inputs into ${out}`, code: 0 };
}
