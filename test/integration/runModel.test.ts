import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/cli.ts';
import { imagesOf, promptText, startFakeChat } from '../support/fakeChat.ts';
import { AGENTS, askedAbout, HOUSE, houseRelease, modelRunHarness, RUN_ENV, RUN_KEY, scriptedReply, SETTING } from '../support/modelRun.ts';

const KEY = RUN_KEY;
const { temp, serve, cli, runModel: run } = modelRunHarness();
const runModel = (gt: string, url: string, out: string, ...more: string[]) => run(gt, url, out, more);

/** Every file under a folder, by path relative to it, as text. */
function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}
const results = (out: string) => Object.fromEntries(Object.entries(filesUnder(out)).filter(([p]) => p.startsWith(`${SETTING}/${HOUSE}/`)));
const summaryOf = (out: string) => JSON.parse(readFileSync(join(out, SETTING, 'run_summary.json'), 'utf8'));
const cachedAnswers = (out: string) =>
  Object.entries(filesUnder(join(out, '.cache')))
    .filter(([p]) => p.endsWith('.answer'))
    .map(([, text]) => JSON.parse(text) as { agent: string; questionIndex: number });

describe('run-model against an OpenAI-compatible endpoint, scored by score', { timeout: 60_000 }, () => {
  it('asks every question × agent once (the hallucinated one never), with the frames as JPEG data URLs, and both scorers score what the model said', async () => {
    const gt = houseRelease();
    const out = temp('traversa-runmodel-out-');
    const chat = await serve({ reply: scriptedReply });
    const r = await runModel(gt, chat.url, out);
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);

    // 2 questions × 5 agents; the garage question (hallucinated) is not asked.
    expect(chat.requests).toHaveLength(10);
    const asked = chat.requests.map((q) => askedAbout(q.body));
    expect(new Set(asked.map((a) => `${a.agent} ${a.question}`)).size).toBe(10);
    for (const q of chat.requests) {
      expect(q.url).toBe('/v1/chat/completions');
      expect(q.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(q.body).toMatchObject({ model: 'fake-vlm', temperature: 0 });
      expect(imagesOf(q.body)).toHaveLength(4);
      for (const url of imagesOf(q.body))
        expect(Buffer.from(url.replace('data:image/jpeg;base64,', ''), 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(promptText(q.body)).not.toContain('garage');
    }

    // Paper mode: TP 1 (human, bedroom), FN 1 (human, living room), FP 3 (humanoid over the stairs,
    // the quadruped's unreadable reply, the quadruped's yes), TN 5; every readable path valid;
    // RTA over the three valid yes-paths 1, 3/4 and 0.
    const paper = await cli(['score', '--gt', gt, '--pred', out, '--out', temp('traversa-runmodel-scored-'), '--judge', 'none', '--json'], {});
    expect(paper.code).toBe(0);
    const report = (
      JSON.parse(paper.stdout) as {
        models: Record<string, { overall: { f1: number; pv: number; rta: number; n: object }; confusion: object; errorCounts: object; counts: object }>;
      }
    ).models[SETTING]!;
    expect(report.confusion).toEqual({ tp: 1, fp: 3, tn: 5, fn: 1 });
    expect(report.overall.f1).toBeCloseTo(100 / 3, 9);
    expect(report.overall.pv).toBe(100);
    expect(report.overall.rta).toBeCloseTo(175 / 3, 9);
    expect(report.overall.n).toEqual({ records: 10, parseable: 9, rta: 3, rv: 0, unjudged: 0 });
    expect(report.errorCounts).toMatchObject({ 'unparseable-answer': 1 });
    expect(report.counts).toMatchObject({ records: 10, unmatched: 0, problems: 0 });

    // The released scorer: the unreadable reply is a format error counted as a false positive.
    const compat = await cli(['score', '--gt', gt, '--pred', out, '--out', temp('traversa-runmodel-compat-'), '--compat', 'reference', '--json'], {});
    expect(compat.code).toBe(0);
    expect(compat.stderr).toBe('');
    const s = JSON.parse(compat.stdout);
    expect(s).toMatchObject({ n_records: 10, n_ok: 10, n_fail: 0, format_errors: 1, pv_total: 9, pv_valid: 9, rta_count: 3 });
    expect(s.binary_classification).toMatchObject({ TP: 1, FP: 3, TN: 5, FN: 1 });
    expect(s.format_error_details).toEqual({ cannot_parse_answer_path: 1 });
    expect(s.rta_sum).toBeCloseTo(1.75, 9);

    const summary = summaryOf(out);
    expect(summary).toMatchObject({
      model: 'fake-vlm',
      endpoint_host: new URL(chat.url).host,
      prompt_version: 'capnav-eval-1',
      frames: '16',
      model_setting: SETTING,
      counts: { inputs: 10, answered: 10, from_cache: 0, requested: 10, unreadable: 1, failed: 0, excluded_hallucinated: 1 },
    });
    expect(summary.unreadable_replies).toEqual([expect.objectContaining({ agent: 'QUADRUPEDAL', question_index: 0 })]);
    // The tokens are the replies' usage, summed.
    expect(summary.tokens.this_run.prompt).toBeGreaterThan(0);
    expect(r.stdout).toContain(
      `tokens this run: ${summary.tokens.this_run.prompt.toLocaleString('en-US')} prompt + ${summary.tokens.this_run.completion.toLocaleString('en-US')} completion`,
    );
    expect(r.stderr).toMatch(/run-model: 10\/10, 0 failed, [\d.]+ requests\/s, done/);

    // Run again: every answer comes from the cache, not one request is made, the results are the same bytes.
    const before = results(out);
    const again = await runModel(gt, chat.url, out);
    expect(again.code).toBe(0);
    expect(chat.requests).toHaveLength(10);
    expect(results(out)).toEqual(before);
    expect(summaryOf(out)).toMatchObject({
      counts: { from_cache: 10, requested: 0 },
      tokens: { this_run: { total: 0 }, from_cache: { total: summary.tokens.this_run.total } },
    });
  });

  it('retries a server error with back-off and gets the answer', async () => {
    const gt = houseRelease();
    const out = temp('traversa-runmodel-retry-');
    const chat = await serve({ reply: (body, { n }) => (n < 2 ? { status: 503, content: 'overloaded' } : scriptedReply(body)) });
    const r = await runModel(gt, chat.url, out, '--concurrency', '1', '--limit', '2');
    expect(r.code).toBe(0);
    // The first input was asked three times (503, 503, answer), the second once.
    expect(chat.requests.map((q) => askedAbout(q.body).question)).toEqual([0, 0, 0, 1]);
    expect(summaryOf(out).counts).toMatchObject({ inputs: 2, answered: 2, failed: 0 });
  });

  it('gives up on an input after --retries retries, writes it unanswered, says so and exits 1; the next run asks only that one', async () => {
    const gt = houseRelease();
    const out = temp('traversa-runmodel-giveup-');
    let failing = true;
    const chat = await serve({
      reply: (body) =>
        failing && askedAbout(body).agent === 'HUMAN' && askedAbout(body).question === 1 ? { status: 500, content: 'boom' } : scriptedReply(body),
    });
    const r = await runModel(gt, chat.url, out, '--retries', '2');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('run-model: 1 request failed; written as unanswered');
    expect(chat.requests.filter((q) => askedAbout(q.body).agent === 'HUMAN' && askedAbout(q.body).question === 1)).toHaveLength(3);
    const human = JSON.parse(readFileSync(join(out, SETTING, HOUSE, `${HOUSE}_HUMAN.json`), 'utf8'));
    expect(human.result[1]).toMatchObject({
      result: { answer: '', path: [], reason: '' },
      error: 'model failed after 3 attempts: HTTP 500: {"error":{"message":"boom"}}',
    });
    expect(summaryOf(out).failures).toEqual([expect.objectContaining({ agent: 'HUMAN', question_index: 1 })]);

    failing = false;
    const n = chat.requests.length;
    const again = await runModel(gt, chat.url, out);
    expect(again.code).toBe(0);
    expect(chat.requests.slice(n).map((q) => askedAbout(q.body))).toEqual([{ agent: 'HUMAN', question: 1 }]);
    expect(JSON.parse(readFileSync(join(out, SETTING, HOUSE, `${HOUSE}_HUMAN.json`), 'utf8')).result[1].result.answer).toBe('no');
  });

  it('never has more requests in flight than --concurrency, and does use that many', async () => {
    const gt = houseRelease();
    for (const limit of [1, 3]) {
      const chat = await serve({ reply: scriptedReply, delayMs: 60 });
      const r = await runModel(gt, chat.url, temp('traversa-runmodel-conc-'), '--concurrency', String(limit));
      expect(r.code).toBe(0);
      expect(chat.requests).toHaveLength(10);
      expect(chat.maxInFlight).toBe(limit);
    }
  });

  it('resumes after being killed mid-run: no answered question is asked again, and the results are those of a run never stopped', async () => {
    const gt = houseRelease();
    const out = temp('traversa-runmodel-killed-');
    const chat = await serve({ reply: scriptedReply, delayMs: 150 });
    const args = [
      'src/cli/launch.mjs',
      'run-model',
      '--gt',
      gt,
      '--frames',
      '16',
      '--endpoint',
      chat.url,
      '--model',
      'fake-vlm',
      '--out',
      out,
      '--concurrency',
      '2',
    ];
    const child = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, ...RUN_ENV }, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    while (chat.requests.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const kept = cachedAnswers(out).map((a) => `${a.agent} ${a.questionIndex}`);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(10);
    expect(readdirSync(out)).not.toContain(SETTING); // killed before writing any result

    const before = chat.requests.length;
    const resumed = await runModel(gt, chat.url, out);
    expect(resumed.code).toBe(0);
    const askedNow = chat.requests
      .slice(before)
      .map((q) => askedAbout(q.body))
      .map((a) => `${a.agent} ${a.question}`);
    expect(askedNow).toHaveLength(10 - kept.length);
    expect(askedNow.filter((a) => kept.includes(a))).toEqual([]);
    expect(summaryOf(out).counts).toMatchObject({ from_cache: kept.length, requested: 10 - kept.length });

    const whole = temp('traversa-runmodel-whole-');
    expect((await runModel(gt, chat.url, whole)).code).toBe(0);
    const a = results(out),
      b = results(whole);
    expect(Object.keys(a)).toHaveLength(AGENTS.length);
    expect(a).toEqual(b);
  });

  it('on Ctrl-C stops asking, writes no results, says how to go on, and exits 130; the rerun completes', async () => {
    const gt = houseRelease();
    const out = temp('traversa-runmodel-sigint-');
    // The third request is held until the interruption cuts it short.
    let holding = true;
    const chat = await serve({ reply: (body, { n }) => ({ ...scriptedReply(body), delayMs: n === 2 && holding ? 20_000 : 20 }) });
    const args = [
      'src/cli/launch.mjs',
      'run-model',
      '--gt',
      gt,
      '--frames',
      '16',
      '--endpoint',
      chat.url,
      '--model',
      'fake-vlm',
      '--out',
      out,
      '--concurrency',
      '1',
    ];
    const child = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, ...RUN_ENV } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    while (chat.requests.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stdout).toContain('10 inputs: 2 answered (0 from the cache), 0 unreadable, 0 failed, 8 not asked');
    expect(stdout).toContain(
      `run-model interrupted. No results written; the 2 answers received are kept in ${join(out, '.cache')}: run the same command again to go on from there.`,
    );
    expect(readdirSync(out)).toEqual(['.cache']);
    holding = false;
    const n = chat.requests.length;
    expect((await runModel(gt, chat.url, out)).code).toBe(0);
    expect(chat.requests.length - n).toBe(8);
  });

  it('writes the key nowhere, even when the endpoint echoes it back in answers, unreadable replies and errors', async () => {
    const gt = houseRelease();
    const out = temp('traversa-runmodel-key-');
    const chat = await serve({
      reply: (body, { n }) => {
        const { agent } = askedAbout(body);
        const auth = String(chat.requests[n]!.headers.authorization);
        if (agent === 'HUMAN') return { content: JSON.stringify({ answer: 'no', path: ['node_1', 'node_3'], reason: `you sent ${auth} and ${KEY}` }) };
        if (agent === 'WHEELCHAIR') return { content: `I only saw the header ${auth}` };
        if (agent === 'HUMANOID') return { status: 400, content: `bad request from ${auth}` };
        return scriptedReply(body);
      },
    });
    const r = await runModel(gt, chat.url, out, '--cache', join(out, 'answers'));
    expect(r.code).toBe(1); // the humanoid's two requests were refused with 400
    expect(chat.requests.every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    const written = filesUnder(out);
    expect(Object.keys(written).filter((p) => p.endsWith('.answer')).length).toBe(8);
    for (const [path, text] of Object.entries(written)) expect(text.includes(KEY) ? path : null).toBe(null);
    expect(written[`${SETTING}/${HOUSE}/${HOUSE}_HUMAN.json`]).toContain('you sent Bearer *** and ***');
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});

describe('run-model refuses what it cannot run, before asking anything', { timeout: 60_000 }, () => {
  it('without --gt or --inputs, with a bad endpoint, budget or agent: a clear error and exit 2', async () => {
    const gt = houseRelease();
    const chat = await serve({ reply: scriptedReply });
    const base = ['--endpoint', chat.url, '--model', 'm', '--out', temp('traversa-runmodel-bad-')];
    const cases: [string[], string][] = [
      [['run-model', '--frames', '16', ...base], 'run-model needs --gt <release-dir> (with --frames) or --inputs <dir>'],
      [['run-model', '--gt', gt, '--frames', '16', '--endpoint', 'not a url', '--model', 'm', '--out', '/tmp/x'], '--endpoint is not a URL: "not a url"'],
      [
        ['run-model', '--gt', gt, '--frames', '16', '--endpoint', 'ftp://example.com/v1', '--model', 'm', '--out', '/tmp/x'],
        '--endpoint must be an http:// or https:// URL, not ftp:',
      ],
      [['run-model', '--gt', gt, '--frames', '128', ...base], '--frames takes 16, 32, 64, 1fps, not "128"'],
      [['run-model', '--gt', gt, ...base], 'run-model needs --frames 16|32|64|1fps'],
      [['run-model', '--gt', gt, '--frames', '16', ...base, '--agents', 'HUMAN,ROBOTDOG'], 'agent "ROBOTDOG" has no profile'],
      [['run-model', '--gt', gt, '--frames', '16', ...base, '--concurrency', 'many'], '--concurrency takes a whole number'],
      [['run-model', '--gt', gt, '--frames', '16', ...base, '--temperature', '1'], 'unknown option --temperature'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.stderr, args.join(' ')).toContain(message);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(chat.requests).toHaveLength(0);
  });

  it('a scene without frames at the budget, or a frame missing from its set: exit 1 naming the file', async () => {
    const chat = await serve({ reply: scriptedReply });
    const noFrames = houseRelease(0);
    const r = await runModel(noFrames, chat.url, temp('traversa-runmodel-noframes-'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no frame set at budget 16 for 1 scene (${HOUSE}): ${join(noFrames, 'frames', HOUSE, '16', 'frames.json')} does not exist`);

    const gap = houseRelease();
    unlinkSync(join(gap, 'frames', HOUSE, '16', '002.jpg'));
    const g = await runModel(gap, chat.url, temp('traversa-runmodel-gap-'));
    expect(g.code).toBe(1);
    expect(g.stderr).toContain(`${join(gap, 'frames', HOUSE, '16', '002.jpg')}: the frame cannot be read (it does not exist)`);
    expect(chat.requests).toHaveLength(0);
  });

  it('stops at the first refusal (a wrong key: HTTP 401) instead of sending every request, and writes no results', async () => {
    const gt = houseRelease();
    const out = temp('traversa-runmodel-401-');
    const chat = await serve({ reply: () => ({ status: 401, content: 'invalid api key' }) });
    const r = await runModel(gt, chat.url, out, '--concurrency', '1');
    expect(r.code).toBe(1);
    expect(chat.requests).toHaveLength(1);
    expect(r.stdout).toContain('run-model stopped: the endpoint refused a request (model endpoint refused the request: HTTP 401');
    expect(readdirSync(out)).not.toContain(SETTING);
  });

  it('stops when nothing answers at the endpoint (the first three requests all fail), saying why', async () => {
    const gone = await startFakeChat({ reply: scriptedReply });
    await gone.close(); // its port is free again: nothing listens there
    const out = temp('traversa-runmodel-gone-');
    const r = await runModel(houseRelease(), gone.url, out, '--concurrency', '1', '--retries', '1');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('10 inputs: 0 answered (0 from the cache), 0 unreadable, 3 failed, 7 not asked');
    expect(r.stdout).toMatch(
      /run-model stopped: the first 3 requests all failed \(the last: model failed after 2 attempts: network error: fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+\)/,
    );
    expect(readdirSync(out)).toEqual([]);
  });
});
