import { join } from 'node:path';
import { formatProblem } from '../core/problems.ts';
import type { Project } from '../core/project.ts';
import { oracleBaseline, randomWalkBaseline } from '../core/scoring/baselines.ts';
import { MAX_RESAMPLES, MAX_SEED } from '../core/scoring/bootstrap.ts';
import type { HttpJudgeIo, JudgeChoice } from '../core/scoring/judges/choose.ts';
import { paperRecordsJsonl, paperSummary } from '../core/scoring/paper/export.ts';
import { DEFAULT_WEIGHTS, type PaperReport, type Weights } from '../core/scoring/paper/types.ts';
import { DEFAULT_PAPER_SETTINGS, runScoring, type CompatJudgeChoice, type ScoringInput } from '../core/scoring/pipeline.ts';
import { readRelease } from '../formats/capnav/read.ts';
import { toPredictionJsonl } from '../formats/predictions/jsonl.ts';
import { predictionReaders } from '../formats/predictions/read.ts';
import { CliError, InputError, makeFolder, readInputText, readJsonFiles, readTree, writeOutput } from './files.ts';
import { fileVerdictCache, httpJudgeFromEnv, type JudgeEnv } from './httpJudge.ts';
import { wholeNumber } from './options.ts';
import { scoreCompat } from './scoreCompat.ts';
import { formatPaperSummary } from './scoreTables.ts';

export interface ScoreArgs {
  gt?: string; pred?: string; out?: string; compat?: string; judge?: string; weights?: string;
  bootstrap?: string; seed?: string; level?: string; averaging?: string; verdicts?: string; cache?: string; json: boolean;
}

function loadProject(dir: string): Project {
  const { project, problems } = readRelease(readJsonFiles(dir));
  if (!project) {
    for (const p of problems.filter((q) => q.severity === 'fatal')) process.stderr.write(formatProblem(p) + '\n');
    throw new InputError(`${dir} cannot be read as a CapNav release (run "validate" for every problem)`);
  }
  return project;
}

export function parseWeights(text: string | undefined): Weights {
  if (text === undefined) return DEFAULT_WEIGHTS;
  const parts = text.split(',').map((s) => Number(s.trim()));
  if (parts.length !== 4 || parts.some((x) => !Number.isFinite(x) || x < 0) || parts.every((x) => x === 0)) {
    throw new CliError('--weights takes four non-negative numbers λc,λp,λt,λr (F1, PV, RTA, RV), e.g. 0.25,0.25,0.25,0.25');
  }
  const [f1, pv, rta, rv] = parts as [number, number, number, number];
  return { f1, pv, rta, rv };
}

function parseLevel(v: string | undefined): number {
  if (v === undefined) return DEFAULT_PAPER_SETTINGS.bootstrap.level;
  const x = Number(v);
  if (v.trim() === '' || !(x > 0 && x < 1)) throw new CliError('--level takes the intervals\' coverage, a fraction between 0 and 1 (e.g. 0.95)');
  return x;
}

/** The judge the flags ask for (default: rule); for the HTTP judge also its IO and the cache to flush at the end. */
function judgeFromFlags(a: ScoreArgs, env: JudgeEnv): { choice: JudgeChoice; http?: HttpJudgeIo; done: () => void } {
  if (a.verdicts) {
    if (a.judge !== undefined && a.judge !== 'imported') throw new CliError('--verdicts supplies the judge; leave out --judge or write --judge imported');
    return { choice: { kind: 'imported', file: { path: a.verdicts, text: readInputText(a.verdicts, 'verdict file') } }, done: () => {} };
  }
  const kind = a.judge ?? 'rule';
  if (kind === 'rule' || kind === 'none') return { choice: { kind }, done: () => {} };
  if (kind !== 'http') throw new CliError(`--judge is rule, none or http (or give --verdicts <file>), not "${a.judge}"`);
  const cache = fileVerdictCache(a.cache ?? join(a.out!, 'judge-cache.json'));
  const { choice, io } = httpJudgeFromEnv(env, cache);
  return { choice, http: io, done: () => cache.flush() };
}

