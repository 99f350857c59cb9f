import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESAMPLES, MAX_SEED } from '../../src/core/scoring/bootstrap.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { scoringHouse } from '../support/scoreSupport.ts';
import { expectOneLineError, LIMIT_MS, run, tempDirs, writeQaBundle, writeTree } from './support.ts';

// Issue 12, class 10: `--bootstrap 100000000` ran for minutes at 4 GB. Every numeric option has
// documented bounds; a value outside them is a usage error (exit 2) said at once.

const dirs = tempDirs();
let gt = '',
  pred = '',
  bundle = '',
  answers = '';
beforeAll(async () => {
  gt = writeTree(dirs.make(), writeRelease(scoringHouse()));
  pred = join(dirs.make(), 'p.jsonl');
  writeFileSync(
    pred,
    JSON.stringify({ model: 'm', scene: 'HOUSE01', questionIndex: 0, agent: 'HUMAN', answer: 'yes', path: ['hall', 'kitchen'], reason: '' }) + '\n',
  );
  bundle = writeQaBundle(dirs.make());
  answers = join(dirs.make(), 'a.jsonl');
  writeFileSync(answers, '{"id": "qa_1", "answer": "yes"}\n');
  await run('help');
});
afterAll(() => dirs.cleanUp());

describe.concurrent('bounds of numeric options', { timeout: 3 * LIMIT_MS }, () => {
  it(`--bootstrap past ${MAX_RESAMPLES.toLocaleString('en')} is refused at once, by score and score-qa`, async () => {
    const out = dirs.make();
    const started = Date.now();
    const [score, qa] = await Promise.all([
      run('score', '--gt', gt, '--pred', pred, '--out', out, '--bootstrap', '100000000'),
      run('score-qa', '--gt', bundle, '--pred', answers, '--bootstrap', '100000000'),
    ]);
    for (const r of [score, qa]) expectOneLineError(r, 2, '--bootstrap takes a whole number from 0 to 100,000, not "100000000"');
    expect(Date.now() - started).toBeLessThan(LIMIT_MS);
  });

  it('the maximum itself is accepted and finishes within the limit on a small run', async () => {
    const r = await run('score', '--gt', gt, '--pred', pred, '--out', dirs.make(), '--bootstrap', String(MAX_RESAMPLES), '--json');
    expect(r).toMatchObject({ code: 0, timedOut: false });
    expect(JSON.parse(r.stdout)).toMatchObject({ models: { m: { settings: { bootstrap: { resamples: MAX_RESAMPLES } } } } });
  });

  it('seeds are 32-bit: a larger one would wrap onto a smaller seed, so it is refused; so are fractions, negatives and blanks', async () => {
    const out = dirs.make();
    const runs = await Promise.all([
      run('score', '--gt', gt, '--pred', pred, '--out', out, '--seed', String(MAX_SEED + 1)),
      run('baseline', 'random', '--gt', gt, '--out', join(out, 'b.jsonl'), '--seed', '1e300'),
      run('score-qa', '--gt', bundle, '--pred', answers, '--seed', '-1'),
      run('score-qa', '--gt', bundle, '--pred', answers, '--bootstrap', '2.5'),
      run('score', '--gt', gt, '--pred', pred, '--out', out, '--bootstrap', ''),
    ]);
    for (const r of runs) expectOneLineError(r, 2, 'takes a whole number from 0 to');
    expect(runs[0]!.stderr).toContain(`--seed takes a whole number from 0 to ${MAX_SEED.toLocaleString('en')}`);
  });

  it('--scale outside 0.0001–10 is refused before the scan is read (at 1,000 the sample house overflowed the navmesh builder)', async () => {
    for (const scale of ['1000', '0', '-1', 'NaN']) {
      expectOneLineError(
        await run('suggest', '--mesh', join(gt, 'none.glb'), '--graph', join(gt, 'none-graph.json'), '--scale', scale),
        2,
        `--scale must be the scan's unit in metres, from 0.0001 to 10 (got ${scale})`,
      );
    }
  });
});
