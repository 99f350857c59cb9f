import { PROMPT_VERSION, SYSTEM_PROMPT, parseVerdictText, userPrompt } from './prompt.ts';
import type { Judge, JudgeInfo, JudgeRequest, Verdict } from './types.ts';

/** The part of `fetch` the judge uses (core has no DOM types; Node's and the browser's fetch both fit). */
export type FetchLike = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string }) => Promise<{
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

export interface HttpJudgeOptions {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:8000/v1`; `/chat/completions` is appended unless present. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token. Kept only here: not in the judge id, reports, errors or cache keys. */
  apiKey?: string;
  fetch: FetchLike;
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

/**
 * An LLM judge behind any OpenAI-compatible chat-completions endpoint. Retries, with doubling
 * delays, on 429, 5xx, network errors and unreadable replies (a model that answered off-format
 * often answers properly when asked again), at most `maxAttempts` times; a server's Retry-After
 * is honoured within the cap. Other HTTP errors (401, 404…) fail at once. Failures come back as
 * `{ error }` verdicts with the key redacted, so one bad request never stops a scoring run.
 */
export function httpJudge(opts: HttpJudgeOptions): Judge {
  const endpoint = publicEndpoint(chatCompletionsUrl(opts.baseUrl));
  const url = chatCompletionsUrl(opts.baseUrl);
  const info: JudgeInfo = {
    id: `http:${opts.model}@${endpoint}`,
    kind: 'http',
    label: `LLM judge ${opts.model} at ${endpoint}`,
    promptVersion: PROMPT_VERSION,
  };
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 4);
  const baseDelay = opts.baseDelayMs ?? 1000;
  const maxDelay = opts.maxDelayMs ?? 30_000;
  const redact = (s: string) => (opts.apiKey ? s.split(opts.apiKey).join('***') : s);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;

  async function judge(req: JudgeRequest): Promise<Verdict> {
    const body = JSON.stringify({
      model: opts.model,
      temperature: 0,
      messages: [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: userPrompt(req) }],
    });
    let last = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let wait = Math.min(maxDelay, baseDelay * 2 ** (attempt - 1));
      try {
        const res = await opts.fetch(url, { method: 'POST', headers, body });
        const text = await res.text();
        if (res.status === 429 || res.status >= 500) {
          last = `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
          const after = Number(res.headers.get('retry-after'));
          if (Number.isFinite(after) && after > 0) wait = Math.min(maxDelay, Math.max(wait, after * 1000));
        } else if (!res.ok) {
          return { error: redact(`judge endpoint refused the request: HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`) };
        } else {
          const verdict = readCompletion(text);
          if ('correct' in verdict) return verdict;
          last = verdict.unreadable;
        }
      } catch (e) {
        last = `network error: ${e instanceof Error ? e.message : String(e)}`;
      }
      if (attempt < maxAttempts) await opts.sleep(wait);
    }
    return { error: redact(`judge failed after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}: ${last}`) };
  }
  return { info, judge };
}

/** The verdict inside a chat-completions response body. */
function readCompletion(body: string): { correct: boolean; explanation?: string } | { unreadable: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { unreadable: 'the endpoint\'s response is not JSON' };
  }
  const content = (parsed as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return { unreadable: 'the response has no choices[0].message.content' };
  return parseVerdictText(content);
}
