import { join } from 'node:path';
import { answerKey, chatContent, digest } from '../core/evalinputs/request.ts';
import { modelSettingName, runInputs, type ModelAnswer } from '../core/evalinputs/run.ts';
import type { EvalInput } from '../core/evalinputs/types.ts';
import { chatJudge, endpointHost, type ChatContentPart, type FetchLike } from '../core/scoring/judges/http.ts';
import { secretRedactor, urlSecrets } from '../core/scoring/judges/redact.ts';
import { readModelReply, type ReadReply } from '../formats/predictions/modelReply.ts';
import { outcomeOfReading, runnerResultFiles, type ItemOutcome } from '../formats/predictions/runnerWrite.ts';
import { answerCache } from './answerCache.ts';
import { count, inputsFromExport, inputsFromRelease, type LoadedInputs } from './evalInputs.ts';
import { CliError, writeOutput } from './files.ts';
import { shardOption } from './options.ts';
import { ofShard, writeRunModelShard } from './runModelShard.ts';
import { frameBudget, readFrame } from './frameSets.ts';
import { wholeNumber } from './options.ts';
import { progressLine, runSummary, summaryText, type RunFacts, RUN_SUMMARY } from './runModelReport.ts';
import { readPng, spatialFiles, SpatialUrls } from './spatialInputs.ts';

export interface RunModelArgs {
  gt?: string;
  inputs?: string;
  endpoint?: string;
  model?: string;
  frames?: string;
  out?: string;
  concurrency?: string;
  retries?: string;
  limit?: string;
  cache?: string;
  agents: string[];
  scenes: string[];
  json: boolean;
  shard?: string;
}

export interface RunModelEnv {
  /** Sent as a bearer token; never written anywhere. */
  TRAVERSA_VLM_KEY?: string;
  /** First retry delay in ms (default 1000; doubles per retry, up to 30 s). */
  TRAVERSA_VLM_RETRY_MS?: string;
  /** Time limit per request in ms (default 180000). */
  TRAVERSA_VLM_TIMEOUT_MS?: string;
}

const DEFAULT_TIMEOUT_MS = 180_000;

