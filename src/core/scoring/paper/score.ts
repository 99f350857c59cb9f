import { forEachAtMost } from '../../concurrency.ts';
import { agentOrder } from '../../agents.ts';
import type { Problem } from '../../problems.ts';
import type { Project } from '../../project.ts';
import { NO_BOOTSTRAP, type BootstrapSettings } from '../bootstrap.ts';
import { NO_JUDGE, isError, type Judge, type JudgeInfo, type Verdict } from '../judges/types.ts';
import { byPathLength } from './pathLength.ts';
import { aggregate } from './aggregate.ts';
import { duplicateSummary } from './duplicates.ts';
import { failureModesOf } from './failureModes.ts';
import { groundTruth, type GroundTruth } from './groundTruth.ts';
import { scorePrediction, type PendingJudgement } from './record.ts';
import { DEFAULT_WEIGHTS, type Averaging, type PaperOptions, type PaperReport, type Prediction, type ScoredRecord, type Weights } from './types.ts';

interface Resolved {
  weights: Weights;
  judge: Judge | null;
  averaging: Averaging;
  bootstrap: BootstrapSettings;
  concurrency: number;
}

function resolve(o: PaperOptions): Resolved {
  return {
    weights: o.weights ?? DEFAULT_WEIGHTS,
    judge: o.judge ?? null,
    averaging: o.averaging ?? 'micro',
    bootstrap: { ...NO_BOOTSTRAP, ...o.bootstrap },
    concurrency: Math.max(1, o.judgeConcurrency ?? 4),
  };
}

/** One model's scored records (in prediction order) and the problems found scoring and judging them. */
export interface ModelPart {
  records: ScoredRecord[];
  problems: Problem[];
}

export type ScoreProgress = { phase: 'score' | 'judge'; done: number; total: number } | { phase: 'aggregate' };

export interface ChunkOptions {
  /** Predictions scored between two progress reports (default 5,000). */
  chunkSize?: number;
  /** Called between chunks; a worker posts progress from here. */
  onProgress?: (p: ScoreProgress) => void;
  /** Lets other work run between chunks (default: a resolved promise). */
  yieldNow?: () => Promise<void>;
  /** Stops scoring between chunks when `aborted` becomes true (then the promise rejects). */
  signal?: { aborted: boolean };
}

/**
 * Score predictions in paper mode (docs/scoring.md §1). Works for any judge; with the rule judge or
 * none nothing is awaited but the final result.
 */
export function scorePaper(project: Project, predictions: readonly Prediction[], options: PaperOptions = {}): Promise<PaperReport> {
  return scorePaperChunked(project, predictions, options, { chunkSize: Infinity });
}

/** The same, for a synchronous judge (rule, imported, none): throws if the judge returns a promise. */
export function scorePaperSync(project: Project, predictions: readonly Prediction[], options: PaperOptions = {}): PaperReport {
  const o = resolve(options);
  const gt = groundTruth(project);
  const problems: Problem[] = [];
  const { records, pending } = scoreRange(gt, predictions, 0, predictions.length, o.judge !== null, new Map(), problems);
  const failures: JudgeFailure[] = [];
  if (o.judge) {
    for (const [, group] of groupPending(pending, o.judge)) {
      const v = o.judge.judge(group[0]!.request);
      if (v instanceof Promise) throw new Error(`judge ${o.judge.info.id} is asynchronous: use scorePaper`);
      applyVerdict(group, v, o.judge, failures);
    }
  }
  return reportOf(project, gt, { records, problems: inRecordOrder(records, problems, failures) }, settingsOf(o));
}

/** Paper-mode scoring in chunks with progress reports, for a web worker or a long CLI run. */
export function scorePaperChunked(
  project: Project,
  predictions: readonly Prediction[],
  options: PaperOptions = {},
  chunks: ChunkOptions = {},
): Promise<PaperReport> {
  const gt = groundTruth(project);
  const o = resolve(options);
  return scoreWith(gt, predictions, o, chunks).then((part) => reportOf(project, gt, part, settingsOf(o)));
}

