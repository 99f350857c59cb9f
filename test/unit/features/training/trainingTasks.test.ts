import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readJsonFiles } from '../../../../src/cli/files.ts';
import { emptyProject, type Project } from '../../../../src/core/project.ts';
import { augment, tasksJsonlPieces } from '../../../../src/core/research/augment.ts';
import { planSplits, splitOutput } from '../../../../src/core/research/split.ts';
import { TrainingTasks } from '../../../../src/features/training/app/trainingTasks.ts';
import { notReady, unlabelledAgents } from '../../../../src/features/training/state/readiness.ts';
import {
  augmentCommandLine,
  initialTraining,
  isCurrent,
  setTraining,
  splitSettings,
  trainingOptions,
} from '../../../../src/features/training/state/training.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { replaceDocument } from '../../../../src/state/history.ts';
import { createStudioStore, type StudioStore } from '../../../../src/state/store.ts';
import { REPO } from '../../../support/cli.ts';

// The Training view's controller on a real store (issue 27 §1 in the studio): the tasks it makes
// a scene and agent at a time are augment's; its downloads are the bytes `cli augment` and `cli
// split` write; what cannot run says why.

const SAMPLE = readRelease(readJsonFiles(join(REPO, 'scenes/sample-house'))).project!;
const AGENTS = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'];

function studio(project: Project | null = SAMPLE) {
  const store = createStudioStore();
  if (project) replaceDocument(store, project);
  store.setState((s) => ({ workspace: { ...s.workspace, projectId: 'p1' } }));
  const told: string[] = [];
  return { store, told, training: new TrainingTasks(store, (m) => void told.push(m), 0) };
}

const downloads: { name: string; type: string }[] = [];
const blobs: Blob[] = [];
/** The bytes of the i-th download. */
const bytesOf = async (i: number) => new Uint8Array(await blobs[i]!.arrayBuffer());
beforeEach(() => {
  downloads.length = 0;
  blobs.length = 0;
  // A download as the studio makes one (an anchor clicked), recorded with its blob.
  vi.stubGlobal('document', {
    createElement: () => ({ click() {}, remove() {} }),
    body: { append: (a: { download: string; href: string }) => void downloads.push({ name: a.download, type: blobs[Number(a.href.slice(5))]!.type }) },
  });
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b: Blob | MediaSource) => `blob:${blobs.push(b as Blob) - 1}`);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const generated = async (store: StudioStore, training: TrainingTasks) => {
  await training.generate();
  const r = store.getState().training.result;
  expect(store.getState().training.status).toEqual({ state: 'idle' });
  return r!;
};

