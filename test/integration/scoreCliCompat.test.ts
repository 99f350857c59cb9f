import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRelease } from '../../src/formats/capnav/write.ts';
import { REPO, traversa } from '../support/cli.ts';
import { writeReleaseDir } from '../support/releaseBuilder.ts';
import { scoringHouse } from '../support/scoreSupport.ts';

/*
 * `score --compat reference` on what users give it: a Traversa JSONL file (the baseline's own
 * output) is refused, not scored as one failed record with every score 0.00; a results root with
 * several model folders gives one summary per model beside the pooled one the released scorer
 * prints. And a task predicted twice in paper mode is said on stderr, not only in the summary file.
 */

const RESULTS = join(REPO, 'test/fixtures/scoring/results');
const made: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};
let gt = '';

beforeAll(async () => {
  gt = writeReleaseDir(writeRelease(scoringHouse()), 'traversa-compat-gt-');
  made.push(gt);
  await traversa('help'); // build the CLI bundle once, before the parallel runs
});
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A copy of the fixture results (two model folders and a loose JSONL) with `extra` files added. */
function resultsCopy(extra: Record<string, string> = {}): string {
  const dir = temp('traversa-compat-results-');
  const copy = (from: string, to: string) => {
    for (const e of readdirSync(from, { withFileTypes: true })) {
      if (e.isDirectory()) copy(join(from, e.name), join(to, e.name));
      else {
        mkdirSync(to, { recursive: true });
        copyFileSync(join(from, e.name), join(to, e.name));
      }
    }
  };
  copy(RESULTS, dir);
  for (const [path, text] of Object.entries(extra)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

describe.concurrent('score --compat reference: what it reads and what it writes', { timeout: 120_000 }, () => {
  it('refuses a JSONL prediction file with one line naming it and the layout it reads, and exit 1', async () => {
    const dir = temp('traversa-compat-jsonl-');
    const jsonl = join(dir, 'rand.jsonl');
    expect((await traversa('baseline', 'random', '--gt', gt, '--out', jsonl)).code).toBe(0);
    const out = join(dir, 'scored');
    const r = await traversa('score', '--gt', gt, '--pred', jsonl, '--out', out, '--compat', 'reference');
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      `traversa: ${jsonl}: --compat reference reads a CapNav results folder, results/<model>/<SCENE>/<SCENE>_<AGENT>.json, as the released scorer does; this is a JSONL prediction file, not a results folder (score it without --compat reference)`,
    ]);
    expect(r.stdout).toBe('');
    // Nothing is written that could pass for a result.
    expect(readdirSync(dir)).toEqual(['rand.jsonl']);
  });

  it('refuses a folder holding no *.json result file, saying which prediction files it saw', async () => {
    const dir = temp('traversa-compat-only-jsonl-');
    writeFileSync(join(dir, 'rand.jsonl'), readFileSync(join(RESULTS, 'extra.jsonl')));
    const r = await traversa('score', '--gt', gt, '--pred', dir, '--out', join(dir, 'scored'), '--compat', 'reference');
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      `traversa: ${dir}: no *.json result files to score: --compat reference reads a CapNav results folder, results/<model>/<SCENE>/<SCENE>_<AGENT>.json, as the released scorer does; it holds 1 other prediction file (rand.jsonl), which compat mode does not read (score them without --compat reference)`,
    ]);
  });

  it('scores the *.json files of a folder that also holds JSONL, and says what it left unread', async () => {
    const out = temp('traversa-compat-out-');
    const r = await traversa('score', '--gt', gt, '--pred', RESULTS, '--out', out, '--compat', 'reference', '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `traversa: note: --compat reference reads only *.json result files, as the released scorer does; 3 other files under ${RESULTS} not read (extra.jsonl, …)`,
    );
    expect((JSON.parse(r.stdout) as { n_ok: number }).n_ok).toBeGreaterThan(0);
  });

  it('writes one summary per model folder beside the pooled one, each what the released scorer prints for that folder, and says which is which', async () => {
    const results = resultsCopy({
      'model-b/HOUSE01/HOUSE01_HUMAN.json': JSON.stringify({
        scene: 'HOUSE01',
        prompt_file: 'p.txt',
        time_sec: 2,
        result: [{ question: 'Can [Agent] move from the front hall to the kitchen?', agent: 'HUMAN', result: { answer: 'no', path: ['hall', 'kitchen'] } }],
      }),
    });
    const out = temp('traversa-compat-models-');
    const r = await traversa('score', '--gt', gt, '--pred', results, '--out', out, '--compat', 'reference');
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      'scored_model-a_16f_summary.json',
      'scored_model-b_summary.json',
      'scored_per_record.jsonl',
      'scored_summary.json',
    ]);
    const rows = r.stdout.split('\n');
    expect(rows.find((l) => l.startsWith('model-a_16f '))).toBeDefined();
    expect(rows.find((l) => l.startsWith('model-b '))).toBeDefined();
    expect(rows.find((l) => l.startsWith('all 2 models, pooled '))).toBeDefined();
    expect(r.stdout).toContain(
      `Each model row is what the released scorer prints when run on ${results}/<model> (scored_<model>_summary.json); "all 2 models, pooled" is what it prints for ${results} itself`,
    );

    const read = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    const pooled = read(join(out, 'scored_summary.json'));
    const perModel = ['model-a_16f', 'model-b'].map((m) => read(join(out, `scored_${m}_summary.json`)));
    expect(perModel.map((s) => s.n_records as number).reduce((a, b) => a + b)).toBe(pooled.n_records);
    for (const [i, m] of ['model-a_16f', 'model-b'].entries()) {
      // The same summary as a run on that folder alone, but for where its records are written.
      const alone = temp('traversa-compat-alone-');
      expect((await traversa('score', '--gt', gt, '--pred', join(results, m), '--out', alone, '--compat', 'reference')).code).toBe(0);
      const own = read(join(alone, 'scored_summary.json'));
      expect({ ...perModel[i], per_record_output: null }).toEqual({ ...own, per_record_output: null });
      expect(perModel[i]!.result_root).toBe(join(results, m));
      expect(readdirSync(alone).sort()).toEqual(['scored_per_record.jsonl', 'scored_summary.json']);
    }
  });
});

