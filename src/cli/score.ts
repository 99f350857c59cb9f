import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { formatProblem } from '../core/problems.ts';
import type { Project } from '../core/project.ts';
import { oracleBaseline, randomWalkBaseline } from '../core/scoring/baselines.ts';
import { groundTruthFromRelease, scoreReference, toJsonl, toSummaryJson } from '../core/scoring/compat/index.ts';
import { cachedJudge } from '../core/scoring/judges/cache.ts';
import { importedJudge } from '../core/scoring/judges/imported.ts';
import { judgeByCategories, ruleJudge } from '../core/scoring/judges/rule.ts';
import type { Judge } from '../core/scoring/judges/types.ts';
import { paperRecordsJsonl, paperSummary } from '../core/scoring/paper/export.ts';
import { scorePaperByModel } from '../core/scoring/paper/score.ts';
import { DEFAULT_WEIGHTS, type Weights } from '../core/scoring/paper/types.ts';
import { readRelease } from '../formats/capnav/read.ts';
import { toPredictionJsonl } from '../formats/predictions/jsonl.ts';
import { readPredictions, SCORER_OUTPUTS } from '../formats/predictions/read.ts';
import { readVerdictFile } from '../formats/predictions/verdicts.ts';
import { CliError, InputError, readJsonFiles, readTree } from './files.ts';
import { fileVerdictCache, httpJudgeFromEnv, type JudgeEnv } from './httpJudge.ts';
import { formatPaperSummary, formatReferenceSummary } from './scoreTables.ts';

export interface ScoreArgs {
  gt?: string; pred?: string; out?: string; compat?: string; judge?: string; weights?: string;
  bootstrap?: string; seed?: string; averaging?: string; verdicts?: string; cache?: string; json: boolean;
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

const count = (flag: string, v: string | undefined, dflt: number): number => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`--${flag} takes a whole number ≥ 0`);
  return n;
};

/** The judge `--judge` asks for (default: rule), with its cache when it is an LLM. */
function makeJudge(a: ScoreArgs, env: JudgeEnv): { judge: Judge | null; done: () => void } {
  if (a.verdicts) {
    if (a.judge !== undefined && a.judge !== 'imported') throw new CliError('--verdicts supplies the judge; leave out --judge or write --judge imported');
    const file = { path: a.verdicts, text: readFileSync(a.verdicts, 'utf8') };
    const read = readVerdictFile(file);
    for (const p of read.problems) process.stderr.write(formatProblem(p) + '\n');
    return { judge: importedJudge(read.verdicts, read.name), done: () => {} };
  }
  switch (a.judge ?? 'rule') {
    case 'rule': return { judge: ruleJudge(), done: () => {} };
    case 'none': return { judge: null, done: () => {} };
    case 'http': {
      const cache = fileVerdictCache(a.cache ?? join(a.out!, 'judge-cache.json'));
      return { judge: cachedJudge(httpJudgeFromEnv(env), cache), done: () => cache.flush() };
    }
    default: throw new CliError(`--judge is rule, none or http (or give --verdicts <file>), not "${a.judge}"`);
  }
}

/** `score`: paper mode by default, the released scorer with `--compat reference`. Returns what goes to stdout. */
export async function scoreCommand(a: ScoreArgs, env: JudgeEnv = process.env as JudgeEnv): Promise<string> {
  if (!a.gt || !a.pred || !a.out) throw new CliError('score needs --gt <release-dir> --pred <results-dir> --out <dir>');
  if (a.compat !== undefined && a.compat !== 'reference') throw new CliError(`--compat takes "reference", not "${a.compat}"`);
  const weights = parseWeights(a.weights);
  const resamples = count('bootstrap', a.bootstrap, 0);
  const seed = count('seed', a.seed, 1);
  if (a.averaging !== undefined && a.averaging !== 'micro' && a.averaging !== 'macro') throw new CliError('--averaging is micro or macro');
  if (!statSync(a.gt, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`${a.gt} is not a folder`);
  mkdirSync(a.out, { recursive: true });

  if (a.compat === 'reference') return scoreCompat(a);

  const project = loadProject(a.gt);
  const files = readTree(a.pred, ['.json', '.jsonl', '.txt'], 'predictions');
  const defaultModel = basename(a.pred).replace(/\.[^.]+$/, '') || 'model';
  const read = readPredictions(files, defaultModel);
  if (read.predictions.length === 0) process.stderr.write(`traversa: no predictions found under ${a.pred}\n`);
  const { judge, done } = makeJudge(a, env);
  try {
    const reports = await scorePaperByModel(project, read.predictions, {
      weights, judge, averaging: (a.averaging as 'micro' | 'macro' | undefined) ?? 'micro', bootstrap: { resamples, seed, level: 0.95 },
    });
    const summary = paperSummary(reports, read.problems);
    writeFileSync(join(a.out, 'scored_per_record.jsonl'), paperRecordsJsonl(reports));
    writeFileSync(join(a.out, 'scored_summary.json'), JSON.stringify(summary, null, 2) + '\n');
    if (summary.problems.length) process.stderr.write(`traversa: ${summary.problems.length} problem(s) with the predictions; listed in ${join(a.out, 'scored_summary.json')}\n`);
    return a.json ? JSON.stringify(summary, null, 2) : formatPaperSummary(summary);
  } finally {
    done();
  }
}

/** `--compat reference`: the released Python scorer's numbers and files (scoring.md §2). */
function scoreCompat(a: ScoreArgs): string {
  if (a.judge === 'http' || a.verdicts) throw new CliError('--compat reference drops every reason, as the released scorer does: only --judge rule or none apply');
  const gt = groundTruthFromRelease(readJsonFiles(a.gt!));
  for (const p of gt.problems) process.stderr.write(`${p.path}: ${p.message}\n`);
  const files = readTree(a.pred!, ['.json'], 'predictions').filter((f) => !SCORER_OUTPUTS.has(f.path.split('/').pop()!) && !/^scored_/.test(f.path.split('/').pop()!));
  const judge = a.judge === 'none' ? () => 0 as const : (reason: string, notes: readonly string[]) => (judgeByCategories({ reason, notes: [...notes], agent: '' }).correct ? 1 as const : 0 as const);
  const result = scoreReference(files, gt.groundTruth, { judge });
  writeFileSync(join(a.out!, 'scored_per_record.jsonl'), toJsonl(result.records));
  const summaryText = toSummaryJson(result.summary);
  writeFileSync(join(a.out!, 'scored_summary.json'), summaryText);
  return a.json ? summaryText : formatReferenceSummary(result.summary);
}

/** `baseline random|oracle --gt <release-dir> --out <file.jsonl> [--seed N]`. */
export function baselineCommand(kind: string | undefined, a: { gt?: string; out?: string; seed?: string }): string {
  if (kind !== 'random' && kind !== 'oracle') throw new CliError('baseline takes "random" or "oracle"');
  if (!a.gt || !a.out) throw new CliError('baseline needs --gt <release-dir> --out <file.jsonl>');
  if (!statSync(a.gt, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`${a.gt} is not a folder`);
  const project = loadProject(a.gt);
  const rows = kind === 'oracle' ? oracleBaseline(project) : randomWalkBaseline(project, { seed: count('seed', a.seed, 1) });
  mkdirSync(dirname(a.out), { recursive: true });
  writeFileSync(a.out, toPredictionJsonl(rows));
  return `wrote ${rows.length} ${kind === 'oracle' ? 'oracle' : 'random-walk'} predictions to ${a.out}`;
}