/** `score`: paper mode by default, the released scorer with `--compat reference`. Returns what goes to stdout. */
export async function scoreCommand(a: ScoreArgs, env: JudgeEnv = process.env as JudgeEnv): Promise<string> {
  if (!a.gt || !a.pred || !a.out) throw new CliError('score needs --gt <release-dir> --pred <results-dir> --out <dir>');
  if (a.compat !== undefined && a.compat !== 'reference') throw new CliError(`--compat takes "reference", not "${a.compat}"`);
  const weights = parseWeights(a.weights);
  const bootstrap = { resamples: wholeNumber('bootstrap', a.bootstrap, 0, MAX_RESAMPLES), seed: wholeNumber('seed', a.seed, DEFAULT_PAPER_SETTINGS.bootstrap.seed, MAX_SEED), level: parseLevel(a.level) };
  if (a.averaging !== undefined && a.averaging !== 'micro' && a.averaging !== 'macro') throw new CliError('--averaging is micro or macro');
  if (a.compat === 'reference') {
    if (a.judge === 'http' || a.judge === 'imported' || a.verdicts) throw new CliError('--compat reference drops every reason, as the released scorer does: only --judge rule or none apply');
    return scoreCompat(a, a.gt, a.pred, a.out, judgeFromFlags(a, {}).choice as CompatJudgeChoice);
  }

  const { choice, http, done } = judgeFromFlags(a, env);
  const project = loadProject(a.gt);
  makeFolder(a.out);
  try {
    const outcome = await runScoring({
      mode: 'paper', project, input: predictionsUnder(a.pred),
      settings: { judge: choice, weights, averaging: (a.averaging as 'micro' | 'macro' | undefined) ?? DEFAULT_PAPER_SETTINGS.averaging, bootstrap },
    }, predictionReaders, { http });
    if (outcome.reports.length === 0) process.stderr.write(`traversa: no predictions found under ${a.pred}\n`);
    const reports = new Map(outcome.reports);
    const summary = paperSummary(reports, outcome.problems);
    writeOutput(join(a.out, 'scored_per_record.jsonl'), paperRecordsJsonl(reports));
    writeOutput(join(a.out, 'scored_summary.json'), JSON.stringify(summary, null, 2) + '\n');
    const repeats = reportDuplicates(reports, join(a.out, 'scored_summary.json'));
    const others = summary.problems.length - repeats;
    if (others) process.stderr.write(`traversa: ${others} ${repeats ? 'other ' : ''}problem(s) with the predictions; listed in ${join(a.out, 'scored_summary.json')}\n`);
    return a.json ? JSON.stringify(summary, null, 2) : formatPaperSummary(summary);
  } finally {
    done();
  }
}

/**
 * A (model, scene, question, agent) predicted more than once — say a JSONL file and a results
 * folder for one model — is scored every time, as the released scorer scores every record it
 * reads. One line per model on stderr says so (the summary lists each repeat); returns how many.
 */
function reportDuplicates(reports: ReadonlyMap<string, PaperReport>, summaryPath: string): number {
  let total = 0;
  for (const [model, report] of reports) {
    const repeats = report.problems.filter((p) => p.code === 'prediction.duplicate');
    if (repeats.length === 0) continue;
    total += repeats.length;
    const first = repeats[0]!, earlier = /\(the first is (.*)\)/.exec(first.message)?.[1];
    const example = `${first.file}${first.location ? ` ${first.location}` : ''}${earlier ? ` repeats ${earlier}` : ''}`;
    process.stderr.write(`traversa: ${repeats.length.toLocaleString('en-US')} prediction${repeats.length === 1 ? ' of model ' + model + ' was' : 's of model ' + model + ' were'} given twice`
      + ` (same scene, question and agent; e.g. ${example}); both are scored, as the released scorer does — see README, "Duplicate predictions"; each is listed in ${summaryPath}\n`);
  }
  return total;
}

/** Every prediction file under `--pred` (or the one file it names). */
const predictionsUnder = (root: string): ScoringInput => ({ root, files: readTree(root, ['.json', '.jsonl', '.txt'], 'predictions') });

/** `baseline random|oracle --gt <release-dir> --out <file.jsonl> [--seed N]`. */
export function baselineCommand(kind: string | undefined, a: { gt?: string; out?: string; seed?: string }): string {
  if (kind !== 'random' && kind !== 'oracle') throw new CliError('baseline takes "random" or "oracle"');
  if (!a.gt || !a.out) throw new CliError('baseline needs --gt <release-dir> --out <file.jsonl>');
  const project = loadProject(a.gt);
  const rows = kind === 'oracle' ? oracleBaseline(project) : randomWalkBaseline(project, { seed: wholeNumber('seed', a.seed, 1, MAX_SEED) });
  writeOutput(a.out, toPredictionJsonl(rows));
  return `wrote ${rows.length} ${kind === 'oracle' ? 'oracle' : 'random-walk'} predictions to ${a.out}`;
}
