import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { predictionReaders } from '../formats/predictions/read.ts';
import type { PaperRequest } from '../core/scoring/pipeline.ts';
import { mergeScoringShards, runScoringShard, SCORE_SHARD_FORMAT, type ScoringShard } from '../core/scoring/shard.ts';
import { filesDigest, inShard, shardName, shardSetProblem, type Shard } from '../core/shard.ts';
import type { SourceFile } from '../formats/json.ts';
import { CliError, InputError, makeFolder, writeOutput } from './files.ts';
import { readTruth, scoringRequest, writePaperOutcome, type PaperArgs } from './scorePaper.ts';
import type { ShardOutput } from './shardFiles.ts';

/** What `score --shard i/N` writes into its `--out`, and `merge` reads. */
export const SCORE_SHARD_FILE = 'scored_shard.json';

/** The run a shard belongs to: the same release and predictions (by checksum) and the same settings. */
interface ScoreRun {
  truth: string;
  predictions: string;
  /** The name of `--pred`: it names the model of files outside a `<model>/<SCENE>/` folder. */
  predName: string;
  settings: ScoringShard['settings'];
}

/** `score --shard i/N`: score and judge this shard's scenes; write scored_shard.json. Returns what to print. */
export async function scoreShard(a: PaperArgs & { shard: Shard }): Promise<{ text: string; code: number }> {
  const { project, files } = readTruth(a.gt);
  makeFolder(a.out);
  return { text: await writeScoreShard(scoringRequest(a, project), a, files), code: 0 };
}

async function writeScoreShard(request: PaperRequest, a: PaperArgs & { shard: Shard }, truth: readonly SourceFile[]): Promise<string> {
  const s = await runScoringShard(request, predictionReaders, a.shard, { http: a.http });
  const run: ScoreRun = {
    truth: filesDigest(truth),
    predictions: filesDigest(request.input.files),
    predName: basename(resolve(a.pred)),
    settings: s.settings,
  };
  const file = join(a.out, SCORE_SHARD_FILE);
  writeOutput(file, JSON.stringify({ format: SCORE_SHARD_FORMAT, version: 1, shard: s.shard, run, runProblems: s.runProblems, models: s.models }) + '\n');
  const records = s.models.reduce((n, m) => n + m.records.length, 0);
  const scenes = request.project.scenes.filter((_, i) => inShard(i, a.shard)).length;
  return (
    `shard ${shardName(a.shard)}: ${records.toLocaleString('en-US')} prediction${records === 1 ? '' : 's'} of ${scenes} of the release's ${request.project.scenes.length} scenes scored; wrote ${file}.\n` +
    `When every shard has run: traversa merge --gt ${a.gt} --out <dir> <each shard's --out>`
  );
}

const ScoreShardSchema = z.object({
  format: z.literal(SCORE_SHARD_FORMAT),
  version: z.literal(1),
  shard: z.object({ index: z.number().int().nonnegative(), count: z.number().int().positive() }),
  run: z.object({ truth: z.string(), predictions: z.string(), predName: z.string(), settings: z.object({}).passthrough() }),
  runProblems: z.array(z.object({}).passthrough()),
  models: z.array(
    z.object({
      model: z.string(),
      records: z.array(z.object({ file: z.string(), location: z.string(), status: z.string() }).passthrough()),
      seqs: z.array(z.number().int().nonnegative()),
      problems: z.array(z.object({ file: z.string(), location: z.string().optional(), code: z.string() }).passthrough()),
    }),
  ),
});

/** `merge` of score shards: the release they scored (`--gt`, checked against their checksum) and the folder one run would have written. */
export function mergeScoreShards(shards: readonly ShardOutput[], a: { gt?: string; out?: string; json: boolean; acceptUnjudged: boolean; table2: boolean }) {
  if (!a.gt || !a.out) throw new CliError('merging score shards needs --gt <release-dir> (the release they scored) and --out <dir>');
  const docs = shards.map((s) => {
    const parsed = ScoreShardSchema.safeParse(s.doc);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new InputError(`${s.file}: at /${i.path.map(String).join('/')}: ${i.message} (not a shard written by "score --shard")`);
    }
    // Checked by the schema, used as written: the schema would put the keys it names first, and one run writes records' keys in their own order.
    const doc = s.doc as { shard: Shard; run: ScoreRun } & Omit<ScoringShard, 'settings'>;
    return { file: s.file, shard: doc.shard, run: doc.run, data: { ...doc, settings: doc.run.settings } };
  });
  const problem = shardSetProblem(docs);
  if (problem) throw new InputError(problem);
  const { project, files } = readTruth(a.gt);
  if (filesDigest(files) !== docs[0]!.run.truth) throw new InputError(`${a.gt} is not the release the shards scored (its files' checksum differs from theirs)`);
  for (const d of docs) {
    if (d.data.models.some((m) => m.seqs.length !== m.records.length)) throw new InputError(`${d.file}: a model's records and their places differ in number`);
  }
  makeFolder(a.out);
  const outcome = mergeScoringShards(
    project,
    docs.map((d) => d.data),
  );
  return writePaperOutcome(project, outcome, { ...a, out: a.out, pred: docs[0]!.run.predName });
}
