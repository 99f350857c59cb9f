import { append } from '../core/arrays.ts';
import type { Project } from '../core/project.ts';
import { ruleJudge } from '../core/scoring/judges/rule.ts';
import { importedJudge } from '../core/scoring/judges/imported.ts';
import type { Judge } from '../core/scoring/judges/types.ts';
import { scorePaperChunked } from '../core/scoring/paper/score.ts';
import type { Averaging, PaperReport, Prediction, Weights } from '../core/scoring/paper/types.ts';
import type { Problem } from '../core/problems.ts';
import type { SourceFile } from '../formats/json.ts';
import { readPredictions } from '../formats/predictions/read.ts';
import { readVerdictFile } from '../formats/predictions/verdicts.ts';

/** What the scoring worker is asked: the ground truth, the prediction files, and the settings. */
export interface ScoreRequest {
  project: Project;
  files: SourceFile[];
  /** Predictions already in hand (baselines generated in the app), scored with the files. */
  predictions?: Prediction[];
  judge: { kind: 'rule' } | { kind: 'none' } | { kind: 'imported'; file: SourceFile };
  weights: Weights;
  averaging: Averaging;
  bootstrap: number;
}

export type ScoreProgress = { phase: string; done?: number; total?: number; model?: string };
export interface ScoreResult { reports: [string, PaperReport][]; problems: Problem[] }

/**
 * Let queued messages (a cancel, a new request) in between chunks. A message-channel round trip,
 * not `setTimeout(0)`, which browsers clamp to 4 ms once timeouts nest.
 */
function yieldNow(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0));
  return new Promise((r) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); r(); };
    channel.port2.postMessage(null);
  });
}

/**
 * Read the predictions and score each model on them: the pure work the worker runs, and the
 * main thread runs itself when there is no worker (one test proves both give the same reports).
 */
export async function runScoring(req: ScoreRequest, report: (p: ScoreProgress) => void = () => {}, judgeOverride?: Judge): Promise<ScoreResult> {
  // The scorer reports after every judged group; pass on at most ten reports a second (each
  // crosses threads and re-renders the page).
  let lastReport = 0;
  const onProgress = (p: ScoreProgress) => {
    const now = Date.now();
    if (now - lastReport >= 100) { lastReport = now; report(p); }
  };
  onProgress({ phase: 'read' });
  const read = readPredictions(req.files);
  const predictions = append(read.predictions, req.predictions ?? []);
  const problems: Problem[] = [...read.problems];
  // `judgeOverride`: a judge that cannot cross into a worker (the HTTP judge with its key and cache).
  let judge: Judge | null = judgeOverride ?? null;
  if (!judgeOverride && req.judge.kind === 'rule') judge = ruleJudge();
  else if (!judgeOverride && req.judge.kind === 'imported') {
    const v = readVerdictFile(req.judge.file);
    problems.push(...v.problems);
    judge = importedJudge(v.verdicts, v.name);
  }
  const byModel = new Map<string, Prediction[]>();
  for (const p of predictions) {
    const list = byModel.get(p.model);
    if (list) list.push(p); else byModel.set(p.model, [p]);
  }
  const reports: [string, PaperReport][] = [];
  for (const model of [...byModel.keys()].sort()) {
    const report = await scorePaperChunked(req.project, byModel.get(model)!, {
      judge, weights: req.weights, averaging: req.averaging, bootstrap: { resamples: req.bootstrap },
    }, {
      chunkSize: 5000,
      onProgress: (p) => onProgress({ ...p, model }),
      yieldNow,
    });
    reports.push([model, report]);
  }
  return { reports, problems };
}