async function scoreWith(gt: GroundTruth, predictions: readonly Prediction[], o: Resolved, chunks: ChunkOptions): Promise<ModelPart> {
  const size = Math.max(1, chunks.chunkSize ?? 5000);
  const pause = chunks.yieldNow ?? (() => Promise.resolve());
  const check = () => {
    if (chunks.signal?.aborted) throw new Error('scoring cancelled');
  };
  const problems: Problem[] = [];
  const records: ScoredRecord[] = [];
  const pending: PendingJudgement[] = [];
  const seen: Seen = new Map();
  for (let from = 0; from < predictions.length; from += size) {
    const part = scoreRange(gt, predictions, from, Math.min(predictions.length, from + size), o.judge !== null, seen, problems);
    for (const r of part.records) records.push(r);
    for (const p of part.pending) pending.push(p);
    if (size < predictions.length) {
      chunks.onProgress?.({ phase: 'score', done: Math.min(predictions.length, from + size), total: predictions.length });
      await pause();
      check();
    }
  }
  const failures: JudgeFailure[] = [];
  if (o.judge) {
    const groups = [...groupPending(pending, o.judge).values()];
    let done = 0;
    const judge = o.judge;
    await forEachAtMost(groups, o.concurrency, async (group) => {
      check();
      applyVerdict(group, await judge.judge(group[0]!.request), judge, failures);
      chunks.onProgress?.({ phase: 'judge', done: ++done, total: groups.length });
    });
  }
  chunks.onProgress?.({ phase: 'aggregate' });
  return { records, problems: inRecordOrder(records, problems, failures) };
}

/** Progress of one model's scoring within a run over several. */
export type ModelProgress = ScoreProgress & { model: string };

/**
 * One report per model setting, each scored on its own predictions, in model-name order. The
 * ground-truth index is built once for all of them; `chunks` applies to each model in turn.
 */
export async function scorePaperByModel(
  project: Project,
  predictions: readonly Prediction[],
  options: PaperOptions = {},
  chunks: ModelChunkOptions = { chunkSize: Infinity },
): Promise<Map<string, PaperReport>> {
  return reportsOf(project, await scorePartsByModel(project, predictions, options, chunks), settingsOf(resolve(options)));
}

export type ModelChunkOptions = Omit<ChunkOptions, 'onProgress'> & { onProgress?: (p: ModelProgress) => void };

/**
 * Each model's records and problems, judged but not yet made into a report, in model-name order:
 * what a shard of a run keeps (`score --shard`), to be made into reports with the other shards'.
 */
export async function scorePartsByModel(
  project: Project,
  predictions: readonly Prediction[],
  options: PaperOptions = {},
  chunks: ModelChunkOptions = { chunkSize: Infinity },
): Promise<Map<string, ModelPart>> {
  const byModel = new Map<string, Prediction[]>();
  for (const p of predictions) {
    const list = byModel.get(p.model);
    if (list) list.push(p);
    else byModel.set(p.model, [p]);
  }
  const out = new Map<string, ModelPart>();
  const gt = groundTruth(project);
  const o = resolve(options);
  for (const model of [...byModel.keys()].sort()) {
    const report = chunks.onProgress;
    out.set(model, await scoreWith(gt, byModel.get(model)!, o, { ...chunks, onProgress: report && ((p) => report({ ...p, model })) }));
  }
  return out;
}

/** The reports of judged parts (in the parts' order). */
export function reportsOf(project: Project, parts: ReadonlyMap<string, ModelPart>, settings: ReportSettings): Map<string, PaperReport> {
  const gt = groundTruth(project);
  return new Map([...parts].map(([model, part]) => [model, reportOf(project, gt, part, settings)]));
}

/** First prediction id per model and task, to report a second prediction for the same task. */
type Seen = Map<string, Map<object, string>>;

function scoreRange(gt: GroundTruth, predictions: readonly Prediction[], from: number, to: number, judging: boolean, seen: Seen, problems: Problem[]) {
  const records: ScoredRecord[] = [];
  const pending: PendingJudgement[] = [];
  for (let i = from; i < to; i++) {
    const r = scorePrediction(gt, predictions[i]!, judging);
    records.push(r.record);
    if (r.pending) pending.push(r.pending);
    if (r.task) {
      let tasks = seen.get(r.record.model);
      if (!tasks) {
        tasks = new Map();
        seen.set(r.record.model, tasks);
      }
      const first = tasks.get(r.task);
      const rec = r.record;
      if (first === undefined) tasks.set(r.task, rec.id);
      else
        problems.push({
          severity: 'warning',
          code: 'prediction.duplicate',
          file: rec.file,
          location: rec.location,
          message: `a second prediction for ${rec.scene} question ${rec.questionIndex} and ${rec.agent} (the first is ${first}); both are scored`,
        });
    }
  }
  return { records, pending };
}

