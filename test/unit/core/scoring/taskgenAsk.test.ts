import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike, HttpJudgeOptions } from '../../../../src/core/scoring/judges/http.ts';
import { askForTasks, replyKey, type ReplyCache } from '../../../../src/core/taskgen/ask.ts';
import { endpointHost } from '../../../../src/core/scoring/judges/http.ts';
import { buildTaskPrompt } from '../../../../src/core/taskgen/prompt.ts';
import { requestImages, requestText, startFakeChat, type FakeChat, type FakeReply } from '../../../support/fakeChat.ts';

const KEY = 'sk-taskgen-secret-5f5f5f';
const TASKS = JSON.stringify([
  {
    question: 'Can [Agent] move from the hall to the kitchen?',
    reason: 'Seen at 00:02-00:04.',
    nodes_involved: { start: 'n1', start_detail: 'rack', intermediate: [], end: 'n2', end_detail: 'sink' },
  },
]);
const frames = [0, 4, 8].map((t, i) => ({ t, url: `data:image/jpeg;base64,${btoa(`frame-${i}`)}` }));
const prompt = buildTaskPrompt({
  nodes: [
    { id: 'n1', name: 'Hall' },
    { id: 'n2', name: 'Kitchen' },
  ],
  frames,
  minTasks: 3,
});

/** The next replies the endpoint gives, in order; then the task list. */
let script: FakeReply[] = [];
let chat: FakeChat;
beforeAll(async () => {
  chat = await startFakeChat({ reply: () => script.shift() ?? { content: TASKS } });
});
afterAll(() => chat.close());

const memoryCache = () => {
  const m = new Map<string, string>();
  return {
    m,
    cache: {
      get: (k: string) => m.get(k),
      set: (k: string, v: string) => {
        m.set(k, v);
      },
    } satisfies ReplyCache,
  };
};
const opts = (over: Partial<HttpJudgeOptions> = {}): HttpJudgeOptions => ({
  baseUrl: chat.url,
  model: 'vlm-test',
  apiKey: KEY,
  fetch: fetch as unknown as FetchLike,
  sleep: async () => {},
  baseDelayMs: 1,
  ...over,
});

describe('asking an OpenAI-compatible endpoint for tasks', () => {
  it('sends the guideline, the node list and every frame as an image, with the key as a bearer token', async () => {
    script = [];
    const before = chat.requests.length;
    const r = await askForTasks(opts(), prompt);
    expect(r).toEqual({ content: TASKS, cached: false });
    const req = chat.requests[before]!;
    expect(chat.requests.length - before).toBe(1);
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body!.model).toBe('vlm-test');
    expect(req.body!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(requestImages(req)).toEqual(frames.map((f) => f.url));
    expect(requestText(req)).toContain('Frame 2/3 at 00:04');
    expect(requestText(req)).toContain('n1: Hall\nn2: Kitchen');
  });

  it('retries on 429 and 503 with doubling delays, then returns the reply', async () => {
    script = [
      { status: 429, content: 'slow down' },
      { status: 503, content: 'busy' },
    ];
    const waits: number[] = [];
    const before = chat.requests.length;
    const r = await askForTasks(
      opts({
        sleep: async (ms) => {
          waits.push(ms);
        },
        baseDelayMs: 100,
      }),
      prompt,
    );
    expect(r).toEqual({ content: TASKS, cached: false });
    expect(chat.requests.length - before).toBe(3);
    expect(waits).toEqual([100, 200]);
  });

  it('asks again when the reply holds no task list, and gives up after the attempts with the reason', async () => {
    script = [{ content: 'Sorry, I cannot help.' }, { content: 'Still no.' }];
    const before = chat.requests.length;
    const r = await askForTasks(opts({ maxAttempts: 2 }), prompt);
    expect(chat.requests.length - before).toBe(2);
    expect(r).toEqual({ error: expect.stringMatching(/^failed after 2 attempts: no task list in the reply: the reply is not JSON/) });
  });

  it('a refusal (401) fails at once, in words about the endpoint, and the key never appears in the error', async () => {
    script = [{ status: 401, content: `bad key ${KEY}` }];
    const r = await askForTasks(opts(), prompt);
    expect(r).toEqual({ error: 'the endpoint refused the request: HTTP 401: {"error":{"message":"bad key ***"}}' });
  });

  it('the same prompt, frames and model come from the cache without a request; another frame or model asks again', async () => {
    script = [];
    const { m, cache } = memoryCache();
    const before = chat.requests.length;
    expect(await askForTasks(opts(), prompt, cache)).toEqual({ content: TASKS, cached: false });
    expect(await askForTasks(opts(), prompt, cache)).toEqual({ content: TASKS, cached: true });
    expect(chat.requests.length - before).toBe(1);
    const otherFrames = buildTaskPrompt({
      nodes: [
        { id: 'n1', name: 'Hall' },
        { id: 'n2', name: 'Kitchen' },
      ],
      frames: [...frames.slice(0, 2), { t: 8, url: 'data:image/jpeg;base64,AAAA' }],
      minTasks: 3,
    });
    expect(((await askForTasks(opts(), otherFrames, cache)) as { cached: boolean }).cached).toBe(false);
    expect(((await askForTasks(opts({ model: 'other-vlm' }), prompt, cache)) as { cached: boolean }).cached).toBe(false);
    expect(chat.requests.length - before).toBe(3);
    // The key is in no cache key and no cached reply; the key (a hash) holds none of the prompt.
    expect([...m.keys()].every((k) => /^tasks:[0-9a-f]{64}$/.test(k))).toBe(true);
    expect(replyKey(opts({ apiKey: 'another-key' }), prompt)).toBe(replyKey(opts(), prompt));
  });

  it('a reply that echoes the key is kept and cached with the key redacted; errors are not cached', async () => {
    const echo = JSON.stringify([{ question: 'Can [Agent] go?', reason: `auth was Bearer ${KEY}`, nodes_involved: {} }]);
    script = [{ content: echo }];
    const { m, cache } = memoryCache();
    const r = (await askForTasks(opts(), prompt, cache)) as { content: string };
    expect(r.content).not.toContain(KEY);
    expect(r.content).toContain('auth was Bearer ***');
    expect([...m.values()].join('')).not.toContain(KEY);
    script = [{ status: 400, content: 'no' }];
    const m2 = memoryCache();
    expect('error' in (await askForTasks(opts(), prompt, m2.cache))).toBe(true);
    expect(m2.m.size).toBe(0);
  });

  it('a cancel before the request sends nothing', async () => {
    const before = chat.requests.length;
    const ac = new AbortController();
    ac.abort();
    expect(await askForTasks(opts({ cancel: ac.signal }), prompt)).toEqual({ error: 'cancelled' });
    expect(chat.requests.length).toBe(before);
  });

  it('provenance names the endpoint by its host only', () => {
    expect(endpointHost('https://user:pw@api.example.com:8443/v1?api-key=zzz')).toBe('api.example.com:8443');
    expect(endpointHost(chat.url)).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});
