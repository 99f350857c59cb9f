import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { chatCompletionsUrl, chatJudge, publicEndpoint, type HttpJudgeOptions } from '../scoring/judges/http.ts';
import { secretRedactor, urlSecrets } from '../scoring/judges/redact.ts';
import type { TaskPrompt } from './prompt.ts';
import { readReplyList } from './replyJson.ts';

/**
 * Asking an OpenAI-compatible chat endpoint (with image input) for tasks, through the HTTP judge's
 * client (scoring/judges/http.ts): the same endpoint settings, time limit, retries with doubling
 * delays on 429, 5xx, time-outs, network errors and replies with no JSON list in them, cancel, reply
 * size cap and redaction of the key. Replies are cached by what was asked — the endpoint (without
 * credentials), the model, the prompt's version and its whole text with every frame — so asking
 * again the same costs nothing and gives the same reply. Only replies holding a JSON list are kept.
 */
export interface ReplyCache {
  get(key: string): string | undefined | Promise<string | undefined>;
  set(key: string, content: string): void | Promise<void>;
}

export type TaskReply = { content: string; cached: boolean } | { error: string };

/** The cache key of a request: a hash, so no frame or text of the prompt is kept in the key (and no key in anything). */
export function replyKey(opts: Pick<HttpJudgeOptions, 'baseUrl' | 'model'>, prompt: TaskPrompt): string {
  const what = JSON.stringify([publicEndpoint(chatCompletionsUrl(opts.baseUrl)), opts.model, prompt.version, prompt.system, prompt.parts]);
  return `tasks:${bytesToHex(sha256(utf8ToBytes(what)))}`;
}

/** The judge layer's wording, said of a task request ("judge timed out" → "timed out"). */
const reword = (error: string) => error.replace(/^judge endpoint /, 'the endpoint ').replace(/\bjudge /g, '');

export async function askForTasks(opts: HttpJudgeOptions, prompt: TaskPrompt, cache?: ReplyCache): Promise<TaskReply> {
  const key = replyKey(opts, prompt);
  const hit = await cache?.get(key);
  if (hit !== undefined) return { content: hit, cached: true };
  // The whole reply is kept (a task list runs to many thousand characters), redacted as the judge's texts are.
  const redact = secretRedactor([opts.apiKey, ...urlSecrets(opts.baseUrl)]);
  const client = chatJudge<null, { content: string }>(opts, {
    promptVersion: prompt.version,
    system: prompt.system,
    user: () => prompt.parts,
    read: (content) => {
      const list = readReplyList(content);
      return list.ok ? { content } : { unreadable: `no task list in the reply: ${list.error}` };
    },
    release: (v) => ({ content: redact(v.content) }),
  });
  const reply = await client.judge(null);
  if ('error' in reply) return { error: reword(reply.error) };
  await cache?.set(key, reply.content);
  return { content: reply.content, cached: false };
}
