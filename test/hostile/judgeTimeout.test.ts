import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScoredRecord } from '../../src/core/scoring/paper/types.ts';
import { cliScore, hostileJudge, judgedRun, pageScore } from './judgeServer.ts';

/** An endpoint that takes every request and never answers. */
let judge: Awaited<ReturnType<typeof hostileJudge>>;
beforeAll(async () => {
  judge = await hostileJudge(() => {});
});
afterAll(() => judge.close());

describe('a judge endpoint that never answers', () => {
  it('the command line gives up after the time limit per request and writes its outputs; the records say the judge timed out', async () => {
    const run = judgedRun(['the stairs', 'a narrow door']);
    const before = judge.seen.length;
    const started = Date.now();
    try {
      await cliScore(run, { TRAVERSA_JUDGE_URL: judge.url, TRAVERSA_JUDGE_MODEL: 'silent', TRAVERSA_JUDGE_TIMEOUT_MS: '300', TRAVERSA_JUDGE_RETRY_MS: '1' });
      // Two requests side by side, four attempts of 0.3 s each.
      expect(Date.now() - started).toBeLessThan(10_000);
      const records = readFileSync(join(run.out, 'scored_per_record.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as ScoredRecord);
      expect(records.map((r) => r.judge?.error)).toEqual(Array(2).fill('judge failed after 4 attempts: judge timed out (no reply within 0.3 s)'));
      expect(judge.seen.length - before).toBe(8);
      await vi.waitFor(() => expect(judge.seen.slice(before).every((r) => r.closedEarly)).toBe(true));
    } finally {
      run.cleanup();
    }
  });

  it('a time limit that is not a positive number is refused before anything is sent', async () => {
    const run = judgedRun(['the stairs']);
    const before = judge.seen.length;
    try {
      await expect(cliScore(run, { TRAVERSA_JUDGE_URL: judge.url, TRAVERSA_JUDGE_MODEL: 'silent', TRAVERSA_JUDGE_TIMEOUT_MS: 'soon' })).rejects.toThrow(
        'TRAVERSA_JUDGE_TIMEOUT_MS is the time limit per judge request in milliseconds, a number > 0, not "soon"',
      );
      expect(judge.seen.length).toBe(before);
    } finally {
      run.cleanup();
    }
  });

  it('cancelling aborts the requests in flight, sends no more, and the run finishes at once with those records "judge cancelled"', async () => {
    const run = judgedRun(['the stairs', 'a narrow door', 'steps', 'a kerb', 'a gap', 'a slope']);
    const before = judge.seen.length;
    const cancel = new AbortController();
    try {
      const done = pageScore(run, judge.url, { sleep: (ms) => new Promise((r) => setTimeout(r, ms)), cancel: cancel.signal });
      // Four requests go out side by side (the judge's concurrency) and hang.
      await vi.waitFor(() => expect(judge.seen.length - before).toBe(4));
      const cancelledAt = Date.now();
      cancel.abort();
      const { scoring } = await done;
      expect(Date.now() - cancelledAt).toBeLessThan(1000);
      const records = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => scoring.record('hostile-model', i)));
      expect(records.map((r) => r?.judge?.error)).toEqual(Array(6).fill('judge cancelled'));
      expect(judge.seen.length - before).toBe(4);
      await vi.waitFor(() => expect(judge.seen.slice(before).every((r) => r.closedEarly)).toBe(true));
    } finally {
      run.cleanup();
    }
  });
});
