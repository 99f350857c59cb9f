import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { HttpJudgeIo, JudgeChoice } from '../core/scoring/judges/choose.ts';
import { JUDGE_TIMEOUT_MS } from '../core/scoring/judges/http.ts';
import type { CachedVerdict, VerdictCache } from '../core/scoring/judges/types.ts';
import { CliError } from './files.ts';

/**
 * The judge cache as a JSON file (`<out>/judge-cache.json` unless `--cache` names another):
 *
 *     { "format": "traversa-judge-cache", "version": 1,
 *       "entries": { "[\"http:gpt-4o@https://api.openai.com/v1/chat/completions\",\"capnav-rv-1\",\"<reason>\",[\"<note>\"]]":
 *                    { "correct": true, "explanation": "…" } } }
 *
 * Keys are `verdictKey` tuples (judge id, prompt version, reason, notes): readable, and free of
 * credentials. Written atomically every `flushEvery` new verdicts and at the end, so an
 * interrupted run keeps what it paid for.
 */
export interface FileVerdictCache<T = CachedVerdict> {
  get(key: string): T | undefined;
  set(key: string, verdict: T): void;
  flush(): void;
  readonly size: number;
}

/** The cache file; `T` is what a verdict holds (RV: correct + explanation; FoMER's trail judge: the rubric scores). */
export function fileVerdictCache<T = CachedVerdict>(path: string, flushEvery = 25): FileVerdictCache<T> {
  let entries: Record<string, T> = {};
  if (existsSync(path)) {
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; entries?: unknown };
      if (parsed.format !== 'traversa-judge-cache' || typeof parsed.entries !== 'object' || parsed.entries === null)
        throw new Error('not a Traversa judge cache');
      entries = parsed.entries as Record<string, T>;
    } catch (e) {
      throw new CliError(`${path} cannot be used as the judge cache: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  let unsaved = 0;
  const flush = () => {
    if (unsaved === 0) return;
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ format: 'traversa-judge-cache', version: 1, entries }, null, 1) + '\n');
    renameSync(tmp, path);
    unsaved = 0;
  };
  return {
    get: (key) => (Object.hasOwn(entries, key) ? entries[key] : undefined),
    set: (key, v) => {
      entries[key] = v;
      if (++unsaved >= flushEvery) flush();
    },
    flush,
    get size() {
      return Object.keys(entries).length;
    },
  };
}

export interface JudgeEnv {
  TRAVERSA_JUDGE_URL?: string;
  TRAVERSA_JUDGE_MODEL?: string;
  TRAVERSA_JUDGE_KEY?: string;
  /** First retry delay in ms (default 1000). */
  TRAVERSA_JUDGE_RETRY_MS?: string;
  /** Per-request time limit in ms (default 60000). */
  TRAVERSA_JUDGE_TIMEOUT_MS?: string;
}

/**
 * The HTTP judge as the command line runs it: the endpoint and model from the environment, Node's
 * fetch, the per-request time limit, real timers, the key (read here and only here) and the
 * verdict cache. The judge itself is built by the pipeline's judge factory.
 */
export function httpJudgeFromEnv(env: JudgeEnv, cache?: VerdictCache): { choice: Extract<JudgeChoice, { kind: 'http' }>; io: HttpJudgeIo } {
  const baseUrl = env.TRAVERSA_JUDGE_URL?.trim();
  const model = env.TRAVERSA_JUDGE_MODEL?.trim();
  if (!baseUrl || !model)
    throw new CliError('--judge http needs TRAVERSA_JUDGE_URL and TRAVERSA_JUDGE_MODEL in the environment (and TRAVERSA_JUDGE_KEY if the endpoint wants one)');
  const timeoutMs = Number(env.TRAVERSA_JUDGE_TIMEOUT_MS ?? JUDGE_TIMEOUT_MS);
  if (!(timeoutMs > 0))
    throw new CliError(`TRAVERSA_JUDGE_TIMEOUT_MS is the time limit per judge request in milliseconds, a number > 0, not "${env.TRAVERSA_JUDGE_TIMEOUT_MS}"`);
  return {
    choice: { kind: 'http', baseUrl, model },
    io: {
      fetch: (url, init) => fetch(url, init as RequestInit),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      timeoutMs,
      apiKey: env.TRAVERSA_JUDGE_KEY || undefined,
      baseDelayMs: Number(env.TRAVERSA_JUDGE_RETRY_MS ?? 1000),
      ...(cache ? { cache } : {}),
    },
  };
}
