import { join, resolve } from 'node:path';
import { formatProblem, hasBlocking, type Problem } from '../core/problems.ts';
import { MAX_RESAMPLES, MAX_SEED } from '../core/scoring/bootstrap.ts';
import { cachedTrailJudge, httpTrailJudge, importedTrailJudge, type TrailJudge, type TrailScores } from '../core/scoring/judges/trail.ts';
import { scoreQaAnswers, type QaAnswersReport, type QaPrediction, type QaTruth } from '../core/scoring/vqa/qaAnswers.ts';
import { judgeTrails, scoreTrails, trailRequests, TRAIL_SUBSETS, type FomerReport, type TrailSubsets } from '../core/scoring/vqa/trails.ts';
import type { SourceFile } from '../formats/json.ts';
import { readQaAnswers, type SameModel } from '../formats/qa/answers.ts';
import { GROUND_TRUTH_FILES, readQaGroundTruth } from '../formats/qa/groundTruth.ts';
import { readTrailScores } from '../formats/qa/trailScores.ts';
import { CliError, InputError, isRegularFile, readInputText, readTree, statInput, writeOutput } from './files.ts';
import { fileVerdictCache, httpJudgeFromEnv, type JudgeEnv } from './httpJudge.ts';
import { wholeNumber } from './options.ts';
import { formatFomer, formatQaSummary } from './scoreQaTables.ts';

export interface ScoreQaArgs {
  gt?: string;
  pred?: string[];
  tau?: string;
  averaging?: string;
  bootstrap?: string;
  seed?: string;
  out?: string;
  json: boolean;
  verdicts?: string;
  judge?: string;
  cache?: string;
  subsets?: string;
}

/**
 * What `score-qa` prints with --json and writes to qa_scores.json: the report, FoMER's reasoning
 * scores when a trail judge was given (else null), the files that named the same model, and every
 * problem read.
 */
export type QaScoresFile = QaAnswersReport & {
  groundTruth: string;
  predictions: string[];
  sameModel: SameModel[];
  fomer: FomerReport | null;
  problems: Problem[];
};

/** The ground-truth file: the path itself, or the first of qa/items.json, items.json, qa/items.jsonl, items.jsonl in the folder. */
function groundTruthFile(path: string): SourceFile {
  if (!statInput(path, 'ground truth').isDirectory()) return { path, text: readInputText(path, 'ground truth') };
  const found = GROUND_TRUTH_FILES.find((f) => isRegularFile(join(path, f)));
  if (!found) throw new InputError(`${path} holds none of ${GROUND_TRUTH_FILES.join(', ')}: not a QA bundle`);
  return { path: join(path, found), text: readInputText(join(path, found), 'ground truth') };
}

/**
 * The answer files of every --pred: the path itself, or every .jsonl / .ndjson under the folder.
 * With one --pred, paths are relative to it (as before); with several, each is named as given (a
 * folder's files under the folder's name), so two runs called answers.jsonl stay apart. A file
 * named twice is read once.
 */
function answerFiles(preds: readonly string[]): SourceFile[] {
  if (preds.length === 1) return readTree(preds[0]!, ['.jsonl', '.ndjson'], 'answers');
  const out: SourceFile[] = [];
  const seen = new Map<string, string>();
  for (const p of preds) {
    const dir = statInput(p, 'answers').isDirectory();
    for (const f of readTree(p, ['.jsonl', '.ndjson'], 'answers')) {
      const path = dir ? join(p, f.path) : p;
      const full = resolve(path);
      const first = seen.get(full);
      if (first !== undefined) {
        process.stderr.write(`traversa: note: ${path} is given twice (as ${first}); read once\n`);
        continue;
      }
      seen.set(full, path);
      out.push({ path, text: f.text });
    }
  }
  return out;
}

/** The trail judge the flags ask for, or null (no FoMER scores); with the HTTP judge, the cache to flush at the end. */
function trailJudgeFromFlags(a: ScoreQaArgs, env: JudgeEnv): { judge: TrailJudge | null; problems: Problem[]; done: () => void } {
  const none = () => {};
  if (a.verdicts) {
    if (a.judge !== undefined && a.judge !== 'imported')
      throw new CliError('--verdicts supplies the reasoning judge; leave out --judge or write --judge imported');
    const read = readTrailScores({ path: a.verdicts, text: readInputText(a.verdicts, 'verdict file') });
    for (const p of read.problems) process.stderr.write(formatProblem(p) + '\n');
    if (hasBlocking(read.problems)) throw new InputError(`${a.verdicts}: the reasoning scores cannot be read`);
    return { judge: importedTrailJudge(read.entries, read.name), problems: read.problems, done: none };
  }
  if (a.judge === undefined || a.judge === 'none') return { judge: null, problems: [], done: none };
  if (a.judge === 'imported') throw new CliError('--judge imported needs --verdicts <file> (the reasoning scores)');
  if (a.judge !== 'http') throw new CliError(`--judge is none or http for score-qa (or give --verdicts <file>), not "${a.judge}"`);
  const cachePath = a.cache ?? (a.out ? join(a.out, 'judge-cache.json') : undefined);
  if (!cachePath) throw new CliError('--judge http keeps its verdicts in a cache: give --out <dir> or --cache <file>');
  const cache = fileVerdictCache<TrailScores>(cachePath);
  const { choice, io } = httpJudgeFromEnv(env);
  const judge = httpTrailJudge({
    baseUrl: choice.baseUrl,
    model: choice.model,
    fetch: io.fetch,
    sleep: io.sleep,
    apiKey: io.apiKey,
    baseDelayMs: io.baseDelayMs,
    timeoutMs: io.timeoutMs,
  });
  return { judge: cachedTrailJudge(judge, cache), problems: [], done: () => cache.flush() };
}

