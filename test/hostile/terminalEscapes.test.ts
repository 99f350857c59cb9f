import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forTerminal } from '../../src/cli/terminal.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { houseScene, Q, rawQuestion } from '../support/releaseBuilder.ts';
import { scoringHouse } from '../support/scoreSupport.ts';
import { expectNoTrace, LIMIT_MS, run, tempDirs, writeHouse, writeQaBundle, writeTree } from './support.ts';

// Issue 12, class 9: a reference, a model name or a file name can carry terminal control
// sequences (clear the screen, set the window title, recolour, reorder the line). What the
// command line prints shows them escaped; the files it writes keep the data as it was.

/** Set the window title, clear the screen, an 8-bit CSI, a bell, a carriage return that hides the line's start, a right-to-left override. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\rrm -rf ~\u202e';
const SHOWN = '\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u000drm -rf ~\\u202e';
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const dirs = tempDirs();
beforeAll(async () => {
  await run('help');
});
afterAll(() => dirs.cleanUp());

function expectNothingObeyed(r: { stdout: string; stderr: string }): void {
  expect(r.stdout).not.toMatch(CONTROL);
  expect(r.stderr).not.toMatch(CONTROL);
}

describe.concurrent('terminal control sequences from the inputs', { timeout: 3 * LIMIT_MS }, () => {
  it('forTerminal shows each control character as its \\u escape and keeps lines, tabs and other text', () => {
    expect(forTerminal(HOSTILE)).toBe(SHOWN);
    expect(forTerminal('a\tb\nc — é ✓')).toBe('a\tb\nc — é ✓');
  });

  it('validate prints a reference full of escapes escaped; --json still parses back to the reference itself', async () => {
    const house = houseScene();
    house.qa.push(rawQuestion(Q.kitchenToTypo, 'Kitchen', HOSTILE));
    const rel = writeHouse(dirs.make(), house);
    const text = await run('validate', rel);
    expectNoTrace(text);
    expectNothingObeyed(text);
    expect(text.stdout).toContain(`"${SHOWN}" matches no node id or name`);
    const json = await run('validate', rel, '--json');
    expectNothingObeyed(json);
    const report = JSON.parse(json.stdout) as { problems: { message: string }[] };
    expect(report.problems.some((p) => p.message.includes(HOSTILE))).toBe(true);
  });

  it('an error naming a file whose name holds escapes shows them escaped', async () => {
    const rel = writeHouse(dirs.make());
    symlinkSync('/nowhere', join(rel, 'graphs', `\u001b[2J-graph.json`));
    const r = await run('validate', rel);
    expectNothingObeyed(r);
    expect(r.stderr).toContain('\\u001b[2J-graph.json: the release file cannot be read');
  });

  it('score prints a model named with escapes escaped, and writes its name unchanged into scored_summary.json', async () => {
    const gt = writeTree(dirs.make(), writeRelease(scoringHouse()));
    const pred = join(dirs.make(), 'answers.jsonl');
    writeFileSync(
      pred,
      JSON.stringify({ model: HOSTILE, scene: 'HOUSE01', questionIndex: 0, agent: 'HUMAN', answer: 'yes', path: ['hall', 'kitchen'], reason: HOSTILE }) + '\n',
    );
    const out = dirs.make();
    const r = await run('score', '--gt', gt, '--pred', pred, '--out', out);
    expectNoTrace(r);
    expectNothingObeyed(r);
    expect(r.stdout).toContain(`== ${SHOWN} ==`);
    const summary = JSON.parse(readFileSync(join(out, 'scored_summary.json'), 'utf8')) as { models: Record<string, unknown> };
    expect(Object.keys(summary.models)).toEqual([HOSTILE]);
  });

  it('score-qa prints a model named with escapes escaped, and writes it unchanged into qa_scores.json', async () => {
    const bundle = writeQaBundle(dirs.make(), `Is the kitchen lit?${HOSTILE}`);
    const answers = join(dirs.make(), 'a.jsonl');
    writeFileSync(answers, JSON.stringify({ id: 'qa_1', answer: `yes${HOSTILE}`, model: HOSTILE }) + '\n');
    const out = dirs.make();
    const r = await run('score-qa', '--gt', bundle, '--pred', answers, '--out', out);
    expectNoTrace(r);
    expectNothingObeyed(r);
    expect(r.stdout).toContain(SHOWN);
    const json = await run('score-qa', '--gt', bundle, '--pred', answers, '--json');
    expectNothingObeyed(json);
    expect((JSON.parse(json.stdout) as { models: { model: string }[] }).models[0]!.model).toBe(HOSTILE);
    expect((JSON.parse(readFileSync(join(out, 'qa_scores.json'), 'utf8')) as { models: { model: string }[] }).models[0]!.model).toBe(HOSTILE);
  });
});