/** The endpoint as given (`https://host/v1`, or the full `…/chat/completions`), checked to be an http(s) URL. */
function checkEndpoint(url: string | undefined): string {
  if (!url) throw new CliError('run-model needs --endpoint <url> (an OpenAI-compatible API, e.g. https://api.openai.com/v1)');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(
      `--endpoint is not a URL: "${secretRedactor(urlSecrets(url))(url)}" (give the API's base, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1)`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(`--endpoint must be an http:// or https:// URL, not ${parsed.protocol}`);
  return url;
}

/** A scene's frames read once, as data URLs, for the requests (the few most recent scenes kept). */
class FrameUrls {
  private readonly sets = new Map<string, string[]>();
  constructor(private readonly root: string) {}
  of(input: EvalInput): string[] {
    const key = input.frames.map((f) => f.file).join('\n');
    let urls = this.sets.get(key);
    if (!urls) {
      urls = input.frames.map((f) => `data:image/jpeg;base64,${readFrame(this.root, f.file).toString('base64')}`);
      this.sets.set(key, urls);
      if (this.sets.size > 3) this.sets.delete(this.sets.keys().next().value!);
    }
    return urls;
  }
}

/** `run-model`: ask a model every evaluation input and write its predictions for `score`. */
export async function runModelCommand(a: RunModelArgs, env: RunModelEnv = process.env as RunModelEnv): Promise<{ text: string; code: number }> {
  if (!a.gt === !a.inputs) throw new CliError('run-model needs --gt <release-dir> (with --frames) or --inputs <dir> (what "eval-inputs" wrote), one of them');
  const endpoint = checkEndpoint(a.endpoint);
  if (!a.model?.trim()) throw new CliError('run-model needs --model <name> (the model the endpoint serves)');
  if (!a.out) throw new CliError('run-model needs --out <results-dir>');
  const model = a.model.trim();
  const concurrency = Math.max(1, wholeNumber('concurrency', a.concurrency, 4, 64));
  const retries = wholeNumber('retries', a.retries, 3, 10);
  const limit = a.limit === undefined ? Infinity : wholeNumber('limit', a.limit, 0, 10_000_000);
  const timeoutMs = Number(env.TRAVERSA_VLM_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
  if (!(timeoutMs > 0))
    throw new CliError(`TRAVERSA_VLM_TIMEOUT_MS is the time limit per request in milliseconds, a number > 0, not "${env.TRAVERSA_VLM_TIMEOUT_MS}"`);
  const baseDelayMs = Number(env.TRAVERSA_VLM_RETRY_MS ?? 1000);
  if (!(baseDelayMs >= 0)) throw new CliError(`TRAVERSA_VLM_RETRY_MS is the first retry's delay in milliseconds, not "${env.TRAVERSA_VLM_RETRY_MS}"`);

  const loaded: LoadedInputs = a.gt
    ? inputsFromRelease(a.gt, frameBudget(a.frames, 'run-model'), a.agents, a.scenes)
    : inputsFromExport(a.inputs!, a.frames, a.agents, a.scenes);
  const shard = shardOption(a.shard);
  const asked = loaded.inputs.slice(0, limit);
  const inputs = shard ? ofShard(asked, shard) : asked;
  // Every frame read and checked before the first request: a missing or broken frame stops the run now, not halfway.
  const digests = new Map<string, string>();
  for (const input of inputs) {
    for (const f of input.frames) if (!digests.has(f.file)) digests.set(f.file, digest(readFrame(loaded.root, f.file)));
    for (const file of spatialFiles(input)) if (!digests.has(file)) digests.set(file, digest(readPng(loaded.root, file)));
  }
  const keyOf = (input: EvalInput) =>
    answerKey(
      model,
      input,
      input.frames.map((f) => digests.get(f.file)!),
      spatialFiles(input).map((file) => digests.get(file)!),
    );

  const cache = answerCache(a.cache ?? join(a.out, '.cache'));
  const frames = new FrameUrls(loaded.root);
  const spatial = new SpatialUrls(loaded.root);
  const cancel = new AbortController();
  const client = chatJudge<{ content: ChatContentPart[] }, ModelAnswer<ReadReply>>(
    {
      baseUrl: endpoint,
      model,
      apiKey: env.TRAVERSA_VLM_KEY || undefined,
      fetch: fetchSayingWhy,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      timeoutMs,
      cancel: cancel.signal,
      maxAttempts: retries + 1,
      baseDelayMs,
    },
    {
      promptVersion: inputs[0]?.promptVersion ?? '',
      noun: 'model',
      reportStatus: true,
      user: (req) => req.content,
      read: (content, reply) => ({
        reading: readModelReply(content),
        content,
        ms: 0,
        usage: { prompt: tokens(reply.usage?.prompt_tokens), completion: tokens(reply.usage?.completion_tokens) },
      }),
      release: (v, clean) => ({ ...v, content: clean(v.content), reading: cleanReading(v.reading, clean) }),
    },
  );

  let interrupted = false;
  const onSignal = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    cancel.abort();
    process.stderr.write('run-model: stopping (answers received so far are kept; press Ctrl-C again to quit at once)\n');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const startedAt = new Date();
  let lastLine = 0;
  let run;
  try {
    run = await runInputs<ReadReply>(inputs, {
      concurrency,
      now: () => Date.now(),
      stopped: () => interrupted,
      cached: async (input) => cache.get(keyOf(input)),
      store: async (input, answer) =>
        cache.set(keyOf(input), answer, {
          model,
          promptVersion: input.promptVersion,
          scene: input.scene,
          agent: input.agent,
          questionIndex: input.questionIndex,
        }),
      ask: async (input) => {
        const t0 = Date.now();
        const answer = await client.judge({ content: chatContent(input, frames.of(input), spatial.of(input)) });
        return 'error' in answer ? answer : { ...answer, ms: Date.now() - t0 };
      },
      onProgress: (p) => {
        const now = Date.now();
        if (p.done < p.total && now - lastLine < 1000) return;
        lastLine = now;
        process.stderr.write(progressLine(p) + '\n');
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const setting = modelSettingName(model, loaded.budget, loaded.with);
  const facts: RunFacts = {
    model,
    endpointHost: endpointHost(endpoint),
    budget: loaded.budget,
    with: loaded.with,
    setting,
    startedAt,
    concurrency,
    retries,
    inputs,
    excluded: loaded.excluded.length,
    run,
  };
  const summary = runSummary(facts);
  if (run.stoppedBy !== null) {
    const why = run.stoppedBy === 'interrupted' ? 'interrupted' : `stopped: ${run.stoppedBy}`;
    return {
      text: `${summaryText(summary)}\nrun-model ${why}. No results written; the ${count(run.progress.requested + run.progress.cached, 'answer')} received are kept in ${cache.dir}: run the same command again to go on from there.`,
      code: interrupted ? 130 : 1,
    };
  }
  const items = inputs.map((input, i) => {
    const o = run.outcomes[i]!;
    const outcome: ItemOutcome =
      o.kind === 'answered' ? outcomeOfReading(o.answer.reading, o.answer.content) : { kind: 'failed', error: o.kind === 'failed' ? o.error : 'not asked' };
    return { input, outcome };
  });
  const files = runnerResultFiles(items, setting);
  for (const f of files) writeOutput(join(a.out, f.path), f.text);
  writeOutput(join(a.out, setting, RUN_SUMMARY), JSON.stringify(summary, null, 2) + '\n');
  if (shard) writeRunModelShard(a.out, shard, asked, summary);
  const text = a.json
    ? JSON.stringify(summary, null, 2)
    : `${summaryText(summary)}\nwrote ${count(files.length, 'result file')} to ${join(a.out, setting)} and the run summary ${join(a.out, setting, RUN_SUMMARY)}` +
      `\nscore them: npm run -s cli -- score --gt <release-dir> --pred ${a.out} --out <dir>`;
  if (summary.counts.failed > 0) {
    process.stderr.write(
      `run-model: ${count(summary.counts.failed, 'request')} failed; written as unanswered (scored as wrong answers). Run the same command again to ask them again (answers received come from the cache).\n`,
    );
    return { text, code: 1 };
  }
  return { text, code: 0 };
}

/**
 * Node's fetch, its failures saying why: Node reports a refused connection or an unknown host as
 * "fetch failed" with the reason only in `cause` ("connect ECONNREFUSED 127.0.0.1:8000").
 */
const fetchSayingWhy: FetchLike = async (url, init) => {
  try {
    return await (fetch(url, init as RequestInit) as ReturnType<FetchLike>);
  } catch (e) {
    const cause = (e as { cause?: unknown }).cause;
    if (e instanceof TypeError && cause instanceof Error && cause.message) throw new Error(`${e.message}: ${cause.message}`, { cause });
    throw e;
  }
};

/** A token count from `usage`, 0 when absent or not a count. */
const tokens = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

function cleanReading(r: ReadReply, clean: (t: string) => string): ReadReply {
  if (r.kind !== 'answer') return r;
  const { answer, path, reason } = r.result;
  return { ...r, result: { answer: typeof answer === 'string' ? clean(answer) : answer, path: path.map(clean), reason: clean(reason) } };
}
