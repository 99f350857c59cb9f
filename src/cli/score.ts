import { join } from 'node:path';
import type { PaperArgs } from './scorePaper.ts';
import { MAX_RESAMPLES, MAX_SEED } from '../core/scoring/bootstrap.ts';
import type { CompatJudgeChoice } from '../core/scoring/compat/run.ts';
import type { HttpJudgeIo, JudgeChoice } from '../core/scoring/judges/choose.ts';
import { DEFAULT_WEIGHTS, type Weights } from '../core/scoring/paper/types.ts';
import { CliError, readInputText } from './files.ts';
import { fileVerdictCache, httpJudgeFromEnv, type JudgeEnv } from './httpJudge.ts';
import { shardOption, wholeNumber } from './options.ts';
import { scoreCompat } from './scoreCompat.ts';

/*
 * `score` and `baseline`: the arguments are checked here; the work is done by scoreCompat.ts
 * (`--compat reference`) or by scorePaper.ts, loaded only for paper mode and the baselines, so the
 * released scorer's mode starts without reading in paper mode's code and libraries.
 */

export interface ScoreArgs {
  gt?: string;
  pred?: string;
  out?: string;
  compat?: string;
  judge?: string;
  weights?: string;
  bootstrap?: string;
  seed?: string;
  level?: string;
  averaging?: string;
  verdicts?: string;
  cache?: string;
  json: boolean;
  acceptUnjudged?: boolean;
  table2?: boolean;
  shard?: string;
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

/** `--level`; undefined when not given (paper mode's default applies). */
function parseLevel(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === '' || !(x > 0 && x < 1)) throw new CliError("--level takes the intervals' coverage, a fraction between 0 and 1 (e.g. 0.95)");
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

/** `score`: paper mode by default, the released scorer with `--compat reference`. Returns what goes to stdout and the exit code. */
export async function scoreCommand(a: ScoreArgs, env: JudgeEnv = process.env as JudgeEnv): Promise<{ text: string; code: number }> {
  if (!a.gt || !a.pred || !a.out) throw new CliError('score needs --gt <release-dir> --pred <results-dir> --out <dir>');
  if (a.compat !== undefined && a.compat !== 'reference') throw new CliError(`--compat takes "reference", not "${a.compat}"`);
  const weights = parseWeights(a.weights);
  const resamples = wholeNumber('bootstrap', a.bootstrap, 0, MAX_RESAMPLES);
  const seed = a.seed === undefined ? undefined : wholeNumber('seed', a.seed, 0, MAX_SEED);
  const level = parseLevel(a.level);
  if (a.averaging !== undefined && a.averaging !== 'micro' && a.averaging !== 'macro') throw new CliError('--averaging is micro or macro');
  const shard = shardOption(a.shard);
  if (a.compat === 'reference') {
    if (shard) throw new CliError('--shard splits a paper-mode run; the released scorer (--compat reference) runs whole');
    if (a.judge === 'http' || a.judge === 'imported' || a.verdicts)
      throw new CliError('--compat reference drops every reason, as the released scorer does: only --judge rule or none apply');
    if (a.table2) throw new CliError("--table2 is written in paper mode (the paper's definitions); leave out --compat reference");
    return { text: await scoreCompat(a, a.gt, a.pred, a.out, judgeFromFlags(a, {}).choice as CompatJudgeChoice), code: 0 };
  }
  const { choice, http, done } = judgeFromFlags(a, env);
  try {
    const paper: PaperArgs = {
      gt: a.gt,
      pred: a.pred,
      out: a.out,
      json: a.json,
      weights,
      judge: choice,
      http,
      averaging: a.averaging,
      resamples,
      seed,
      level,
      acceptUnjudged: a.acceptUnjudged === true,
      table2: a.table2 === true,
    };
    // A shard scores its scenes for `merge`; the whole run writes the outputs.
    if (shard) return await (await import('./scoreShard.ts')).scoreShard({ ...paper, shard });
    return await (await import('./scorePaper.ts')).scorePaper(paper);
  } finally {
    done();
  }
}

/** `baseline random|oracle --gt <release-dir> --out <file.jsonl> [--seed N]`. */
export async function baselineCommand(kind: string | undefined, a: { gt?: string; out?: string; seed?: string }): Promise<string> {
  if (kind !== 'random' && kind !== 'oracle') throw new CliError('baseline takes "random" or "oracle"');
  if (!a.gt || !a.out) throw new CliError('baseline needs --gt <release-dir> --out <file.jsonl>');
  const seed = wholeNumber('seed', a.seed, 1, MAX_SEED);
  const { writeBaseline } = await import('./scorePaper.ts');
  return writeBaseline(kind, a.gt, a.out, seed);
}
