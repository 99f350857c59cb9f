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
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; redirect: 'manual'; signal?: AbortSignalLike },
) => Promise<{
  status: number;
  ok: boolean;
  /** 'opaqueredirect': a browser's answer to a redirect not followed (status 0, no Location). */
  type?: string;
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
  return url
    .replace(/\/\/[^/@]*@/, '//')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
}

/** The endpoint as a run summary or provenance records it: its host (and port), never a path, query or credentials. */
export function endpointHost(baseUrl: string): string {
  const url = publicEndpoint(chatCompletionsUrl(baseUrl));
  return /^[a-z][\w+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? url;
}

/** `<base>/chat/completions`, keeping a query string (e.g. an `api-version`) after the path. */
export function chatCompletionsUrl(baseUrl: string): string {
  const cut = baseUrl.search(/[?#]/);
  const query = cut < 0 ? '' : baseUrl.slice(cut);
  const base = (cut < 0 ? baseUrl : baseUrl.slice(0, cut)).trim().replace(/\/+$/, '');
  return (/\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`) + query;
}

/**
 * What a chat judge asks and how it reads the reply: the RV verdict (prompt.ts) and FoMER's
 * reasoning rubric (trailPrompt.ts) go through the same requests, retries and redaction.
 */
export interface ChatJudgeSpec<Req, V> {
  promptVersion: string;
  /** The system message; none is sent when absent. */
  system?: string;
  /** The user message: text, or text and images (`run-model` sends a video's frames). */
  user(req: Req): string | ChatContentPart[];
  /**
   * The verdict in the model's reply text, or why it cannot be read (asked again, up to the
   * attempts). `reply.usage` is the response's token accounting, when the endpoint gave one.
   */
  read(content: string, reply: { usage?: ChatUsage }): V | { unreadable: string };
  /** The verdict as it leaves the judge, every text of it passed through `clean` (redaction, then the length cap). */
  release(v: V, clean: (text: string) => string): V;
  /** What the errors call the asker (default "judge"). */
  noun?: string;
  /** A refused request's error carries its HTTP status (run-model stops at a 401); judges' verdicts stay `{ error }`. */
  reportStatus?: boolean;
}

/** One part of a multi-part chat message (OpenAI's content parts; images as URLs, data URLs included). */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** A chat-completions response's `usage`, the fields any OpenAI-compatible server fills. */
export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** A failed request: the reason (redacted), and the HTTP status when the endpoint refused it outright. */
export interface ChatFailure {
  error: string;
  status?: number;
}

const RV_SPEC: ChatJudgeSpec<JudgeRequest, { correct: boolean; explanation?: string }> = {
  promptVersion: PROMPT_VERSION,
  system: SYSTEM_PROMPT,
  user: userPrompt,
  read: parseVerdictText,
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
export function chatJudge<Req, V extends object>(
  opts: HttpJudgeOptions,
  spec: ChatJudgeSpec<Req, V>,
): { info: JudgeInfo; judge(req: Req): Promise<V | ChatFailure> } {
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
  const noun = spec.noun ?? 'judge';
  const cancelled = { error: `${noun} cancelled` };

  async function ask(req: Req): Promise<V | ChatFailure> {
    const body = JSON.stringify({
      model: opts.model,
      temperature: 0,
      messages: [...(spec.system === undefined ? [] : [{ role: 'system', content: spec.system }]), { role: 'user', content: spec.user(req) }],
    });
    let last = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (cancel?.aborted) return cancelled;
      let wait = Math.min(maxDelay, baseDelay * 2 ** (attempt - 1));
      const timeout = Number.isFinite(timeoutMs) ? platform.AbortSignal?.timeout(timeoutMs) : undefined;
      const signal = timeout && cancel ? (platform.AbortSignal?.any?.([timeout, cancel]) ?? timeout) : (timeout ?? cancel);
      try {
        // No redirect is followed: a 307 would re-send the prompt, the frames and the key to wherever it points.
        const res = await opts.fetch(url, { method: 'POST', headers, body, redirect: 'manual', ...(signal ? { signal } : {}) });
        if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
          await res.body
            ?.getReader()
            .cancel()
            .catch(() => {});
          const to = res.headers.get('location');
          return {
            error: `${noun} endpoint answered with a redirect (${res.status ? `HTTP ${res.status}` : 'the browser hides where to'}${to ? ` to ${redact(to).slice(0, 200)}` : ''}); Traversa follows no redirect of a request that carries your prompt and key — if you trust the place it points to, set it as the endpoint`,
            status: res.status,
          };
        }
        const reply = await readCapped(res);
        if (reply === null) return { error: `${noun} reply too large (> ${formatBytes(MAX_REPLY_BYTES)})` };
        // A reply that arrived past the time limit is abandoned, not read.
        if (timeout?.aborted) throw new Error('past the time limit');
        // Quoted in an error: redacted whole before anything is cut from it, so a secret is never left half-cut.
        const text = redact(reply);
        if (res.status === 429 || res.status >= 500) {
          last = `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
          const after = Number(res.headers.get('retry-after'));
          if (Number.isFinite(after) && after > 0) wait = Math.min(maxDelay, Math.max(wait, after * 1000));
        } else if (!res.ok) {
          return { error: `${noun} endpoint refused the request: HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`, status: res.status };
        } else {
          // Parsed as sent, then redacted on the way out (release): redacting JSON text first can cut an
          // escape in half (`?key=abc\"` → `?key=***"`) and make every verdict "not JSON".
          const completion = completionContent(reply);
          const verdict = 'content' in completion ? spec.read(completion.content, completion) : completion;
          if (!('unreadable' in verdict)) return verdict;
          last = verdict.unreadable;
        }
      } catch (e) {
        if (cancel?.aborted) return cancelled;
        last = timeout?.aborted ? `${noun} timed out (no reply within ${formatSeconds(timeoutMs)})` : networkError(e);
      }
      if (attempt < maxAttempts) await pause(wait);
    }
    if (cancel?.aborted) return cancelled;
    return { error: `${noun} failed after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}: ${last}` };
  }

  /** The retry delay, cut short by a cancel. */
  function pause(ms: number): Promise<void> {
    if (!cancel) return opts.sleep(ms);
    let stop = () => {};
    const aborted = new Promise<void>((resolve) => {
      stop = resolve;
      cancel.addEventListener('abort', stop, { once: true });
    });
    return Promise.race([opts.sleep(ms), aborted]).finally(() => cancel.removeEventListener('abort', stop));
  }

  /** What leaves the judge: redacted, each text cut to its limit after redaction (so no secret is cut in half and kept). */
  function release(v: V | ChatFailure): V | ChatFailure {
    if ('error' in v) return v.status === undefined || !spec.reportStatus ? { error: redact(v.error) } : { error: redact(v.error), status: v.status };
    return spec.release(v, (t) => cutExplanation(redact(t)));
  }

  return { info, judge: async (req) => release(await ask(req)) };
}

/**
 * A request that never got a reply. A browser says only "Failed to fetch" (Chrome), "NetworkError
 * when attempting to fetch resource" (Firefox) or "Load failed" (Safari) both for a host it cannot
 * reach and for a reply its CORS check refused, so that is said too.
 */
function networkError(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const browser = /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/.test(text);
  return `network error: ${text}${browser ? " (the endpoint cannot be reached, or it does not allow requests from the studio's origin: from a browser the endpoint must answer CORS requests — Access-Control-Allow-Origin — or be reached through a proxy that does)" : ''}`;
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

/** The model's reply text inside a chat-completions response body, with the response's token usage. */
function completionContent(body: string): { content: string; usage?: ChatUsage } | { unreadable: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { unreadable: "the endpoint's response is not JSON" };
  }
  const response = parsed as { choices?: { message?: { content?: unknown } }[]; usage?: unknown } | null;
  const content = response?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return { unreadable: 'the response has no choices[0].message.content' };
  const usage = response?.usage;
  return typeof usage === 'object' && usage !== null && !Array.isArray(usage) ? { content, usage: usage as ChatUsage } : { content };
}
