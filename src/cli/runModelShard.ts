import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EvalInput } from '../core/evalinputs/types.ts';
import { inShard, shardSetProblem, type Shard } from '../core/shard.ts';
import { CliError, InputError, makeFolder, readInputText, writeOutput } from './files.ts';
import { mergeRunSummaries, RUN_SUMMARY, type RunSummary } from './runModelReport.ts';
import type { ShardOutput } from './shardFiles.ts';

/**
 * `run-model --shard i/N`: the shard asks about the inputs' scenes i, i+N, … (scenes in the order
 * the inputs come, after --limit) and writes its results as an unsharded run does, plus shard.json;
 * `merge` lays every shard's result files into one results folder — each the file the unsharded
 * run writes, byte for byte — and writes the run summary of the whole: counts and tokens summed,
 * failures in input order, the time of the slowest shard (they run side by side).
 */

export const RUN_MODEL_SHARD_FORMAT = 'traversa-run-model-shard';
const SHARD_FILE = 'shard.json';

/** The scenes in the order the inputs first name them. */
const sceneOrder = (inputs: readonly EvalInput[]) => [...new Set(inputs.map((i) => i.scene))];

export function ofShard(inputs: readonly EvalInput[], shard: Shard): EvalInput[] {
  const place = new Map(sceneOrder(inputs).map((s, i) => [s, i]));
  return inputs.filter((i) => inShard(place.get(i.scene)!, shard));
}

/** shard.json: the shard, the run (the inputs of the whole run by checksum, the model setting) and its summary. */
export function writeRunModelShard(out: string, shard: Shard, all: readonly EvalInput[], summary: RunSummary): void {
  const inputs = createHash('sha256');
  for (const i of all) inputs.update(JSON.stringify([i.scene, i.agent, i.questionIndex, i.prompt, i.frames, i.depthFrames ?? [], i.maps ?? []]));
  const run = { setting: summary.model_setting, model: summary.model, endpoint: summary.endpoint_host, inputs: inputs.digest('hex') };
  writeOutput(
    join(out, SHARD_FILE),
    JSON.stringify({ format: RUN_MODEL_SHARD_FORMAT, version: 1, shard, run, order: sceneOrder(all), summary }, null, 2) + '\n',
  );
}

interface Doc {
  file: string;
  dir: string;
  shard: Shard;
  run: { setting: string };
  order: string[];
  summary: RunSummary;
}

function checked(s: ShardOutput): Doc {
  const d = s.doc as Partial<Doc>;
  if (!d.shard || !d.run || typeof d.run.setting !== 'string' || !Array.isArray(d.order) || !d.summary)
    throw new InputError(`${s.file}: not a shard written by "run-model --shard" (its shard, run, order or summary is missing)`);
  return { file: s.file, dir: dirname(s.file), shard: d.shard, run: d.run as Doc['run'], order: d.order, summary: d.summary };
}

/** `merge --out <results-dir>` of run-model shards. */
export function mergeRunModelShards(shards: readonly ShardOutput[], out: string | undefined): { text: string; code: number } {
  if (!out) throw new CliError('merging run-model shards needs --out <results-dir>');
  const docs = shards.map(checked);
  const problem = shardSetProblem(docs);
  if (problem) throw new InputError(problem);
  const setting = docs[0]!.run.setting;
  makeFolder(join(out, setting));
  for (const d of docs) {
    const from = join(d.dir, setting);
    if (!existsSync(from)) throw new InputError(`${from}: the shard's results are missing (shard.json names them)`);
    for (const name of readdirSync(from)) if (name !== RUN_SUMMARY) cpSync(join(from, name), join(out, setting, name), { recursive: true });
    // The shard's own summary, as its run wrote it, must be the one shard.json carries.
    const own = JSON.parse(readInputText(join(from, RUN_SUMMARY), 'run summary')) as RunSummary;
    if (JSON.stringify(own.counts) !== JSON.stringify(d.summary.counts)) throw new InputError(`${join(from, RUN_SUMMARY)} is not the run ${d.file} describes`);
  }
  const summary = mergeRunSummaries(
    docs.map((d) => d.summary),
    docs[0]!.order,
  );
  writeOutput(join(out, setting, RUN_SUMMARY), JSON.stringify(summary, null, 2) + '\n');
  return {
    text: `merged the ${docs.length} shards of ${summary.counts.inputs.toLocaleString('en-US')} inputs into ${join(out, setting)}; score them: npm run -s cli -- score --gt <release-dir> --pred ${out} --out <dir>`,
    code: summary.counts.failed > 0 ? 1 : 0,
  };
}
