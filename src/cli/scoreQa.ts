import { join } from 'node:path';
import { formatProblem, hasBlocking, type Problem } from '../core/problems.ts';
import { MAX_RESAMPLES, MAX_SEED } from '../core/scoring/bootstrap.ts';
import { scoreQaAnswers, type QaAnswersReport } from '../core/scoring/vqa/qaAnswers.ts';
import type { SourceFile } from '../formats/json.ts';
import { readQaAnswers } from '../formats/qa/answers.ts';
import { GROUND_TRUTH_FILES, readQaGroundTruth } from '../formats/qa/groundTruth.ts';
import { CliError, InputError, isRegularFile, readInputText, readTree, statInput, writeOutput } from './files.ts';
import { wholeNumber } from './options.ts';
import { formatQaSummary } from './scoreQaTables.ts';

export interface ScoreQaArgs {
  gt?: string; pred?: string; tau?: string; averaging?: string; bootstrap?: string; seed?: string; out?: string; json: boolean;
}

/** What `score-qa` prints with --json and writes to qa_scores.json: the report and every problem read. */
export type QaScoresFile = QaAnswersReport & { groundTruth: string; predictions: string[]; problems: Problem[] };

/** The ground-truth file: the path itself, or the first of qa/items.json, items.json, qa/items.jsonl, items.jsonl in the folder. */
function groundTruthFile(path: string): SourceFile {
  if (!statInput(path, 'ground truth').isDirectory()) return { path, text: readInputText(path, 'ground truth') };
  const found = GROUND_TRUTH_FILES.find((f) => isRegularFile(join(path, f)));
  if (!found) throw new InputError(`${path} holds none of ${GROUND_TRUTH_FILES.join(', ')}: not a QA bundle`);
  return { path: join(path, found), text: readInputText(join(path, found), 'ground truth') };
}

/** `score-qa`: a model's answers to QA items, scored against a bundle's items. Returns what goes to stdout. */
export function scoreQaCommand(a: ScoreQaArgs): string {
  if (!a.gt || !a.pred) throw new CliError('score-qa needs --gt <bundle-dir|items.json|items.jsonl> --pred <answers.jsonl|dir>');
  let tau: number | null = null;
  if (a.tau !== undefined) {
    tau = Number(a.tau);
    if (a.tau.trim() === '' || !Number.isFinite(tau) || tau < 0) throw new CliError('--tau takes a number ≥ 0 (the relative tolerance of numeric answers, e.g. 0.1)');
  }
  if (a.averaging !== undefined && a.averaging !== 'micro' && a.averaging !== 'macro') throw new CliError('--averaging is micro or macro');
  const resamples = wholeNumber('bootstrap', a.bootstrap, 0, MAX_RESAMPLES);
  const seed = wholeNumber('seed', a.seed, 1, MAX_SEED);

  const gtFile = groundTruthFile(a.gt);
  const gt = readQaGroundTruth(gtFile);
  for (const p of gt.problems) process.stderr.write(formatProblem(p) + '\n');
  if (hasBlocking(gt.problems) || gt.items.length === 0) throw new InputError(`${gtFile.path}: no ground-truth items could be read`);
  const left = gt.problems.filter((p) => p.severity === 'error').length;
  if (left) process.stderr.write(`traversa: ${left} ground-truth record(s) left out (see above)\n`);

  // The path itself, or every .jsonl / .ndjson under the folder.
  const files = readTree(a.pred, ['.jsonl', '.ndjson'], 'answers');
  if (files.length === 0) process.stderr.write(`traversa: no .jsonl answer files under ${a.pred}\n`);
  const read = readQaAnswers(files);
  for (const p of read.problems) process.stderr.write(formatProblem(p) + '\n');

  const report = scoreQaAnswers(gt.items, read.predictions, {
    tau, averaging: (a.averaging as 'micro' | 'macro' | undefined) ?? 'macro', bootstrap: { resamples, seed, level: 0.95 },
  });
  const problems = [...gt.problems, ...read.problems];
  const full: QaScoresFile = { ...report, groundTruth: gtFile.path, predictions: files.map((f) => f.path), problems };
  if (a.out) {
    writeOutput(join(a.out, 'qa_scores.json'), JSON.stringify(full, null, 2) + '\n');
    writeOutput(join(a.out, 'qa_scored_items.jsonl'), report.models.flatMap((m) => m.items.map((it) => JSON.stringify({ model: m.model, ...it }) + '\n')).join(''));
  }
  return a.json ? JSON.stringify(full, null, 2) : formatQaSummary(report, problems);
}
