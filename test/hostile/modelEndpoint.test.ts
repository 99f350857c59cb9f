import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readModelReply } from '../../src/formats/predictions/modelReply.ts';
import { HOUSE, houseRelease, modelRunHarness, scriptedReply, SETTING } from '../support/modelRun.ts';

/**
 * Issue 25 §4–§6: a hostile OpenAI-compatible endpoint, over loopback. It redirected the prompt,
 * frames and key to another host (whose answers were stored as the model's); a 600 KB nested reply
 * cost ~30 s of CPU after the time limit; a 100,000-entry frame set crashed run-model. The
 * browser's task generation meets the redirect in test/e2e/taskGeneration.test.ts.
 */
const { temp, serve, runModel } = modelRunHarness();

describe('run-model against a hostile endpoint', { timeout: 150_000 }, () => {
  it('a frame set of 100,000 entries is refused before anything is sent, naming the file and the limit (issue 25 §6)', async () => {
    const chat = await serve({ reply: scriptedReply });
    const gt = houseRelease();
    const list = join(gt, 'frames', HOUSE, '16', 'frames.json');
    writeFileSync(list, JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ file: '000.jpg', index: i, t: i }))));
    const r = await runModel(gt, chat.url, temp('traversa-runmodel-many-'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${list}: at /: a frame set lists at most 3,600 frames (an hour of touring video at 1 fps)`);
    expect(r.stderr).not.toMatch(/RangeError|\n\s+at /);
    expect(chat.requests).toHaveLength(0);
  });

  it('follows no redirect: a 307 to another host stops the run, saying where it pointed, and that host is sent nothing (issue 25 §4)', async () => {
    const elsewhere = await serve({ reply: scriptedReply });
    const chat = await serve({ reply: () => ({ status: 307, content: 'moved', location: `${elsewhere.url}/chat/completions` }) });
    const out = temp('traversa-runmodel-307-');
    const r = await runModel(houseRelease(), chat.url, out, ['--concurrency', '1']);
    expect(r.code).toBe(1);
    expect(elsewhere.requests).toHaveLength(0);
    expect(chat.requests).toHaveLength(1);
    expect(r.stdout).toContain(
      `run-model stopped: model endpoint answered with a redirect (HTTP 307 to ${elsewhere.url}/chat/completions); Traversa follows no redirect`,
    );
    expect(readdirSync(out)).not.toContain(SETTING);
  });

  it('a 600 KB nested reply is read in one pass: the run ends with it unreadable, the other answers stored', async () => {
    const nested = '['.repeat(300_000) + ']'.repeat(300_000);
    let first = true;
    const chat = await serve({ reply: (body) => (first ? ((first = false), { content: nested }) : scriptedReply(body)) });
    const out = temp('traversa-runmodel-nested-');
    const r = await runModel(houseRelease(), chat.url, out, ['--concurrency', '1']);
    expect(r).toMatchObject({ code: 0, timedOut: false });
    // The scripted replies hold one unreadable answer of their own.
    expect(r.stdout).toContain('10 inputs: 10 answered (0 from the cache), 2 unreadable, 0 failed');
    // Four such replies took 231 s (past the 120 s the command is given here, when it is killed).
  });

  it('a reply that arrives after the time limit is abandoned, not read: the input is failed, not answered', async () => {
    const chat = await serve({ reply: (body) => ({ ...scriptedReply(body), delayMs: 1_500 }) });
    const out = temp('traversa-runmodel-late-');
    const r = await runModel(houseRelease(), chat.url, out, ['--concurrency', '1', '--retries', '0', '--limit', '1'], { TRAVERSA_VLM_TIMEOUT_MS: '300' });
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toMatch(/0 answered \(0 from the cache\), 0 unreadable, 1 failed/);
    // The failure is recorded with why, and no answer of the late reply is stored as the model's.
    const written = readdirSync(join(out, SETTING, HOUSE))
      .map((f) => readFileSync(join(out, SETTING, HOUSE, f), 'utf8'))
      .join('\n');
    expect(written).toMatch(/model failed after 1 attempt: .*(time|abort)/i);
    expect(written).not.toMatch(/"answer":\s*"(yes|no)"/i);
  });
});

describe('replies built to be slow to read (issue 25 §5)', () => {
  // Each of these kept the reader busy for seconds to minutes (600,000 spaces: 235 s); every step is linear now.
  const big = 600_000;
  it.each([
    ['600,000 spaces after "Answer:"', `Answer:${' '.repeat(big)}yes`, 'yes'],
    ['300,000 nested brackets', `${'['.repeat(big / 2)}${']'.repeat(big / 2)}`, null],
    ['200,000 fences, then an answer', `${'```'.repeat(big / 3)} {"answer": "no"}`, 'no'],
    ['100,000 unclosed <think>, then JSON', `${'<think>'.repeat(100_000)}{"answer": "yes", "path": [], "reason": ""}`, 'yes'],
    ['a megabyte of brackets among prose', `${'[{'.repeat(big / 2)}`, null],
  ])('%s: read in one pass', (_what, reply, answer) => {
    const r = readModelReply(reply, 'HUMAN');
    if (answer === null) expect(r.kind).toBe('unreadable');
    else expect(r).toMatchObject({ kind: 'answer', result: { answer } });
  });

  it("a thinking model's reasoning and a fenced answer still read as before", () => {
    expect(
      readModelReply('<think>maybe {"answer": "no"}</think>\n```json\n{"answer": "yes", "path": ["a", "b"], "reason": "wide door"}\n```', 'HUMAN'),
    ).toEqual({ kind: 'answer', result: { answer: 'yes', path: ['a', 'b'], reason: 'wide door' }, form: 'json' });
  });
});
