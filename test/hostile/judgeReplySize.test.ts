import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EXPLANATION_CHARS } from '../../src/core/scoring/judges/http.ts';
import type { ScoredRecord } from '../../src/core/scoring/paper/types.ts';
import { cliScore, completion, folderTexts, hostileJudge, judgedRun, pageScore } from './judgeServer.ts';

const MB = 1024 * 1024;
const verdict = (explanation: string) => JSON.stringify({ correct: true, explanation });

/**
 * 64 KB pieces without a Content-Length for as long as the client keeps reading (at most 1 GB, far
 * past what any socket buffer holds: the hang-up is seen however large the machine's buffers are —
 * with 50 MB, a quiet machine's buffers could take the whole reply before the client hung up).
 */
function endlessChunks(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const piece = 'x'.repeat(64 * 1024);
  let sent = 0;
  const more = () => {
    while (!res.destroyed && sent < 1024 * MB) {
      sent += piece.length;
      if (!res.write(sent === piece.length ? `{"choices":[{"message":{"content":"{\\"correct\\": true, \\"explanation\\": \\"${piece}` : piece)) {
        res.once('drain', more);
        return;
      }
    }
    if (!res.destroyed) res.end('\\"}"}}]}');
  };
  more();
}

let judge: Awaited<ReturnType<typeof hostileJudge>>;
beforeAll(async () => {
  judge = await hostileJudge((req, res) => {
    if (req.body.includes('fifty megabytes')) completion(res, verdict('y'.repeat(50 * MB)));
    else if (req.body.includes('streamed forever')) endlessChunks(res);
    else if (req.body.includes('long but allowed')) completion(res, verdict('z'.repeat(900 * 1024)));
    else completion(res, verdict('both name the stairs'));
  });
});
afterAll(() => judge.close());

// Twelve records share the 50 MB verdict: copied into each, the per-record output would pass V8's longest string.
const REASONS = [...Array<string>(12).fill('the stairs, fifty megabytes'), 'the stairs, streamed forever', 'the stairs, long but allowed', 'the stairs'];
const TOO_LARGE = 'judge reply too large (> 1 MB)';

describe('a judge endpoint that answers with 50 MB', () => {
  it('the command line writes every output; those records say the reply was too large; the cache keeps the other verdicts', async () => {
    const run = judgedRun(REASONS);
    try {
      const { stdout } = await cliScore(run, { TRAVERSA_JUDGE_URL: judge.url, TRAVERSA_JUDGE_MODEL: 'big', TRAVERSA_JUDGE_RETRY_MS: '1' });
      expect(stdout).toContain('RV judge: LLM judge big');
      const files = folderTexts(run.out);
      expect(Object.keys(files).sort()).toEqual(['judge-cache.json', 'scored_per_record.jsonl', 'scored_summary.json']);
      const records = files['scored_per_record.jsonl']!.trim()
        .split('\n')
        .map((l) => JSON.parse(l) as ScoredRecord);
      expect(records.map((r) => r.judge?.error ?? 'judged')).toEqual([...Array<string>(13).fill(TOO_LARGE), 'judged', 'judged']);
      // An oversized reply is not asked for again: the same endpoint would send it again.
      expect(judge.seen.filter((r) => r.body.includes('fifty megabytes'))).toHaveLength(1);
      // The server hears of the hang-up when the socket closes, which can come just after the command exits.
      await expect.poll(() => judge.seen.find((r) => r.body.includes('streamed forever'))!.closedEarly, { timeout: 10_000 }).toBe(true);
      // The allowed but long explanation is kept up to its limit, saying so.
      const long = records[13]!.judge!.explanation!;
      expect(long.slice(0, MAX_EXPLANATION_CHARS)).toBe('z'.repeat(MAX_EXPLANATION_CHARS));
      expect(long.slice(MAX_EXPLANATION_CHARS)).toBe(` … [cut: ${900 * 1024} characters in all]`);
      const cache = JSON.parse(files['judge-cache.json']!) as { entries: Record<string, { explanation: string }> };
      expect(
        Object.values(cache.entries)
          .map((v) => v.explanation.length)
          .sort((a, b) => a - b),
      ).toEqual([20, long.length]);
      expect(files['judge-cache.json']!.length).toBeLessThan(MB);
    } finally {
      run.cleanup();
    }
  });

  it("the browser's Export JSON and Export CSV produce their files, naming the oversized replies", async () => {
    const run = judgedRun(REASONS);
    try {
      const { scoring } = await pageScore(run, judge.url);
      const files = (await scoring.files())!;
      expect(files.json.length).toBeLessThan(MB);
      expect(files.json).toContain(TOO_LARGE);
      expect(files.csv.trim().split('\r\n')).toHaveLength(1 + REASONS.length);
    } finally {
      run.cleanup();
    }
  });
});
