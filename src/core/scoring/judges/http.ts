import { PROMPT_VERSION, SYSTEM_PROMPT, parseVerdictText, userPrompt } from './prompt.ts';
import { secretRedactor, urlSecrets } from './redact.ts';
import type { Judge, JudgeInfo, JudgeRequest } from './types.ts';

/** The part of an `AbortSignal` the judge uses (core has no DOM types; Node's and the browser's fit). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A response body read as a stream, so an oversized reply is cut off instead of being held whole. */
export interface ByteStream {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> };
}

/** The part of `fetch` the judge uses (core has no DOM types; Node's and the browser's fetch both fit). */
export type FetchLike = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string; signal?: AbortSignalLike }) => Promise<{
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  body: ByteStream | null;
}>;

/** Per-request time limit unless the edge sets another (the command line's and the browser's alike). */
export const JUDGE_TIMEOUT_MS = 60_000;
/** At most this much of a reply is read; a longer one is an error (an explanation is a sentence, not 50 MB). */
export const MAX_REPLY_BYTES = 1024 * 1024;
/** A verdict's explanation is kept up to this length: it is copied into every record it judges and into the cache. */
export const MAX_EXPLANATION_CHARS = 4000;

/**
 * Platform globals present wherever core runs (Node ≥ 20, browsers, workers) but absent from
 * core's type library: the request time limit and the body's text decoding.
 */
const platform = globalThis as unknown as {
  AbortSignal?: { timeout(ms: number): AbortSignalLike; any?(signals: AbortSignalLike[]): AbortSignalLike };
  TextDecoder: new () => { decode(bytes?: Uint8Array, options?: { stream?: boolean }): string };
};

export interface HttpJudgeOptions {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:8000/v1`; `/chat/completions` is appended unless present. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token. Kept only here: not in the judge id, reports, errors, explanations or cache keys. */
  apiKey?: string;
  fetch: FetchLike;
  /** Time limit per request, reply included (default `JUDGE_TIMEOUT_MS`); a request past it is aborted. */
  timeoutMs?: number;
  /** The run's cancel: once aborted, requests in flight are aborted and no more are sent. */
  cancel?: AbortSignalLike;
  /** Waiting between retries (injected: core has no timers; tests pass an instant one). */
  sleep: (ms: number) => Promise<void>;
  /** Attempts per request, first included (default 4). */
  maxAttempts?: number;
  /** First retry delay; doubles per retry up to `maxDelayMs` (defaults 1000 and 30000 ms). */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** The endpoint without credentials or query string: safe to print, store and key caches by. */
export function publicEndpoint(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '').replace(/\/+$/, '');
}

/** `<base>/chat/completions`, keeping a query string (e.g. an `api-version`) after the path. */
export function chatCompletionsUrl(baseUrl: string): string {
  const cut = baseUrl.search(/[?#]/);
  const query = cut < 0 ? '' : baseUrl.slice(cut);
  const base = (cut < 0 ? baseUrl : baseUrl.slice(0, cut)).trim().replace(/\/+$/, '');
  return (/\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`) + query;
}

/** A part of a user message with image input (OpenAI's chat format): text, or an image by URL (a `data:` URL inlines it). */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * What a chat judge asks and how it reads the reply: the RV verdict (prompt.ts) and FoMER's
 * reasoning rubric (trailPrompt.ts) go through the same requests, retries and redaction, and so
 * does task generation (core/taskgen), whose user message carries the video's frames as images.
 */
export interface ChatJudgeSpec<Req, V> {
  promptVersion: string;
  system: string;
  user(req: Req): string | ChatContentPart[];
  /** The verdict in the model's reply text, or why it cannot be read (asked again, up to the attempts). */
  read(content: string): V | { unreadable: string };
  /** The verdict as it leaves the judge, every text of it passed through `clean` (redaction, then the length cap). */
  release(v: V, clean: (text: string) => string): V;
}

const RV_SPEC: ChatJudgeSpec<JudgeRequest, { correct: boolean; explanation?: string }> = {
  promptVersion: PROMPT_VERSION, system: SYSTEM_PROMPT, user: userPrompt, read: parseVerdictText,
  release: (v, clean) => (v.explanation === undefined ? { correct: v.correct } : { correct: v.correct, explanation: clean(v.explanation) }),
};

/**
 * An LLM judge behind any OpenAI-compatible chat-completions endpoint. Retries, with doubling
 * delays, on 429, 5xx, time-outs, network errors and unreadable replies (a model that answered
 * off-format often answers properly when asked again), at most `maxAttempts` times; a server's
 * Retry-After is honoured within the cap. Other HTTP errors (401, 404…) and replies over
 * `MAX_REPLY_BYTES` fail at once, as does everything after the run is cancelled. Failures come
 * back as `{ error }` verdicts, so one bad request never stops a scoring run. Everything returned
 * (explanations and errors, hence what a cache stores) passes through the secret redaction.
 */
