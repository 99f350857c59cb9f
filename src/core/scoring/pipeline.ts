/**
 * One scoring run, the same on the command line (`traversa score`) and in the browser (the
 * scoring worker, or the page itself with the HTTP judge): prediction files in, reports out.
 * Everything a run decides — which files count, which model a loose file belongs to, which
 * judge, the bootstrap's seed and level — is decided here once, so the two cannot drift apart.
 * Reading the files from disk or from a picked folder, and the HTTP judge's transport, stay at
 * the edges.
 */
import { append } from '../arrays.ts';
import type { Problem } from '../problems.ts';
import type { Project } from '../project.ts';
import type { BootstrapSettings } from './bootstrap.ts';
import { referenceScorer, type CompatJudgeChoice } from './compat/run.ts';
import { scoreAll } from './compat/score.ts';
import type { CompatResult, CompatSettings } from './compat/types.ts';
import { chooseJudge, type HttpJudgeIo, type JudgeChoice, type VerdictFileRead } from './judges/choose.ts';
import { scorePaperByModel, type ModelProgress } from './paper/score.ts';
import { DEFAULT_WEIGHTS, type Averaging, type PaperReport, type Prediction, type Weights } from './paper/types.ts';

/** A file of the run: path relative to its root (`/`-separated) and its text. */
export interface ScoringFile {
  path: string;
  text: string;
}

/** Files the scorer itself writes into a results folder; never read back as predictions. */
export const SCORER_OUTPUTS = new Set(['scored_per_record.jsonl', 'scored_summary.json', 'scored_shard.json', 'judge-cache.json', 'run_summary.json']);

/**
 * The prediction and verdict readers of src/formats/predictions, handed in: core reads no file
 * formats itself (the reference-compatible scorer excepted, which must parse as Python does).
 */
export interface PredictionReaders {
  /** Runner JSON, Traversa JSONL and one-line text; `defaultModel` names files outside `<model>/<SCENE>/`. */
  predictions(files: readonly ScoringFile[], defaultModel: string): { predictions: Prediction[]; problems: Problem[] };
  verdicts(file: ScoringFile): VerdictFileRead;
}

/** The predictions of a run: the files under one root, as the user named that root. */
export interface ScoringInput {
  /** The folder or file given (`--pred`, the picked folder): its name names the model of loose files. */
  root: string;
  files: readonly ScoringFile[];
}

export interface PaperSettings {
  judge: JudgeChoice;
  weights: Weights;
  averaging: Averaging;
  bootstrap: BootstrapSettings;
}

/** What both the command line and the Score view start from. */
export const DEFAULT_PAPER_SETTINGS: PaperSettings = {
  judge: { kind: 'rule' },
  weights: DEFAULT_WEIGHTS,
  averaging: 'micro',
  bootstrap: { resamples: 0, seed: 1, level: 0.95 },
};

export type { CompatJudgeChoice } from './compat/run.ts';

export interface PaperRequest {
  mode: 'paper';
  project: Project;
  input: ScoringInput;
  settings: PaperSettings;
}
/**
 * `release`: the ground truth's release files (only `<SCENE>-graph.json` and `-traverse.json` are read).
 * `settings`: the paths the released scorer writes into its output (default: the input's root as given).
 */
export interface CompatRequest {
  mode: 'compat';
  release: readonly ScoringFile[];
  input: ScoringInput;
  judge: CompatJudgeChoice;
  settings?: CompatSettings;
}
export type ScoringRequest = PaperRequest | CompatRequest;

/** `reports` in model-name order; `problems`: the readers' (prediction files, verdict file). */
export interface PaperOutcome {
  mode: 'paper';
  reports: [string, PaperReport][];
  problems: Problem[];
}
/** `truthProblems`: release files the released scorer would have crashed on. */
export interface CompatOutcome {
  mode: 'compat';
  result: CompatResult;
  truthProblems: { path: string; message: string }[];
}
export type ScoringOutcome = PaperOutcome | CompatOutcome;

export type ScoringProgress = { phase: 'read' } | ModelProgress;

export interface ScoringHooks {
  onProgress?: (p: ScoringProgress) => void;
  /** Predictions scored between two progress reports and pauses (default: all at once). */
  chunkSize?: number;
  /** Lets other work run between chunks (a worker's queued messages, the page's rendering). */
  yieldNow?: () => Promise<void>;
  signal?: { aborted: boolean };
  /** The HTTP judge's transport, where it can run. */
  http?: HttpJudgeIo;
}

/** The model of files outside a `<model>/<SCENE>/` folder: the root's name without its extension. */
export function defaultModelName(root: string): string {
  return (
    root
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop()!
      .replace(/\.[^.]+$/, '') || 'model'
  );
}

/** Score a run: paper mode (docs/scoring.md §1) per model, or the released scorer reproduced (§2). */
export function runScoring(request: PaperRequest, readers: PredictionReaders, hooks?: ScoringHooks): Promise<PaperOutcome>;
export function runScoring(request: CompatRequest, readers: PredictionReaders, hooks?: ScoringHooks): Promise<CompatOutcome>;
export function runScoring(request: ScoringRequest, readers: PredictionReaders, hooks?: ScoringHooks): Promise<ScoringOutcome>;
export async function runScoring(request: ScoringRequest, readers: PredictionReaders, hooks: ScoringHooks = {}): Promise<ScoringOutcome> {
  if (request.mode === 'compat') {
    const { scorer, truthProblems } = referenceScorer({ release: request.release, judge: request.judge, root: request.input.root, settings: request.settings });
    // The released scorer picks its files itself (every *.json but its outputs and roll-ups).
    return { mode: 'compat', result: scoreAll(scorer, request.input.files), truthProblems };
  }
  hooks.onProgress?.({ phase: 'read' });
  const { input, settings } = request;
  const read = readers.predictions(input.files, defaultModelName(input.root));
  const { judge, problems } = chooseJudge(settings.judge, { readVerdicts: readers.verdicts, http: hooks.http });
  const reports = await scorePaperByModel(
    request.project,
    read.predictions,
    {
      judge,
      weights: settings.weights,
      averaging: settings.averaging,
      bootstrap: settings.bootstrap,
    },
    { chunkSize: hooks.chunkSize ?? Infinity, onProgress: hooks.onProgress, yieldNow: hooks.yieldNow, signal: hooks.signal },
  );
  return { mode: 'paper', reports: [...reports], problems: append(read.problems, problems) };
}

/**
 * Pass on at most one progress report per `ms` (each may cross threads and re-render the page;
 * the scorer reports after every judged group).
 */
export function throttled<P>(report: (p: P) => void, ms = 100, now: () => number = Date.now): (p: P) => void {
  let last = -Infinity;
  return (p) => {
    const t = now();
    if (t - last >= ms) {
      last = t;
      report(p);
    }
  };
}
