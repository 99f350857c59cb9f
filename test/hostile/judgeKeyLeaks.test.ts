import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CachedVerdict } from '../../src/core/scoring/judges/types.ts';
import type { ScoredRecord } from '../../src/core/scoring/paper/types.ts';
import { cliScore, completion, folderTexts, hostileJudge, judgedRun, pageScore } from './judgeServer.ts';

const KEY = 'sk-hostile-4f9c2a7e1b3d5f60';

/**
 * An endpoint that hands back what it was sent: the headers (with the Authorization header) in
 * its verdict's explanation, in a 401 and in a 503 body, depending on the reason it is asked about.
 */
let judge: Awaited<ReturnType<typeof hostileJudge>>;
beforeAll(async () => {
  judge = await hostileJudge((req, res) => {
    const echo = `you sent ${req.url} with ${JSON.stringify(req.headers)}`;
    // The key where an error's 200-character quote of the reply would cut it in half.
    if (req.body.includes('padded')) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end(`${'.'.repeat(190)} ${KEY}`);
      return;
    }
    if (req.body.includes('refuse me')) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end(`bad key: ${req.headers.authorization}`);
      return;
    }
    if (req.body.includes('busy')) {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end(`overloaded, ${req.headers.authorization}`);
      return;
    }
    completion(res, JSON.stringify({ correct: true, explanation: `the stairs block it; ${echo}` }));
  });
});
afterAll(() => judge.close());

const REASONS = ['the stairs block the wheelchair', 'refuse me: the stairs', 'busy: the stairs'];
const browserCache = () => {
  const stored = new Map<string, CachedVerdict>();
  return {
    stored,
    cache: {
      get: (k: string) => stored.get(k),
      set: (k: string, v: CachedVerdict) => {
        stored.set(k, v);
      },
    },
  };
};

describe('a judge endpoint that echoes the Authorization header never gets the key into any output', () => {
  it('the command line: judge cache, per-record output, summary, stdout and stderr hold no key', async () => {
    const run = judgedRun(REASONS);
    try {
      const { stdout, stderr } = await cliScore(run, {
        TRAVERSA_JUDGE_URL: judge.url,
        TRAVERSA_JUDGE_MODEL: 'echo',
        TRAVERSA_JUDGE_KEY: KEY,
        TRAVERSA_JUDGE_RETRY_MS: '1',
      });
      expect(judge.seen.some((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
      const files = folderTexts(run.out);
      expect(Object.keys(files).sort()).toEqual(['judge-cache.json', 'scored_per_record.jsonl', 'scored_summary.json']);
      for (const [name, text] of Object.entries({ ...files, stdout, stderr })) expect(text, name).not.toContain(KEY);
      // The echo itself is kept, with the credential cut out.
      expect(files['judge-cache.json']).toContain('Bearer ***');
      const records = files['scored_per_record.jsonl']!.trim()
        .split('\n')
        .map((l) => JSON.parse(l) as ScoredRecord);
      expect(records.map((r) => r.judge?.error ?? r.judge?.explanation?.slice(0, 22))).toEqual([
        'the stairs block it; y',
        'judge endpoint refused the request: HTTP 401: bad key: Bearer ***',
        'judge failed after 4 attempts: HTTP 503: overloaded, Bearer ***',
      ]);
    } finally {
      run.cleanup();
    }
  });

  it('the browser: the score JSON and CSV downloads and the verdicts stored in the browser hold no key', async () => {
    const run = judgedRun([...REASONS, 'padded: the stairs']);
    const { stored, cache } = browserCache();
    try {
      const { scoring } = await pageScore(run, judge.url, { apiKey: KEY, cache });
      const files = (await scoring.files())!;
      expect(stored.size).toBe(1);
      for (const text of [files.json, files.csv, JSON.stringify([...stored])]) expect(text).not.toContain(KEY.slice(0, 6));
      expect(JSON.stringify([...stored])).toContain('Bearer ***');
      expect(files.json).toContain('HTTP 401: bad key: Bearer ***');
      expect(files.json).toContain(`HTTP 403: ${'.'.repeat(190)} **`);
    } finally {
      run.cleanup();
    }
  });

  it("a key in an endpoint URL that cannot be used is cut out of every record's error", async () => {
    const run = judgedRun(REASONS.slice(0, 1));
    const port = new URL(judge.url).port;
    const urls = [
      `http://127.0.0.1:${port} /v1?key=${KEY}`, // a space: the URL does not parse, and the error quotes it
      `http://exa mple.org/v1?api-key=${encodeURIComponent(KEY)}&api-version=2024`,
      `http://user:${KEY}@127.0.0.1:${port}/v1`, // fetch refuses credentials in a URL, quoting it
      `http://${KEY}@127.0.0.1:${port}/v1`,
    ];
    try {
      for (const baseUrl of urls) {
        const { scoring, lite } = await pageScore(run, baseUrl);
        const files = (await scoring.files())!;
        const record = await scoring.record('hostile-model', 0);
        expect(record?.judge?.error, baseUrl).toMatch(/^judge failed after 4 attempts: network error: /);
        for (const text of [files.json, files.csv, JSON.stringify(lite), JSON.stringify(record)]) expect(text, baseUrl).not.toContain(KEY);
      }
    } finally {
      run.cleanup();
    }
  });
});

describe('the command line with the key in its endpoint URL', () => {
  it('writes no part of it into the judge cache or the reports, whatever the endpoint echoes', async () => {
    const run = judgedRun(REASONS.slice(0, 1));
    try {
      const url = judge.url.replace('/v1', `/v1?key=${KEY}`);
      await cliScore(run, { TRAVERSA_JUDGE_URL: url, TRAVERSA_JUDGE_MODEL: 'echo', TRAVERSA_JUDGE_RETRY_MS: '1' }, true);
      expect(judge.seen.at(-1)!.url).toBe(`/v1/chat/completions?key=${KEY}`);
      for (const text of Object.values(folderTexts(run.out))) expect(text).not.toContain(KEY);
      expect(readFileSync(join(run.out, 'scored_summary.json'), 'utf8')).toContain(`at http://127.0.0.1:${new URL(judge.url).port}/v1/chat/completions`);
    } finally {
      run.cleanup();
    }
  });
});
