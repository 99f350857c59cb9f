import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFiles } from '../../src/cli/files.ts';
import type { AugmentedTask } from '../../src/core/research/augment.ts';
import { readTrainingLine, targetOf, type TrainingFormat } from '../../src/core/research/trainingExport.ts';
import { adjacency } from '../../src/core/graph.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { REPO, traversa } from '../support/cli.ts';
import { writeFrameSet } from '../support/frameSets.ts';

// Issue 27 §3: augment's tasks as fine-tuning data in both layouts trainers read. Each line is read
// back as a loader would: the frames it cites exist in the export, in the prompt's places; the reply
// is the runner's JSON answer with the labels' answer; a held-out scene is refused before writing.

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'traversa-train-'));
  made.push(d);
  return d;
};

/** The sample house as a release with a 16-frame set, and its tasks (augment, 6 per agent). */
async function setUp() {
  const release = join(temp(), 'release');
  cpSync(join(REPO, 'scenes/sample-house'), release, { recursive: true });
  writeFrameSet(release, 'sample-house', '16', 16);
  const tasksFile = join(temp(), 'tasks.jsonl');
  const aug = await traversa('augment', release, '--out', tasksFile, '--budget', '6', '--balance', 'answers');
  expect(aug.code, aug.stderr).toBe(0);
  const tasks = readFileSync(tasksFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AugmentedTask);
  return { release, tasksFile, tasks, project: readRelease(readJsonFiles(release)).project! };
}

describe('training exports', () => {
  for (const format of ['openai', 'sharegpt'] as TrainingFormat[]) {
    it(`${format}: every line reads back to its task, the labels' answer and 16 frames that exist in the export`, async () => {
      const { release, tasksFile, tasks, project } = await setUp();
      const out = temp();
      const r = await traversa('train-export', tasksFile, '--gt', release, '--frames', '16', '--format', format, '--out', out);
      expect(r.code, r.stderr).toBe(0);
      const lines = readFileSync(join(out, 'train.jsonl'), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(tasks.length);
      const scene = project.scenes[0]!;
      const adj = adjacency(scene.graph);
      for (const [i, line] of lines.entries()) {
        const back = readTrainingLine(line, format);
        const task = tasks[i]!;
        expect([back.task, back.scene, back.agent]).toEqual([task.id, task.scene, task.agent]);
        expect(back.target).toEqual(targetOf(scene, task));
        expect(back.target.answer).toBe(task.feasible ? 'yes' : 'no');
        // The route in the reply is a route on the graph from the start to the end; a "no" says why.
        const p = back.target.path;
        expect([p[0], p.at(-1)]).toEqual([task.start.id, task.end.id]);
        expect(p.every((n, k) => k === 0 || adj.get(p[k - 1]!)!.includes(n))).toBe(true);
        if (!task.feasible) expect(back.target.reason).not.toBe('');
        expect(back.images).toHaveLength(16);
        for (const img of back.images) expect(existsSync(join(out, img)), img).toBe(true);
        expect(back.prompt).toContain(task.question.replace('[Agent]', task.agent));
      }
    }, 60_000);
  }

  it('--frames video: each line refers to the touring video (a video_url part; a <video> token and "videos"), copied into the export; a file that is not a video is refused', async () => {
    const { release, tasksFile, tasks } = await setUp();
    mkdirSync(join(release, 'videos'));
    // The smallest MP4 a player takes: an ftyp box and a moov box.
    const box = (type: string, body: number[]) => [0, 0, 0, 8 + body.length, ...Buffer.from(type), ...body];
    const mp4 = Buffer.from([...box('ftyp', [...Buffer.from('isom'), 0, 0, 2, 0]), ...box('moov', [])]);
    writeFileSync(join(release, 'videos', 'sample-house.mp4'), mp4);
    for (const format of ['openai', 'sharegpt'] as TrainingFormat[]) {
      const out = temp();
      const r = await traversa('train-export', tasksFile, '--gt', release, '--frames', 'video', '--format', format, '--out', out);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('with 1 touring video');
      const lines = readFileSync(join(out, 'train.jsonl'), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(tasks.length);
      for (const line of lines) {
        const back = readTrainingLine(line, format);
        expect([back.images, back.videos]).toEqual([[], ['videos/sample-house.mp4']]);
        expect(back.prompt).not.toContain('frames sampled');
      }
      if (format === 'sharegpt') expect(JSON.parse(lines[0]!).conversations[0].value).toContain('\n<video>\n');
      expect(readFileSync(join(out, 'videos', 'sample-house.mp4'))).toEqual(mp4);
    }
    writeFileSync(join(release, 'videos', 'sample-house.mp4'), '<html>not found</html>');
    const bad = await traversa('train-export', tasksFile, '--gt', release, '--frames', 'video', '--format', 'openai', '--out', temp());
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('sample-house.mp4 is not an MP4 video')]);
  }, 60_000);

  it('with the split manifest: a task of a held-out scene is refused and nothing is written; a training scene passes', async () => {
    const { release, tasksFile } = await setUp();
    const manifest = (test: string[], train: string[]) => {
      const m = join(temp(), 'manifest.json');
      writeFileSync(m, JSON.stringify({ splits: { train: { scenes: train }, val: { scenes: [] }, test: { scenes: test } } }));
      return m;
    };
    const out = temp();
    const exportWith = (m: string) =>
      traversa('train-export', tasksFile, '--gt', release, '--frames', '16', '--format', 'openai', '--out', out, '--manifest', m);
    const refused = await exportWith(manifest(['sample-house'], []));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('names sample-house, a scene held out from training');
    expect(existsSync(join(out, 'train.jsonl'))).toBe(false);
    const ok = await exportWith(manifest([], ['sample-house']));
    expect(ok.code, ok.stderr).toBe(0);
  }, 60_000);

  it('a tasks file with a line that is not a task is refused at that line (blank lines counted), for split as for train-export', async () => {
    const { release, tasksFile } = await setUp();
    const bad = join(temp(), 'bad.jsonl');
    writeFileSync(bad, `${readFileSync(tasksFile, 'utf8').split('\n')[0]}\n\n{"scene": "sample-house"}\n`);
    const exported = await traversa('train-export', bad, '--gt', release, '--frames', '16', '--format', 'openai', '--out', temp());
    const split = await traversa('split', bad, '--out', temp());
    for (const r of [exported, split]) {
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`traversa: ${bad} line 3: not a task of augment (it needs scene, agent, start, end and feasible)`);
    }
  }, 60_000);
});