/** `score-qa`: models' answers to QA items, scored against a bundle's items (and their reasoning, with a trail judge). Returns what goes to stdout. */
export async function scoreQaCommand(a: ScoreQaArgs, env: JudgeEnv = process.env as JudgeEnv): Promise<string> {
  const preds = a.pred ?? [];
  if (!a.gt || preds.length === 0)
    throw new CliError(
      'score-qa needs --gt <bundle-dir|items.json|items.jsonl|project.traversa.json> --pred <answers.jsonl|dir> (--pred again for more files)',
    );
  let tau: number | null = null;
  if (a.tau !== undefined) {
    tau = Number(a.tau);
    if (a.tau.trim() === '' || !Number.isFinite(tau) || tau < 0)
      throw new CliError('--tau takes a number ≥ 0 (the relative tolerance of numeric answers, e.g. 0.1)');
  }
  if (a.averaging !== undefined && a.averaging !== 'micro' && a.averaging !== 'macro') throw new CliError('--averaging is micro or macro');
  if (a.subsets !== undefined && !(TRAIL_SUBSETS as readonly string[]).includes(a.subsets))
    throw new CliError(`--subsets is ${TRAIL_SUBSETS.join(', ')} (what FoMER's macro averages over), not "${a.subsets}"`);
  if (a.cache !== undefined && a.judge !== 'http') throw new CliError("--cache is the HTTP judge's verdict cache: it goes with --judge http");
  const resamples = wholeNumber('bootstrap', a.bootstrap, 0, MAX_RESAMPLES);
  const seed = wholeNumber('seed', a.seed, 1, MAX_SEED);
  const averaging = (a.averaging as 'micro' | 'macro' | undefined) ?? 'macro';
  const bootstrap = { resamples, seed, level: 0.95 };

  const gtFile = groundTruthFile(a.gt);
  const gt = readQaGroundTruth(gtFile);
  for (const p of gt.problems) process.stderr.write(formatProblem(p) + '\n');
  if (hasBlocking(gt.problems) || gt.items.length === 0) throw new InputError(`${gtFile.path}: no ground-truth items could be read`);
  const left = gt.problems.filter((p) => p.severity === 'error').length;
  if (left) process.stderr.write(`traversa: ${left} ground-truth record(s) left out (see above)\n`);

  const trail = trailJudgeFromFlags(a, env);
  const files = answerFiles(preds);
  if (files.length === 0) process.stderr.write(`traversa: no .jsonl answer files under ${preds.join(', ')}\n`);
  const read = readQaAnswers(files);
  for (const p of read.problems) process.stderr.write(formatProblem(p) + '\n');

  const report = scoreQaAnswers(gt.items, read.predictions, { tau, averaging, bootstrap });
  const fomer = trail.judge
    ? await scoreReasoningTrails(gt.items, read.predictions, report, trail.judge, {
        subsets: (a.subsets as TrailSubsets | undefined) ?? 'source',
        averaging,
        bootstrap,
      })
    : null;
  trail.done();
  const problems = [...gt.problems, ...trail.problems, ...read.problems];
  const full: QaScoresFile = { ...report, groundTruth: gtFile.path, predictions: files.map((f) => f.path), sameModel: read.sameModel, fomer, problems };
  if (a.out) {
    writeOutput(join(a.out, 'qa_scores.json'), JSON.stringify(full, null, 2) + '\n');
    writeOutput(
      join(a.out, 'qa_scored_items.jsonl'),
      report.models.flatMap((m) => m.items.map((it) => JSON.stringify({ model: m.model, ...it }) + '\n')).join(''),
    );
    if (fomer)
      writeOutput(
        join(a.out, 'qa_reasoning_items.jsonl'),
        fomer.models.flatMap((m) => m.items.map((it) => JSON.stringify({ model: m.model, ...it }) + '\n')).join(''),
      );
  }
  if (a.json) return JSON.stringify(full, null, 2);
  const withSteps = read.predictions.filter((p) => p.steps?.length).length;
  const hint =
    !fomer && withSteps ? `\n${withSteps} answer(s) carry reasoning steps: give --verdicts <file> or --judge http to score them (FoMER RA/FA).\n` : '';
  return formatQaSummary(report, problems, read.sameModel) + (fomer ? '\n' + formatFomer(fomer) : '') + hint;
}

/** Judge every answer's reasoning steps (progress on stderr for a slow judge) and score RA/FA. */
async function scoreReasoningTrails(
  truth: readonly QaTruth[],
  predictions: readonly QaPrediction[],
  report: QaAnswersReport,
  judge: TrailJudge,
  settings: Parameters<typeof scoreTrails>[5],
): Promise<FomerReport> {
  const requests = trailRequests(truth, predictions);
  let shown = 0;
  const verdicts = await judgeTrails(requests, judge, {
    concurrency: judge.info.kind === 'http' ? 4 : 1,
    onProgress: (done, total) => {
      if (judge.info.kind !== 'http' || (done < total && done - shown < 25)) return;
      shown = done;
      process.stderr.write(`traversa: judged ${done}/${total} reasoning trails\n`);
    },
  });
  const failed = [...verdicts.values()].filter((v) => 'error' in v).length;
  if (failed) process.stderr.write(`traversa: ${failed} of ${requests.length} reasoning trail(s) not judged (left out of RA, listed in the report)\n`);
  return scoreTrails(truth, predictions, report, verdicts, judge.info, settings);
}
