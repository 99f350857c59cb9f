import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cachedJudge } from '../../../../src/core/scoring/judges/cache.ts';
import { httpJudge, type FetchLike } from '../../../../src/core/scoring/judges/http.ts';
import { paperRecordsJsonl, paperSummary } from '../../../../src/core/scoring/paper/export.ts';
import { scorePaper } from '../../../../src/core/scoring/paper/score.ts';
import { fileVerdictCache } from '../../../../src/cli/httpJudge.ts';
import { pred, QUESTIONS as Q, scoringHouse } from '../../../support/scoreSupport.ts';

const KEY = 'sk-test-0123456789abcdef';
type Reply = { status: number; body: string; headers?: Record<string, string> };
const completion = (content: string): Reply => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }) });

/** An OpenAI-compatible endpoint on a free local port; each test queues its replies. */
let server: Server;
let baseUrl = '';
let queue: Reply[] = [];
let fallback: Reply = completion('{"correct": true, "explanation": "ok"}');
const requests: { url: string; auth: string | undefined; body: { model: string; temperature: number; messages: { role: string; content: string }[] } }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => {
      data += c.toString();
    });
    req.on('end', () => {
      requests.push({ url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(data) });
      const r = queue.shift() ?? fallback;
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(r.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  queue = [];
  requests.length = 0;
  fallback = completion('{"correct": true, "explanation": "ok"}');
});

const waits: number[] = [];
const judge = (maxAttempts = 3) =>
  httpJudge({
    baseUrl,
    model: 'judge-model',
    apiKey: KEY,
    fetch: fetch as unknown as FetchLike,
    sleep: async (ms) => {
      waits.push(ms);
    },
    maxAttempts,
    baseDelayMs: 100,
  });
const request = { reason: 'The stairs block the wheelchair', notes: ['cannot go up/down stairs'], agent: 'WHEELCHAIR' };

describe('the HTTP judge against an OpenAI-compatible endpoint', () => {
  it('asks /chat/completions with the model, the key as a bearer token, the reason and the notes, and reads a fenced JSON verdict', async () => {
    queue = [completion('```json\n{"correct": true, "explanation": "both name the stairs"}\n```')];
    expect(await judge().judge(request)).toEqual({ correct: true, explanation: 'both name the stairs' });
    expect(requests).toHaveLength(1);
    const [r] = requests;
    expect(r!.url).toBe('/v1/chat/completions');
    expect(r!.auth).toBe(`Bearer ${KEY}`);
    expect(r!.body).toMatchObject({ model: 'judge-model', temperature: 0 });
    expect(r!.body.messages[1]!.content).toContain('"The stairs block the wheelchair"');
    expect(r!.body.messages[1]!.content).toContain('- cannot go up/down stairs');
  });

  it('retries a 500 after waiting, then succeeds', async () => {
    waits.length = 0;
    queue = [{ status: 500, body: 'upstream exploded' }, completion('{"correct": false, "explanation": "wrong obstacle"}')];
    expect(await judge().judge(request)).toEqual({ correct: false, explanation: 'wrong obstacle' });
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([100]);
  });

  it('honours Retry-After on a 429 within the cap', async () => {
    waits.length = 0;
    queue = [{ status: 429, body: '', headers: { 'retry-after': '2' } }, completion('{"correct": true}')];
    expect(await judge().judge(request)).toEqual({ correct: true });
    expect(waits).toEqual([2000]);
  });

  it('a reply that is not the asked-for JSON is retried, then reported as an error — never guessed', async () => {
    fallback = completion('I think the reasoning is mostly right.');
    const v = await judge(3).judge(request);
    expect(v).toEqual({ error: 'judge failed after 3 attempts: the reply holds no JSON object' });
    expect(requests).toHaveLength(3);
  });

  it('a refused request (401) fails at once, and the key the server echoed is redacted', async () => {
    queue = [{ status: 401, body: `{"error": "invalid api key ${KEY}"}` }];
    const v = await judge().judge(request);
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(v)).not.toContain(KEY);
    expect(v).toEqual({ error: 'judge endpoint refused the request: HTTP 401: {"error": "invalid api key ***"}' });
  });

  it('a network error (nothing listening) is retried, then reported with the key redacted', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    waits.length = 0;
    const j = httpJudge({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'm',
      apiKey: KEY,
      fetch: fetch as unknown as FetchLike,
      sleep: async (ms) => {
        waits.push(ms);
      },
      maxAttempts: 3,
      baseDelayMs: 100,
    });
    const v = await j.judge(request);
    expect(v).toEqual({ error: expect.stringMatching(/^judge failed after 3 attempts: network error: /) });
    expect(waits).toEqual([100, 200]);
  });

  it('a browser\'s bare "Failed to fetch" says it may be CORS; Node\'s own network errors do not', async () => {
    const refusing =
      (message: string): FetchLike =>
      async () => {
        throw new TypeError(message);
      };
    for (const message of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed']) {
      const v = await httpJudge({ baseUrl: 'https://judge.example/v1', model: 'm', fetch: refusing(message), sleep: async () => {}, maxAttempts: 1 }).judge(
        request,
      );
      expect(v, message).toEqual({
        error: expect.stringContaining(
          `network error: ${message} (the endpoint cannot be reached, or it does not allow requests from the studio's origin`,
        ) as unknown as string,
      });
      expect((v as { error: string }).error).toContain('Access-Control-Allow-Origin');
    }
    const node = await httpJudge({
      baseUrl: 'https://judge.example/v1',
      model: 'm',
      fetch: refusing('fetch failed'),
      sleep: async () => {},
      maxAttempts: 1,
    }).judge(request);
    expect(node).toEqual({ error: 'judge failed after 1 attempt: network error: fetch failed' });
  });

  it('its id names the model and the endpoint, never the key', () => {
    const j = httpJudge({
      baseUrl: `https://user:${KEY}@example.org/v1/?key=${KEY}`,
      model: 'm',
      apiKey: KEY,
      fetch: fetch as unknown as FetchLike,
      sleep: async () => {},
    });
    expect(j.info.id).toBe('http:m@https://example.org/v1/chat/completions');
    expect(JSON.stringify(j.info)).not.toContain(KEY);
  });
});

