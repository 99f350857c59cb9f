import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { traversa } from '../support/cli.ts';
import { houseScene, releaseFiles, writeReleaseDir } from '../support/releaseBuilder.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

// Issue 27 §6: `score --shard i/N` on many machines, then `merge`, writes what one run writes.

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'traversa-shard-'));
  made.push(d);
  return d;
};

/** Five scenes; two models (a random walker, the oracle) and a loose file with a repeated prediction and one for a scene the release lacks. Made once: every test only reads it. */
let made_: Promise<{ gt: string; pred: string }> | undefined;
const fixture = () => (made_ ??= makeFixture());
async function makeFixture(): Promise<{ gt: string; pred: string }> {
  const gt = writeReleaseDir(releaseFiles(['A1', 'B2', 'C3', 'D4', 'E5'].map((s) => houseScene(`HM3D000${s}`))));
  made.push(gt);
  const pred = join(temp(), 'results');
  mkdirSync(pred);
  for (const [kind, file] of [
    ['random', 'walker.jsonl'],
    ['oracle', 'oracle.jsonl'],
  ] as const) {
    const r = await traversa('baseline', kind, '--gt', gt, '--out', join(pred, file), '--seed', '7');
    expect(r.code, r.stderr).toBe(0);
  }
  const first = readFileSync(join(pred, 'walker.jsonl'), 'utf8').split('\n')[3]!;
  appendFileSync(join(pred, 'walker.jsonl'), `${first}\n${first.replace(/"scene":"[^"]+"/, '"scene":"HM3D_GONE"')}\n`);
  return { gt, pred };
}

