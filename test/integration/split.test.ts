import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFiles } from '../../src/cli/files.ts';
import type { SplitManifest } from '../../src/cli/split.ts';
import type { AugmentedTask } from '../../src/core/research/augment.ts';
import { readTrainingLine, targetOf } from '../../src/core/research/trainingExport.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { traversa } from '../support/cli.ts';
import { writeFrameSet } from '../support/frameSets.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

// Issue 27 §2: augment's tasks split by scene with a manifest; the leakage check refuses training
// data that names a held-out scene, and passes the training split itself, and its export (§3).

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!sharedAvailable(CAPNAV_DIR, 'splitting the shared CapNav release'))('splits of the shared release', () => {
  it('every task in one split by its scene, the manifest’s checksums those of the files, and the leakage check passing train and refusing a test scene', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'traversa-split-'));
    made.push(dir);
    expect((await traversa('augment', CAPNAV_DIR, '--out', join(dir, 'tasks.jsonl'))).code).toBe(0);
    const split = await traversa('split', join(dir, 'tasks.jsonl'), '--out', join(dir, 'split'), '--seed', '2');
    expect(split.code, split.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'split', 'manifest.json'), 'utf8')) as SplitManifest;
    const lines = (k: string) =>
      readFileSync(join(dir, 'split', `${k}.jsonl`), 'utf8')
        .trim()
        .split('\n');
    const all = readFileSync(join(dir, 'tasks.jsonl'), 'utf8').trim().split('\n');
    const parts = (['train', 'val', 'test'] as const).map((k) => lines(k));
    expect(parts.flat().sort()).toEqual([...all].sort());
    for (const [i, k] of (['train', 'val', 'test'] as const).entries()) {
      const scenes = new Set(parts[i]!.map((l) => (JSON.parse(l) as { scene: string }).scene));
      expect([...scenes].sort(), k).toEqual(manifest.splits[k].scenes);
      const bytes = readFileSync(join(dir, 'split', manifest.files[k].path));
      expect(createHash('sha256').update(bytes).digest('hex'), k).toBe(manifest.files[k].sha256);
    }
    const train = await traversa('leakage', join(dir, 'split', 'manifest.json'), join(dir, 'split', 'train.jsonl'));
    expect([train.code, train.stdout]).toEqual([0, expect.stringMatching(/^no held-out scene \(\d+\) is named in/)]);
    // A training file with one test task slipped in, and a frame path of a validation scene.
    const leaky = join(dir, 'leaky.jsonl');
    const testScene = manifest.splits.test.scenes[0]!;
    writeFileSync(leaky, [lines('train')[0], lines('test')[0], `{"image":"frames/${manifest.splits.val.scenes[0]}/16f/0001.jpg"}`].join('\n'));
    const refused = await traversa('leakage', join(dir, 'split', 'manifest.json'), leaky);
    expect(refused.code).toBe(1);
    expect(refused.stdout.trim().split('\n')).toEqual([
      `${leaky} line 2: names ${testScene}, a scene held out from training`,
      `${leaky} line 3: names ${manifest.splits.val.scenes[0]}, a scene held out from training`,
      '2 places name held-out scenes: not for training',
    ]);
  }, 120_000);

  it("a training export of the train split: passes the leakage check, every line reads back to its task with the labels' answer, every frame it cites is in the export; the test split is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'traversa-split-export-'));
    made.push(dir);
    // The shared release has no tours: the same release with a 16-frame set for every scene.
    const release = join(dir, 'release');
    cpSync(CAPNAV_DIR, release, { recursive: true });
    const project = readRelease(readJsonFiles(release)).project!;
    for (const scene of project.scenes) writeFrameSet(release, scene.id, '16', 16);
    expect((await traversa('augment', release, '--out', join(dir, 'tasks.jsonl'), '--budget', '12', '--balance', 'answers')).code).toBe(0);
    expect((await traversa('split', join(dir, 'tasks.jsonl'), '--out', join(dir, 'split'), '--seed', '4')).code).toBe(0);
    const manifest = join(dir, 'split', 'manifest.json');
    const exported = (split: string, out: string) =>
      traversa(
        'train-export',
        join(dir, 'split', `${split}.jsonl`),
        '--gt',
        release,
        '--frames',
        '16',
        '--format',
        'sharegpt',
        '--out',
        out,
        '--manifest',
        manifest,
      );
    const out = join(dir, 'export');
    const r = await exported('train', out);
    expect(r.code, r.stderr).toBe(0);
    expect((await traversa('leakage', manifest, out)).code).toBe(0);
    const scenes = new Map(project.scenes.map((s) => [s.id, s]));
    const tasks = readFileSync(join(dir, 'split', 'train.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AugmentedTask);
    const lines = readFileSync(join(out, 'train.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(tasks.length);
    expect(tasks.length).toBeGreaterThan(1000);
    for (const [i, line] of lines.entries()) {
      const back = readTrainingLine(line, 'sharegpt');
      const task = tasks[i]!;
      expect([back.task, back.scene, back.agent]).toEqual([task.id, task.scene, task.agent]);
      expect(back.target).toEqual(targetOf(scenes.get(task.scene)!, task));
      expect(back.target.answer).toBe(task.feasible ? 'yes' : 'no');
      expect(back.images).toHaveLength(16);
    }
    for (const img of new Set(lines.flatMap((l) => readTrainingLine(l, 'sharegpt').images))) expect(existsSync(join(out, img)), img).toBe(true);
    const refused = await exported('test', join(dir, 'test-export'));
    expect([refused.code, existsSync(join(dir, 'test-export', 'train.jsonl'))]).toEqual([1, false]);
  }, 180_000);
});
