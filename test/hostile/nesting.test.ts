import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '../../src/core/records/storable.ts';
import { MAX_PY_DEPTH } from '../../src/core/scoring/compat/pyJson.ts';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { scoringHouse } from '../support/scoreSupport.ts';
import { expectNoTrace, LIMIT_MS, run, tempDirs, writeHouse, writeTree } from './support.ts';

// Issue 12, class 8: one prediction file nested 5,000 levels deep aborted a whole
// `score --compat reference` run with a stack overflow (paper mode reported the file and went on).
// Now both modes report the file and score the rest; every other reader stops at 64 levels.

const dirs = tempDirs();
let gt = '';
beforeAll(async () => {
  gt = writeTree(dirs.make(), writeRelease(scoringHouse()));
  await run('help');
});
afterAll(() => dirs.cleanUp());

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const RESULTS = join(import.meta.dirname, '../fixtures/scoring/results');

/** The fixture results plus one file nested `levels` deep where a result list belongs. */
function resultsWithDeepFile(levels: number): string {
  const dir = dirs.make();
  writeTree(dir, [
    { path: 'model-b/HOUSE01/HOUSE01_q03_HUMAN.txt', text: readFileSync(join(RESULTS, 'model-b/HOUSE01/HOUSE01_q03_HUMAN.txt'), 'utf8') },
    { path: 'model-a_16f/HOUSE01/batch1.json', text: readFileSync(join(RESULTS, 'model-a_16f/HOUSE01/batch1.json'), 'utf8') },
    { path: 'model-a_16f/HOUSE01/deep.json', text: `{"scene": "HOUSE01", "result": ${nested(levels)}}` },
  ]);
  return dir;
}

describe.concurrent('deeply nested input', { timeout: 3 * LIMIT_MS }, () => {
  it('score --compat reference: a file nested 5,000 deep is one failed record, named on stderr; the rest is scored', async () => {
    const out = dirs.make();
    const r = await run('score', '--gt', gt, '--pred', resultsWithDeepFile(5000), '--out', out, '--compat', 'reference', '--json');
    expectNoTrace(r);
    expect(r).toMatchObject({ code: 0, timedOut: false });
    expect(r.stderr).toContain(
      `traversa: model-a_16f/HOUSE01/deep.json: not valid JSON for the released scorer: Nested deeper than ${MAX_PY_DEPTH} levels (Python stops with RecursionError)`,
    );
    const summary = JSON.parse(r.stdout) as { n_records: number; n_ok: number; fail_reason_count: Record<string, number> };
    expect(summary.fail_reason_count).toEqual({ invalid_json: 1 });
    expect(summary.n_ok).toBeGreaterThan(0);
    // As the released scorer does, a file that fails whole is counted but writes no record.
    const records = readFileSync(join(out, 'scored_per_record.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { source_file: string });
    expect(records.length).toBe(summary.n_records - 1);
    expect(records.some((x) => x.source_file.endsWith('deep.json'))).toBe(false);
  });

  it('paper mode: the same file is a problem of its own, by file, and the run goes on', async () => {
    const out = dirs.make();
    const r = await run('score', '--gt', gt, '--pred', resultsWithDeepFile(5000), '--out', out, '--json');
    expectNoTrace(r);
    expect(r).toMatchObject({ code: 0, timedOut: false });
    const summary = JSON.parse(r.stdout) as { models: Record<string, unknown>; problems: { file: string; code: string; message: string }[] };
    expect(summary.problems).toContainEqual(
      expect.objectContaining({
        file: 'model-a_16f/HOUSE01/deep.json',
        code: 'predictions.malformed',
        message: expect.stringContaining(`nested more than ${MAX_DEPTH} levels deep`),
      }),
    );
    expect(Object.keys(summary.models)).toEqual(['model-a_16f', 'model-b']);
  });

  it(`a release value nested past ${MAX_DEPTH} levels is reported by JSON pointer; convert writes nothing instead of overflowing`, async () => {
    const rel = writeHouse(dirs.make());
    const graph = join(rel, 'graphs', 'HM3D00025-graph.json');
    writeFileSync(graph, readFileSync(graph, 'utf8').replace('"name": "Front hall"', `"name": "Front hall", "deep": ${nested(100_000)}`));
    const v = await run('validate', rel);
    expectNoTrace(v);
    expect(v).toMatchObject({ code: 1, timedOut: false });
    expect(v.stdout).toContain(`graphs/HM3D00025-graph.json /nodes/0/deep${'/0'.repeat(MAX_DEPTH - 3)}: fatal: nested more than ${MAX_DEPTH} levels deep`);
    const out = join(dirs.make(), 'converted');
    const c = await run('convert', rel, '--out', out);
    expectNoTrace(c);
    expect(c.code).toBe(1);
    expect(c.stderr).toContain('cannot be read as a CapNav release');
  });
});