describe('score --compat reference into a folder that holds an earlier run', { timeout: 120_000 }, () => {
  it('replaces the per-record file whole and leaves nothing of the old one beside it; a link in its place is still refused', async () => {
    const out = temp('traversa-compat-rerun-');
    const pred = resultsCopy();
    const first = await traversa('score', '--gt', gt, '--pred', pred, '--out', out, '--compat', 'reference');
    expect(first.code).toBe(0);
    const before = readFileSync(join(out, 'scored_per_record.jsonl'), 'utf8');
    // A longer earlier file: what is written now must not keep its tail.
    writeFileSync(join(out, 'scored_per_record.jsonl'), before + before);
    const again = await traversa('score', '--gt', gt, '--pred', pred, '--out', out, '--compat', 'reference');
    expect(again.code).toBe(0);
    expect(readFileSync(join(out, 'scored_per_record.jsonl'), 'utf8')).toBe(before);
    expect(readdirSync(out).filter((f) => f.includes('scored_per_record'))).toEqual(['scored_per_record.jsonl']);

    const linked = temp('traversa-compat-link-');
    const target = join(linked, 'elsewhere.jsonl');
    writeFileSync(target, 'keep me');
    symlinkSync(target, join(linked, 'scored_per_record.jsonl'));
    const refused = await traversa('score', '--gt', gt, '--pred', pred, '--out', linked, '--compat', 'reference');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('symbolic link');
    expect(readFileSync(target, 'utf8')).toBe('keep me');
  });

  it('a rerun that fails after writing over part of the earlier file leaves neither: the file is removed, not half new and half old', async () => {
    const out = temp('traversa-compat-failed-');
    const pred = resultsCopy();
    expect((await traversa('score', '--gt', gt, '--pred', pred, '--out', out, '--compat', 'reference')).code).toBe(0);
    const earlier = readFileSync(join(out, 'scored_per_record.jsonl'), 'utf8');
    writeFileSync(join(out, 'scored_per_record.jsonl'), earlier + earlier + earlier);
    // Read last (models in name order), after every other file's lines are written: a file that cannot be read.
    const pipe = join(pred, 'zz-model', 'HOUSE01', 'HOUSE01_HUMAN.json');
    mkdirSync(dirname(pipe), { recursive: true });
    execFileSync('mkfifo', [pipe]);
    const failed = await traversa('score', '--gt', gt, '--pred', pred, '--out', out, '--compat', 'reference');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${pipe}: `);
    expect(failed.stderr).toContain('a named pipe, not a file');
    expect(existsSync(join(out, 'scored_per_record.jsonl'))).toBe(false);
    expect(readdirSync(out).filter((f) => f.includes('scored_per_record'))).toEqual([]);
  });
});

describe('score --compat reference: a record given twice', { timeout: 120_000 }, () => {
  it('scores both, as the released scorer does, and says so once per model on stderr; without repeats it says nothing of them', async () => {
    const again = readFileSync(join(RESULTS, 'model-a_16f/HOUSE01/batch1.json'), 'utf8');
    const items = (JSON.parse(again) as { result: unknown[] }).result;
    const n = items.filter(
      (i) =>
        typeof i === 'object' &&
        i !== null &&
        typeof (i as { agent?: unknown }).agent === 'string' &&
        typeof (i as { question?: unknown }).question === 'string',
    ).length;
    expect(n).toBeGreaterThan(1);
    const [onceOut, twiceOut] = [temp('traversa-compat-once-'), temp('traversa-compat-twice-')];
    const plain = await traversa('score', '--gt', gt, '--pred', resultsCopy(), '--out', onceOut, '--compat', 'reference');
    const twice = await traversa(
      'score',
      '--gt',
      gt,
      '--pred',
      resultsCopy({ 'model-a_16f/HOUSE01/batch1_again.json': again }),
      '--out',
      twiceOut,
      '--compat',
      'reference',
    );
    expect([plain.code, twice.code]).toEqual([0, 0]);
    expect(plain.stderr).not.toMatch(/repeat a scene/);
    expect(lines(twice.stderr).filter((l) => /repeat a scene/.test(l))).toEqual([
      `traversa: ${n} records of model model-a_16f repeat a scene, agent and question given before; all are scored, as the released scorer does (see docs/scoring.md, "Duplicate predictions")`,
    ]);
    const records = (dir: string) => (JSON.parse(readFileSync(join(dir, 'scored_summary.json'), 'utf8')) as { n_records: number }).n_records;
    // Every object item of the file is a record again (non-objects are skipped, as before).
    const objects = items.filter((i) => typeof i === 'object' && i !== null && !Array.isArray(i)).length;
    expect(records(twiceOut)).toBe(records(onceOut) + objects);
  });
});

/** Paper mode reads the release as a project and says which agents have no labels: the fixture house has none for the sweeper. */
const SWEEPER_UNLABELLED = /^traversa: warning: HOUSE01 has no labels for SWEEPER \(/;

describe('score (paper mode): a task predicted twice', { timeout: 120_000 }, () => {
  it('says on stderr, in one line per model, how many predictions were given twice and the rule; the summary lists each', async () => {
    const dir = temp('traversa-dupes-');
    const pred = join(dir, 'pred');
    mkdirSync(pred);
    expect((await traversa('baseline', 'random', '--gt', gt, '--out', join(pred, 'rand.jsonl'))).code).toBe(0);
    copyFileSync(join(pred, 'rand.jsonl'), join(pred, 'rand-again.jsonl'));
    const n = lines(readFileSync(join(pred, 'rand.jsonl'), 'utf8')).length;
    const out = join(dir, 'scored');
    const r = await traversa('score', '--gt', gt, '--pred', pred, '--out', out);
    expect(r.code).toBe(0);
    const [unlabelled, ...said] = lines(r.stderr);
    expect(unlabelled).toMatch(SWEEPER_UNLABELLED);
    expect(said).toEqual([
      `traversa: ${n.toLocaleString('en-US')} predictions of model random-walk were given twice (same scene, question and agent; e.g. rand.jsonl line 1 repeats rand-again.jsonl#line 1); ` +
        `both are scored, as the released scorer does — see docs/scoring.md, "Duplicate predictions"; each is listed in ${join(out, 'scored_summary.json')}`,
    ]);
    const summary = JSON.parse(readFileSync(join(out, 'scored_summary.json'), 'utf8')) as {
      problems: { code: string }[];
      models: Record<string, { counts: { records: number } }>;
    };
    expect(summary.problems.filter((p) => p.code === 'prediction.duplicate')).toHaveLength(n);
    expect(summary.models['random-walk']!.counts.records).toBe(2 * n);
  });

  it('keeps saying how many other problems there are, apart from the repeats', async () => {
    const dir = temp('traversa-dupes-');
    const pred = resultsCopy({ 'again.jsonl': readFileSync(join(RESULTS, 'extra.jsonl'), 'utf8') });
    const r = await traversa('score', '--gt', gt, '--pred', pred, '--out', join(dir, 'scored'));
    expect(r.code).toBe(0);
    const [unlabelled, ...err] = lines(r.stderr);
    expect(unlabelled).toMatch(SWEEPER_UNLABELLED);
    expect(err[0]).toMatch(
      /^traversa: 2 predictions of model model-c were given twice \(same scene, question and agent; e\.g\. extra\.jsonl line 1 repeats again\.jsonl#line 1\); both are scored/,
    );
    expect(err[1]).toMatch(/^traversa: \d+ other problem\(s\) with the predictions; listed in /);
  });
});