interface Run {
  code: number | null;
  stdout: string;
  files: Record<string, string>;
}
const outputs = (dir: string) => Object.fromEntries(['scored_per_record.jsonl', 'scored_summary.json'].map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

async function wholeAndSharded(gt: string, pred: string, n: number, flags: string[]): Promise<{ whole: Run; merged: Run; shardDirs: string[] }> {
  const dir = temp();
  const w = await traversa('score', '--gt', gt, '--pred', pred, '--out', join(dir, 'whole'), ...flags);
  expect(w.code, w.stderr).toBeLessThan(2);
  const shardDirs: string[] = [];
  for (let i = 0; i < n; i++) {
    const out = join(dir, `shard${i}`);
    const s = await traversa('score', '--gt', gt, '--pred', pred, '--out', out, '--shard', `${i}/${n}`, ...flags);
    expect(s.code, s.stderr).toBe(0); // a shard's failed judgements are the merged run's to report
    expect(s.stdout).toContain(`shard ${i}/${n}:`);
    shardDirs.push(out);
  }
  // Merged in any order: the order of the arguments is not the run's.
  const m = await traversa('merge', '--gt', gt, '--out', join(dir, 'merged'), ...shardDirs.slice().reverse(), ...flags.filter((f) => f === '--json'));
  expect(m.stderr).not.toContain('Error');
  return {
    whole: { code: w.code, stdout: w.stdout, files: outputs(join(dir, 'whole')) },
    merged: { code: m.code, stdout: m.stdout, files: outputs(join(dir, 'merged')) },
    shardDirs,
  };
}

describe('score in shards', { timeout: 180_000 }, () => {
  it('4 shards merged write what one run writes, byte for byte: records, summary with bootstrap intervals, problems, the printed table', async () => {
    const { gt, pred } = await fixture();
    const { whole, merged } = await wholeAndSharded(gt, pred, 4, ['--bootstrap', '200', '--seed', '3']);
    expect(merged).toEqual(whole);
    const summary = JSON.parse(whole.files['scored_summary.json']!);
    // The fixture reaches what the merge must order: two models, a repeat, an unmatched scene.
    expect(Object.keys(summary.models)).toEqual(['oracle', 'random-walk']);
    expect(summary.problems.map((p: { code: string }) => p.code)).toEqual(expect.arrayContaining(['prediction.duplicate', 'prediction.unmatched']));
    expect(summary.models['random-walk'].headline.ci.capnav).toHaveLength(2);
  });

  it('a judge that fails on some records (imported verdicts for one reason only): the same failures, in the same order, and the same exit', async () => {
    const { gt, pred } = await fixture();
    const verdicts = join(temp(), 'verdicts.json');
    writeFileSync(verdicts, JSON.stringify({ judge: 'review', verdicts: [{ reason: 'Stairs', notes: ['Stairs'], correct: true }] }));
    const { whole, merged } = await wholeAndSharded(gt, pred, 3, ['--verdicts', verdicts]);
    expect(merged).toEqual(whole);
    expect(whole.code).toBe(1);
    const summary = JSON.parse(whole.files['scored_summary.json']!);
    expect(summary.problems.filter((p: { code: string }) => p.code === 'judge.failed').length).toBeGreaterThan(5);
  });

  it('more shards than scenes, and no judge: the empty shards merge too', async () => {
    const { gt, pred } = await fixture();
    const { whole, merged } = await wholeAndSharded(gt, pred, 7, ['--judge', 'none', '--json']);
    expect(merged).toEqual(whole);
  });

  it('refuses what is not one whole run: a shard missing or given twice, other settings, another release, a bad --shard', async () => {
    const { gt, pred } = await fixture();
    const { shardDirs } = await wholeAndSharded(gt, pred, 3, []);
    const out = join(temp(), 'merged');
    const missing = await traversa('merge', '--gt', gt, '--out', out, shardDirs[0]!, shardDirs[2]!);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('shard 1/3 missing: every shard of the run is needed')]);
    const twice = await traversa('merge', '--gt', gt, '--out', out, shardDirs[0]!, shardDirs[1]!, shardDirs[1]!);
    expect(twice.stderr).toContain('are both shard 1/3');
    const other = join(temp(), 'other');
    expect((await traversa('score', '--gt', gt, '--pred', pred, '--out', other, '--shard', '1/3', '--weights', '1,1,1,0')).code).toBe(0);
    const mixed = await traversa('merge', '--gt', gt, '--out', out, shardDirs[0]!, other, shardDirs[2]!);
    expect([mixed.code, mixed.stderr]).toEqual([1, expect.stringMatching(/are shards of different runs \(they differ in settings\)/)]);
    const elsewhere = writeReleaseDir(releaseFiles([houseScene('HM3D000A1')]));
    made.push(elsewhere);
    const wrongGt = await traversa('merge', '--gt', elsewhere, '--out', out, ...shardDirs);
    expect(wrongGt.stderr).toContain('is not the release the shards scored');
    for (const bad of ['3/3', '1', '-1/3', '0/0']) {
      const r = await traversa('score', '--gt', gt, '--pred', pred, '--out', out, '--shard', bad);
      expect([r.code, r.stderr], bad).toEqual([2, expect.stringContaining('--shard')]);
    }
    const compat = await traversa('score', '--gt', gt, '--pred', pred, '--out', out, '--shard', '0/2', '--compat', 'reference');
    expect([compat.code, compat.stderr]).toEqual([2, expect.stringContaining('--compat reference) runs whole')]);
    const notShard = await traversa('merge', '--gt', gt, '--out', out, join(pred, 'walker.jsonl'));
    expect([notShard.code, notShard.stderr]).toEqual([1, expect.stringContaining('not JSON')]);
  });

  it.skipIf(!sharedAvailable(CAPNAV_DIR, 'sharded scoring of the shared CapNav release'))(
    'on the shared release (30 scenes), a random-walk model: 4 shards merged equal one run',
    async () => {
      const pred = join(temp(), 'results');
      mkdirSync(pred);
      expect((await traversa('baseline', 'random', '--gt', CAPNAV_DIR, '--out', join(pred, 'walker.jsonl'), '--seed', '11')).code).toBe(0);
      const { whole, merged } = await wholeAndSharded(CAPNAV_DIR, pred, 4, ['--bootstrap', '100']);
      expect(merged).toEqual(whole);
      expect(whole.files['scored_per_record.jsonl']!.split('\n').length).toBeGreaterThan(1000);
    },
  );
});