export function httpJudge(opts: HttpJudgeOptions): Judge {
  return chatJudge(opts, RV_SPEC);
}

/** The HTTP judge for any prompt (see `httpJudge` for how it asks, retries and redacts). */
export function chatJudge<Req, V extends object>(opts: HttpJudgeOptions, spec: ChatJudgeSpec<Req, V>): { info: JudgeInfo; judge(req: Req): Promise<V | { error: string }> } {
  const redact = secretRedactor([opts.apiKey, ...urlSecrets(opts.baseUrl)]);
  const endpoint = redact(publicEndpoint(chatCompletionsUrl(opts.baseUrl)));
  const url = chatCompletionsUrl(opts.baseUrl);
  const info: JudgeInfo = {
    id: `http:${opts.model}@${endpoint}`,
    kind: 'http',
    label: `LLM judge ${opts.model} at ${endpoint}`,
    promptVersion: spec.promptVersion,
  };
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 4);
  const baseDelay = opts.baseDelayMs ?? 1000;
  const maxDelay = opts.maxDelayMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? JUDGE_TIMEOUT_MS;
  const { cancel } = opts;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const cancelled = { error: 'judge cancelled' };

  async function ask(req: Req): Promise<V | { error: string }> {
    const body = JSON.stringify({
      model: opts.model,
      temperature: 0,
      messages: [{ role: 'system', content: spec.system }, { role: 'user', content: spec.user(req) }],
    });
    let last = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (cancel?.aborted) return cancelled;
      let wait = Math.min(maxDelay, baseDelay * 2 ** (attempt - 1));
      const timeout = Number.isFinite(timeoutMs) ? platform.AbortSignal?.timeout(timeoutMs) : undefined;
      const signal = timeout && cancel ? platform.AbortSignal?.any?.([timeout, cancel]) ?? timeout : timeout ?? cancel;
      try {
        const res = await opts.fetch(url, { method: 'POST', headers, body, ...(signal ? { signal } : {}) });
        const reply = await readCapped(res);
        if (reply === null) return { error: `judge reply too large (> ${formatBytes(MAX_REPLY_BYTES)})` };
        // Redacted whole before anything is cut from it, so a quoted secret is never left half-cut.
        const text = redact(reply);
        if (res.status === 429 || res.status >= 500) {
          last = `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
          const after = Number(res.headers.get('retry-after'));
          if (Number.isFinite(after) && after > 0) wait = Math.min(maxDelay, Math.max(wait, after * 1000));
        } else if (!res.ok) {
          return { error: `judge endpoint refused the request: HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}` };
        } else {
          const content = completionContent(text);
          const verdict = typeof content === 'string' ? spec.read(content) : content;
          if (!('unreadable' in verdict)) return verdict;
          last = verdict.unreadable;
        }
      } catch (e) {
        if (cancel?.aborted) return cancelled;
        last = timeout?.aborted ? `judge timed out (no reply within ${formatSeconds(timeoutMs)})` : `network error: ${e instanceof Error ? e.message : String(e)}`;
      }
      if (attempt < maxAttempts) await pause(wait);
    }
    if (cancel?.aborted) return cancelled;
    return { error: `judge failed after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}: ${last}` };
  }

  /** The retry delay, cut short by a cancel. */
  function pause(ms: number): Promise<void> {
    if (!cancel) return opts.sleep(ms);
    let stop = () => {};
    const aborted = new Promise<void>((resolve) => { stop = resolve; cancel.addEventListener('abort', stop, { once: true }); });
    return Promise.race([opts.sleep(ms), aborted]).finally(() => cancel.removeEventListener('abort', stop));
  }

  /** What leaves the judge: redacted, each text cut to its limit after redaction (so no secret is cut in half and kept). */
  function release(v: V | { error: string }): V | { error: string } {
    if ('error' in v) return { error: redact(v.error) };
    return spec.release(v, (t) => cutExplanation(redact(t)));
  }

  return { info, judge: async (req) => release(await ask(req)) };
}

/** The body's text, or null when it is longer than `MAX_REPLY_BYTES` (then it is not read further). */
async function readCapped(res: Awaited<ReturnType<FetchLike>>): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  if (Number(res.headers.get('content-length')) > MAX_REPLY_BYTES) {
    await reader.cancel().catch(() => {});
    return null;
  }
  const decoder = new platform.TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    bytes += value.length;
    if (bytes > MAX_REPLY_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function cutExplanation(text: string): string {
  return text.length <= MAX_EXPLANATION_CHARS ? text : `${text.slice(0, MAX_EXPLANATION_CHARS)} … [cut: ${text.length} characters in all]`;
}

const formatBytes = (n: number) => (n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`);
const formatSeconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The model's reply text inside a chat-completions response body. */
function completionContent(body: string): string | { unreadable: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { unreadable: 'the endpoint\'s response is not JSON' };
  }
  const content = (parsed as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return { unreadable: 'the response has no choices[0].message.content' };
  return content;
}