/**
 * Requests with the same reason and notes get one verdict (the judge's cache key is the same,
 * and a judge that sees only those cannot answer them differently). Imported verdicts may be
 * keyed by record, so they are not merged.
 */
function groupPending(pending: readonly PendingJudgement[], judge: Judge): Map<string, PendingJudgement[]> {
  const groups = new Map<string, PendingJudgement[]>();
  pending.forEach((p, i) => {
    // Notes arrive sorted and de-duplicated, so joining them is a faithful in-run key.
    const key = judge.info.kind === 'imported' ? String(i) : `${p.request.reason}\u0000${p.request.notes.join('\u0001')}`;
    const g = groups.get(key);
    if (g) g.push(p);
    else groups.set(key, [p]);
  });
  return groups;
}

/** A record the judge could not judge, and the problem that says so. */
interface JudgeFailure {
  record: ScoredRecord;
  problem: Problem;
}

function applyVerdict(group: readonly PendingJudgement[], v: Verdict, judge: Judge, failures: JudgeFailure[]): void {
  for (const { record } of group) {
    if (isError(v)) {
      record.judge = { correct: false, judge: judge.info.id, error: v.error };
      failures.push({
        record,
        problem: {
          severity: 'error',
          code: 'judge.failed',
          file: record.file,
          location: record.location,
          message: `RV not judged (RV unknown; RV and the composite are withheld): ${v.error}`,
        },
      });
      continue;
    }
    record.rv = v.correct ? 1 : 0;
    record.judge = { correct: v.correct, judge: judge.info.id };
    if (v.explanation !== undefined) record.judge.explanation = v.explanation;
    if (v.cached) record.judge.cached = true;
  }
}

/**
 * The judge's failures after the other problems, in the records' order — not in the order the
 * verdicts came back (several are awaited at once), so a run's report does not depend on timing
 * and shards of a run merge into the same report.
 */
function inRecordOrder(records: readonly ScoredRecord[], problems: Problem[], failures: JudgeFailure[]): Problem[] {
  if (!failures.length) return problems;
  const at = new Map(records.map((r, i) => [r, i]));
  failures.sort((a, b) => at.get(a.record)! - at.get(b.record)!);
  for (const f of failures) problems.push(f.problem);
  return problems;
}

/** What a report needs of the settings: the judge's description (null: RV not computed), not the judge. */
export interface ReportSettings {
  weights: Weights;
  judge: JudgeInfo | null;
  averaging: Averaging;
  bootstrap: BootstrapSettings;
}

const settingsOf = (o: Resolved): ReportSettings => ({ weights: o.weights, judge: o.judge?.info ?? null, averaging: o.averaging, bootstrap: o.bootstrap });

function reportOf(project: Project, gt: GroundTruth, part: ModelPart, o: ReportSettings): PaperReport {
  const problems = [...part.problems];
  const records: ScoredRecord[] = [];
  const unmatched: ScoredRecord[] = [];
  const excluded: ScoredRecord[] = [];
  for (const r of part.records) {
    if (r.status === 'unmatched') {
      unmatched.push(r);
      problems.push({ severity: 'warning', code: 'prediction.unmatched', file: r.file, location: r.location, message: `not scored: ${r.note}` });
      continue;
    }
    if (r.status !== 'scored') {
      excluded.push(r);
      continue;
    }
    r.failureModes = failureModesOf(r, gt.profile(r.agent));
    records.push(r);
  }
  const present = new Set(records.map((r) => r.agent));
  const agents = agentOrder(project.profiles, present).filter((a) => present.has(a));
  const agg = aggregate(records, agents, o.weights, o.averaging, o.bootstrap, o.judge !== null);
  return {
    settings: { weights: o.weights, judge: o.judge ?? NO_JUDGE, averaging: o.averaging, bootstrap: o.bootstrap },
    ...agg,
    byPathLength: byPathLength(records, (r) => gt.scene(r.scene)!.graphHops(r.src!, r.tgt!), o.weights),
    duplicates: duplicateSummary(records),
    unmatched,
    excludedHallucinated: excluded.filter((r) => r.status === 'excluded-hallucinated').length,
    excludedUnresolved: excluded.filter((r) => r.status === 'excluded-unresolved').length,
    excluded,
    problems,
    records,
  };
}