describe('scoring with the HTTP judge and a file cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'traversa-judge-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const house = scoringHouse();
  const UP = 'hall -> living -> landing -> bedroom';
  const predictions = [
    pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'stairs'),
    pred('HUMANOID', Q.hallToBedroom, 'no', UP, 'stairs'),
    pred('WHEELCHAIR', Q.kitchenToBath, 'no', 'kitchen -> hall -> bath', 'the door is too narrow'),
    pred('WHEELCHAIR', Q.kitchenToBath, 'no', 'kitchen -> hall -> bath', 'the door is too narrow'),
  ];

  it('the second run is answered from the cache and sends no request; the key is in no output', async () => {
    const path = join(dir, 'judge-cache.json');
    const first = fileVerdictCache(path);
    const r1 = await scorePaper(house, predictions, { judge: cachedJudge(judge(), first) });
    first.flush();
    expect(requests).toHaveLength(3); // two identical reason + notes pairs share one verdict
    expect(r1.records.map((r) => r.rv)).toEqual([1, 1, 1, 1]);

    requests.length = 0;
    const second = fileVerdictCache(path);
    expect(second.size).toBe(3);
    const r2 = await scorePaper(house, predictions, { judge: cachedJudge(judge(), second) });
    expect(requests).toHaveLength(0);
    expect(r2.records.map((r) => [r.rv, r.judge?.cached])).toEqual([
      [1, true],
      [1, true],
      [1, true],
      [1, true],
    ]);
    expect(r2.overall).toEqual(r1.overall);

    const reports = new Map([
      ['m', r1],
      ['m2', r2],
    ]);
    for (const text of [JSON.stringify(paperSummary(reports)), paperRecordsJsonl(reports), readFileSync(path, 'utf8')]) expect(text).not.toContain(KEY);
  });

  it('failed verdicts are not cached, so a later run asks again', async () => {
    const path = join(dir, 'failing-cache.json');
    fallback = { status: 503, body: 'down' };
    const cache = fileVerdictCache(path);
    const r = await scorePaper(house, predictions.slice(0, 1), { judge: cachedJudge(judge(2), cache) });
    cache.flush();
    expect(r.records[0]).toMatchObject({ rv: null, judge: { error: 'judge failed after 2 attempts: HTTP 503: down' } });
    expect(fileVerdictCache(path).size).toBe(0);
  });
});
