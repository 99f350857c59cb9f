import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperSummary } from '../../src/core/scoring/paper/export.ts';
import type { ScoredRecord } from '../../src/core/scoring/paper/types.ts';
import { cliScore, completion, folderTexts, hostileJudge, judgedRun, pageScore } from './judgeServer.ts';

/**
 * A judge that fails must never raise a score (issue 23 §1), and a verdict that quotes a URL with
 * a key is read before it is redacted (§2). Reasons: one the judge rejects, one it answers with a
 * quoted `?key=…`, and one it cannot answer (HTTP 401, or a reply that is not JSON).
 */
const KEY = 'sk-quoted-7d1e9b3c5a';
let judge: Awaited<ReturnType<typeof hostileJudge>>;
beforeAll(async () => {
  judge = await hostileJudge((req, res) => {
    if (req.body.includes('bad key')) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end('invalid api key');
      return;
    }
    if (req.body.includes('garbled')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices": [ <html>');
      return;
    }
    if (req.body.includes('quoted url')) {
      completion(res, JSON.stringify({ correct: true, explanation: `both name the stairs; see "https://docs.example/rv?key=${KEY}&lang=en"` }));
      return;
    }
    completion(res, JSON.stringify({ correct: false, explanation: 'the notes name the stairs, not the door' }));
  });
});
afterAll(() => judge.close());

const env = (url: string) => ({ TRAVERSA_JUDGE_URL: url, TRAVERSA_JUDGE_MODEL: 'flaky', TRAVERSA_JUDGE_RETRY_MS: '1' });
const summaryOf = (out: string) => JSON.parse(folderTexts(out)['scored_summary.json']!) as { unjudged: number; models: Record<string, PaperSummary> };
const recordsOf = (out: string) =>
  folderTexts(out)
    ['scored_per_record.jsonl']!.trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ScoredRecord);

/** A loopback port nothing listens on: a dead endpoint. */
async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

describe('a judge reply that quotes a URL with ?key=… is read, then redacted', () => {
  it('the verdict counts, and the key is in no output', async () => {
    const run = judgedRun(['the stairs, quoted url']);
    try {
      const { stdout, stderr, code } = await cliScore(run, env(judge.url));
      expect(code).toBe(0);
      const [r] = recordsOf(run.out);
      expect(r!.judge).toMatchObject({ correct: true });
      expect(r!.judge!.error).toBeUndefined();
      expect(r!.judge!.explanation).toContain('?key=***&lang=en');
      for (const [name, text] of Object.entries({ ...folderTexts(run.out), stdout, stderr })) expect(text, name).not.toContain(KEY);
      expect(summaryOf(run.out).unjudged).toBe(0);
    } finally {
      run.cleanup();
    }
  });
});

describe('a failing judge: no headline composite without the incomplete mark, and score exits non-zero', () => {
  it('a judge that fails on one record of two: RV and CapNav withheld with their range, the count and why next to them; exit 1', async () => {
    const run = judgedRun(['the door is too narrow', 'bad key: the stairs']);
    try {
      const { stdout, stderr, code } = await cliScore(run, env(judge.url));
      expect(code).toBe(1);
      expect(stderr).toMatch(/the score is incomplete: the judge could not judge 1 record\(s\)/);
      expect(stderr).toContain('--accept-unjudged');
      expect(stdout).toMatch(/INCOMPLETE: the judge could not judge 1 of 2 records \(1 × judge endpoint refused the request: HTTP 401: invalid api key\)/);
      // The table's RV and CapNav cells say withheld with the range; no bare composite is printed.
      const overall = stdout.split('\n').find((l) => l.includes('overall (micro)'))!;
      expect(overall).toMatch(/withheld \(0\.00…50\.00\)/);
      expect(overall).toMatch(/withheld \(\d+\.\d\d…\d+\.\d\d\)\s*$/);
      const s = summaryOf(run.out);
      expect(s.unjudged).toBe(1);
      const m = s.models['hostile-model']!;
      expect(m.headline.capnav).toBeNull();
      expect(m.headline.rv).toBeNull();
      expect(m.headline.incomplete!.rv).toEqual([0, 50]);
      expect(m.unjudged).toEqual({ count: 1, why: { 'judge endpoint refused the request: HTTP 401: invalid api key': 1 } });
      // The judged record's rejection is not dropped: the low end is what a judge rejecting both would give.
      const [lo, hi] = m.headline.incomplete!.capnav!;
      expect(hi).toBeGreaterThan(lo);
    } finally {
      run.cleanup();
    }
  });

  it('a dead endpoint and a reply that is not JSON: every record unjudged, exit 1; --accept-unjudged exits 0 and keeps the mark', async () => {
    for (const [url, reasons] of [
      [await deadUrl(), ['the stairs']],
      [judge.url, ['garbled: the stairs']],
    ] as const) {
      const run = judgedRun(reasons);
      try {
        const refused = await cliScore(run, env(url));
        expect(refused.code).toBe(1);
        expect(summaryOf(run.out).models['hostile-model']!.headline.capnav).toBeNull();
        const accepted = await cliScore(run, env(url), true, true);
        expect(accepted.code).toBe(0);
        expect(accepted.stderr).toContain('Accepted with --accept-unjudged');
        const m = JSON.parse(accepted.stdout) as { unjudged: number; models: Record<string, PaperSummary> };
        expect(m.unjudged).toBe(1);
        expect(m.models['hostile-model']!.headline).toMatchObject({ capnav: null, rv: null, n: { unjudged: 1 } });
      } finally {
        run.cleanup();
      }
    }
  });

  it("the studio's scoring (the Score view's client) withholds the same figures", async () => {
    const run = judgedRun(['the door is too narrow', 'bad key: the stairs']);
    try {
      const { lite } = await pageScore(run, judge.url);
      if (lite.mode !== 'paper') throw new Error('paper mode expected');
      const [, report] = lite.reports[0]!;
      expect(report.headline).toMatchObject({ capnav: null, rv: null, incomplete: { rv: [0, 50] } });
      expect(report.unjudged.count).toBe(1);
    } finally {
      run.cleanup();
    }
  });
});