describe('the Training view makes tasks', () => {
  it('as augment does for the same options, with its summary, and the command line that writes them', async () => {
    const { store, training } = studio();
    setTraining(store, { budget: '6', seed: '2', balance: ['obstacles', 'answers'] });
    const r = await generated(store, training);
    const options = { seed: 2, budget: 6, balance: { answers: true, obstacles: true } };
    const expected = augment(SAMPLE, options);
    expect(r.tasks).toEqual(expected.tasks);
    expect(r.summary).toEqual(expected.summary);
    expect(r.options).toEqual(options);
    expect(r.agents).toEqual(AGENTS);
    expect(isCurrent(r, store.getState().document.project)).toBe(true);
    expect(augmentCommandLine(r.options, 'scenes/sample-house')).toBe(
      'npm run -s cli -- augment scenes/sample-house --out tasks.jsonl --budget 6 --seed 2 --balance answers,obstacles',
    );
  });

  it('for the agents chosen; every agent is augment’s default (no --agents)', async () => {
    const { store, training } = studio();
    setTraining(store, { agents: ['SWEEPER', 'WHEELCHAIR'] });
    const r = await generated(store, training);
    expect(r.agents).toEqual(['WHEELCHAIR', 'SWEEPER']);
    expect(r.tasks).toEqual(augment(SAMPLE, { agents: ['WHEELCHAIR', 'SWEEPER'] }).tasks);
    expect(augmentCommandLine(r.options)).toBe('npm run -s cli -- augment <release-dir> --out tasks.jsonl --agents WHEELCHAIR,SWEEPER --seed 1');
    expect(trainingOptions({ ...initialTraining(), agents: [...AGENTS] }, AGENTS)).toEqual({ options: { seed: 1 }, agents: AGENTS });
  });

  it('downloads tasks.jsonl byte for byte as the command line writes it, and the split as `cli split` writes it', async () => {
    const { store, training } = studio();
    setTraining(store, { budget: '5', balance: ['answers'] });
    const r = await generated(store, training);
    await training.downloadTasks();
    expect(downloads.map((d) => [d.name, d.type])).toEqual([['CapNav-release-tasks.jsonl', 'application/x-ndjson']]);
    expect(new TextDecoder().decode(await bytesOf(0))).toBe([...tasksJsonlPieces(augment(SAMPLE, r.options).tasks)].join(''));
    setTraining(store, { split: { train: '0.7', val: '0.3', test: '0', seed: '4' } });
    await training.downloadSplit();
    const zip = unzipSync(await bytesOf(1));
    const expected = splitOutput(r.tasks, planSplits(r.tasks, { train: 0.7, val: 0.3, test: 0 }, 4), 'tasks.jsonl').files;
    expect(Object.fromEntries(Object.entries(zip).map(([k, v]) => [k, strFromU8(v)]))).toEqual(Object.fromEntries(expected.map((f) => [f.path, f.text])));
  });

  it('says when the project changed since, and downloads what is shown', async () => {
    const { store, training, told } = studio();
    const r = await generated(store, training);
    const p = store.getState().document.project!;
    replaceDocument(store, { ...p, scenes: p.scenes.map((s) => ({ ...s, labels: {} })) });
    expect(isCurrent(r, store.getState().document.project)).toBe(false);
    await training.downloadTasks();
    expect(told).toEqual([expect.stringContaining('generate again')]);
    expect(new TextDecoder().decode(await bytesOf(0)).split('\n').length - 1).toBe(r.tasks.length);
  });

  it('refuses what cannot run, and says why', async () => {
    const { store, training, told } = studio();
    await training.downloadTasks();
    expect([downloads.length, told]).toEqual([0, ['Nothing to download: generate the tasks first.']]);
    setTraining(store, { budget: '2.5' });
    await training.generate();
    expect(store.getState().training.status).toEqual({
      state: 'error',
      message: 'The budget must be a whole number above 0 (or empty for every pair), not “2.5”.',
    });
    setTraining(store, { budget: '', agents: [] });
    expect(trainingOptions(store.getState().training, AGENTS)).toEqual({ error: 'Choose at least one agent.' });
    expect(trainingOptions({ ...initialTraining(), seed: 'x' }, AGENTS)).toEqual({ error: 'The seed must be a whole number, not “x”.' });
    expect(splitSettings({ train: '0', val: '0', test: '0', seed: '1' })).toHaveProperty('error');
    expect(splitSettings({ train: '0.8', val: '-1', test: '0', seed: '1' })).toHaveProperty('error');
    expect(splitSettings({ train: '8', val: '1', test: '1', seed: '' })).toEqual({ ratios: { train: 8, val: 1, test: 1 }, seed: 1 });
    const empty = studio(null);
    await empty.training.generate();
    expect(empty.store.getState().training.status).toEqual({ state: 'error', message: 'Open a project with scenes first.' });
  });

  it('cancelled, keeps the tasks of the run before', async () => {
    // Eight copies of the house, and a pause before every scene × agent (slices of 0 ms): a run to cancel whatever the machine's speed.
    const big = { ...SAMPLE, scenes: Array.from({ length: 8 }, (_, i) => ({ ...SAMPLE.scenes[0]!, id: `house-${i}` })) };
    const { store, training } = studio(big);
    setTraining(store, { budget: '3' });
    const before = await generated(store, training);
    expect(before.summary.scenes).toBe(8);
    setTraining(store, { budget: '4' });
    const run = training.generate();
    expect(store.getState().training.status.state).toBe('running');
    training.cancel();
    await run;
    expect(store.getState().training.status).toEqual({ state: 'idle', message: expect.stringContaining('Cancelled') });
    expect(store.getState().training.result).toBe(before);
  });
});

describe('what the view says before there is anything to make', () => {
  it('no project, no scene, no graph, no label; agents without labels', () => {
    expect(notReady(null)?.text).toMatch(/^Open a project first/);
    expect(notReady(emptyProject())?.text).toMatch(/no scenes yet/);
    const unlabelled = { ...SAMPLE, scenes: SAMPLE.scenes.map((s) => ({ ...s, labels: {} })) };
    expect(notReady(unlabelled)).toEqual({ missing: 'labels', text: expect.stringContaining('Label some segments first') });
    const oneNode = { ...unlabelled, scenes: unlabelled.scenes.map((s) => ({ ...s, graph: { nodes: s.graph.nodes.slice(0, 1), edges: [] } })) };
    expect(notReady(oneNode)?.missing).toBe('graph');
    expect(notReady(SAMPLE)).toBeNull();
    const noSweeper = { ...SAMPLE, scenes: SAMPLE.scenes.map((s) => ({ ...s, labels: { ...s.labels, SWEEPER: {} } })) };
    expect(unlabelledAgents(noSweeper, AGENTS)).toEqual(['SWEEPER']);
  });
});
