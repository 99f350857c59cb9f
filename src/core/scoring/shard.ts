/**
 * `score --shard i/N` and its merge (issue 27 §6): a shard scores and judges the predictions of
 * its scenes (the release's scenes dealt round-robin; a prediction naming no scene of the release
 * goes to shard 0) and keeps its records unreported; the merge puts every shard's records back in
 * the order one run reads them and makes the reports from them, so N shards merged write what one
 * run writes, byte for byte, with a deterministic judge (rule, none, imported verdicts).
 */
import { append } from '../arrays.ts';
import type { Problem } from '../problems.ts';
import type { Project } from '../project.ts';
import { inShard, type Shard } from '../shard.ts';
import { chooseJudge } from './judges/choose.ts';
import { groundTruth } from './paper/groundTruth.ts';
import { reportsOf, scorePartsByModel, type ModelPart, type ReportSettings } from './paper/score.ts';
import type { ScoredRecord } from './paper/types.ts';
import { defaultModelName, type PaperOutcome, type PaperRequest, type PredictionReaders, type ScoringHooks } from './pipeline.ts';

export const SCORE_SHARD_FORMAT = 'traversa-score-shard';

/** One model's records in a shard; `seqs[k]` is record k's place among every prediction the run reads. */
export interface ShardModel {
  model: string;
  records: ScoredRecord[];
  seqs: number[];
  problems: Problem[];
}

export interface ScoringShard {
  shard: Shard;
  settings: ReportSettings;
  /** The run's own problems (prediction files, verdict file): every shard reads all files and finds the same. */
  runProblems: Problem[];
  models: ShardModel[];
}

/** Score one shard of a paper-mode run. */
export async function runScoringShard(request: PaperRequest, readers: PredictionReaders, shard: Shard, hooks: ScoringHooks = {}): Promise<ScoringShard> {
  const { project, input, settings } = request;
  const read = readers.predictions(input.files, defaultModelName(input.root));
  const { judge, problems } = chooseJudge(settings.judge, { readVerdicts: readers.verdicts, http: hooks.http });
  const gt = groundTruth(project);
  const place = new Map(project.scenes.map((s, i) => [s.id, i]));
  const seq = new Map<string, number>();
  const mine = read.predictions.filter((p, i) => {
    const scene = gt.scene(p.scene)?.scene.id;
    if (!inShard(scene === undefined ? 0 : place.get(scene)!, shard)) return false;
    seq.set(p.id, i);
    return true;
  });
  const parts = await scorePartsByModel(
    project,
    mine,
    { judge, weights: settings.weights, averaging: settings.averaging, bootstrap: settings.bootstrap },
    { chunkSize: hooks.chunkSize ?? Infinity, signal: hooks.signal },
  );
  return {
    shard,
    settings: { weights: settings.weights, judge: judge?.info ?? null, averaging: settings.averaging, bootstrap: settings.bootstrap },
    runProblems: append(read.problems, problems),
    models: [...parts].map(([model, part]) => ({ model, records: part.records, seqs: part.records.map((r) => seq.get(r.id)!), problems: part.problems })),
  };
}

/**
 * The outcome of the whole run from all its shards (checked to be one run's, all of them, by the
 * caller): each model's records in reading order, its problems as one run finds them — repeated
 * predictions, then the judge's failures, each in reading order — and the reports made from them.
 */
export function mergeScoringShards(project: Project, shards: readonly ScoringShard[]): PaperOutcome {
  const byModel = new Map<string, { records: [number, ScoredRecord][]; problems: { seq: number; repeat: boolean; problem: Problem }[] }>();
  for (const s of shards) {
    for (const m of s.models) {
      let into = byModel.get(m.model);
      if (!into) byModel.set(m.model, (into = { records: [], problems: [] }));
      const at = new Map(m.records.map((r, k) => [`${r.file}\u0000${r.location}`, m.seqs[k]!]));
      m.records.forEach((r, k) => into.records.push([m.seqs[k]!, r]));
      for (const problem of m.problems) {
        into.problems.push({ seq: at.get(`${problem.file}\u0000${problem.location}`) ?? -1, repeat: problem.code === 'prediction.duplicate', problem });
      }
    }
  }
  const parts = new Map<string, ModelPart>();
  for (const model of [...byModel.keys()].sort()) {
    const m = byModel.get(model)!;
    m.problems.sort((a, b) => Number(b.repeat) - Number(a.repeat) || a.seq - b.seq);
    parts.set(model, { records: m.records.sort((a, b) => a[0] - b[0]).map(([, r]) => r), problems: m.problems.map((p) => p.problem) });
  }
  return { mode: 'paper', reports: [...reportsOf(project, parts, shards[0]!.settings)], problems: [...shards[0]!.runProblems] };
}
