import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonFiles } from '../../../../src/cli/files.ts';
import type { AgentName } from '../../../../src/core/agents.ts';
import { append } from '../../../../src/core/arrays.ts';
import {
  augment,
  augmentAgents,
  augmentOptionsOf,
  augmentScene,
  summariseTasks,
  taskLine,
  tasksJsonlPieces,
  type AugmentedTask,
} from '../../../../src/core/research/augment.ts';
import { planSplits, splitOutput, type SplitManifest } from '../../../../src/core/research/split.ts';
import { obstaclesOf } from '../../../../src/core/research/augment.ts';
import { exampleTasks, taskDistribution } from '../../../../src/core/research/taskDistribution.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { REPO } from '../../../support/cli.ts';

// What the studio's Training view adds to augment (issue 27 §1): going scene by scene and agent by
// agent gives augment's own tasks; the file is the same lines however it is cut; the distribution
// adds up to augment's summary; the split's files are what `cli split` writes.

const project = readRelease(readJsonFiles(join(REPO, 'scenes/sample-house'))).project!;
const OPTIONS = [{}, { budget: 6, seed: 3, balance: { answers: true, obstacles: true } }, { agents: ['SWEEPER', 'WHEELCHAIR'], budget: 4 }];

describe('augment a scene and an agent at a time', () => {
  for (const options of OPTIONS)
    it(`gives augment's tasks, in its order, and its summary (${JSON.stringify(options)})`, () => {
      const whole = augment(project, options);
      const tasks: AugmentedTask[] = [];
      let unconnected = 0;
      for (const scene of project.scenes)
        for (const agent of augmentAgents(project, options)) {
          const made = augmentScene(scene, [agent], options);
          unconnected += made.unconnected;
          append(tasks, made.tasks);
        }
      expect(tasks).toEqual(whole.tasks);
      expect(summariseTasks(tasks, project.scenes.length, unconnected)).toEqual(whole.summary);
    });
});

describe('the options as the command line and the studio give them', () => {
  it('leave out what is not asked for; an empty balance is no balance (it would interleave the answers)', () => {
    expect(augmentOptionsOf({ agents: [], balance: [] })).toEqual({ seed: 1 });
    expect(augmentOptionsOf({ agents: ['HUMAN'], budget: 5, seed: 2, balance: ['obstacles'] })).toEqual({
      agents: ['HUMAN'],
      budget: 5,
      seed: 2,
      balance: { answers: false, obstacles: true },
    });
    const { tasks } = augment(project, { budget: 3 });
    expect(augment(project, augmentOptionsOf({ agents: [], budget: 3, balance: [] })).tasks).toEqual(tasks);
    expect(augment(project, { budget: 3, seed: 1, balance: {} }).tasks).not.toEqual(tasks);
  });
});

describe('tasks.jsonl', () => {
  it('is one JSON line per task, the same however it is cut into pieces', () => {
    const { tasks } = augment(project);
    const whole = tasks.map((t) => JSON.stringify(t) + '\n').join('');
    expect([...tasksJsonlPieces(tasks)].join('')).toBe(whole);
    expect([...tasksJsonlPieces(tasks, 7)].join('')).toBe(whole);
    expect([...tasksJsonlPieces(tasks, 7)]).toHaveLength(Math.ceil(tasks.length / 7));
    expect(whole.split('\n')[0]).toBe(taskLine(tasks[0]!).trimEnd());
    expect([...tasksJsonlPieces([])]).toEqual([]);
  });
});

describe('the distribution of a run', () => {
  const { tasks, summary } = augment(project, { budget: 8, balance: { obstacles: true } });
  const agents = augmentAgents(project) as string[];
  const d = taskDistribution(tasks, agents);

  it('adds up to the summary: per agent its answers, and the obstacles over the agents', () => {
    expect(d.agents.map((a) => a.agent)).toEqual(agents);
    for (const a of d.agents) {
      const s = summary.byAgent[a.agent] ?? { tasks: 0, feasible: 0, infeasible: 0 };
      expect([a.tasks, a.yes, a.no]).toEqual([s.tasks, s.feasible, s.infeasible]);
    }
    const obstacles: Record<string, number> = {};
    for (const a of d.agents) for (const [k, n] of Object.entries(a.obstacles)) obstacles[k] = (obstacles[k] ?? 0) + n;
    expect(obstacles).toEqual(summary.byObstacle);
    expect(new Set(d.obstacles)).toEqual(new Set(Object.keys(summary.byObstacle)));
    const counts = d.obstacles.map((o) => summary.byObstacle[o]!);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(d.scenes).toEqual([
      { scene: 'sample-house', tasks: summary.tasks, yes: tasks.filter((t) => t.feasible).length, no: tasks.filter((t) => !t.feasible).length },
    ]);
  });

  it('keeps a row for an agent left without tasks', () => {
    const balanced = augment(project, { balance: { answers: true } });
    const none = agents.find((a) => !balanced.tasks.some((t) => t.agent === a));
    expect(none, 'an agent for whom every pair is feasible (or none is)').toBeDefined();
    expect(taskDistribution(balanced.tasks, agents).agents.find((a) => a.agent === none)).toEqual({ agent: none, tasks: 0, yes: 0, no: 0, obstacles: {} });
  });

  it('counts a "no" no labelled obstacle blocks as unlabelled', () => {
    const t = tasks.find((x) => !x.feasible)!;
    expect(obstaclesOf({ ...t, blocking: { categories: [], segments: [] } })).toEqual(['unlabelled']);
  });

  it('examples: a yes then a no per agent, a labelled obstacle rather than a missing label, at most n', () => {
    const ex = exampleTasks(tasks, 100);
    const perAgent = new Map<AgentName, AugmentedTask[]>();
    for (const t of ex) perAgent.set(t.agent, [...(perAgent.get(t.agent) ?? []), t]);
    for (const [agent, list] of perAgent) {
      expect(list.length, agent).toBeLessThanOrEqual(2);
      if (list.length === 2) expect([list[0]!.feasible, list[1]!.feasible]).toEqual([true, false]);
      const no = list.find((t) => !t.feasible);
      if (no && tasks.some((t) => t.agent === agent && !t.feasible && t.blocking?.categories.length)) expect(no.blocking!.categories.length).toBeGreaterThan(0);
    }
    expect(exampleTasks(tasks, 3)).toEqual(ex.slice(0, 3));
  });
});

describe('the files of a split', () => {
  it('are the lines of each split and a manifest with their bytes and SHA-256', () => {
    const { tasks } = augment(project);
    const two = [...tasks, ...tasks.map((t) => ({ ...t, scene: 'other-house', id: t.id.replace('sample-house', 'other-house') }))];
    const plan = planSplits(two, { train: 0.5, val: 0.5, test: 0 }, 2);
    const { files, manifest } = splitOutput(two, plan, 'tasks.jsonl');
    expect(files.map((f) => f.path)).toEqual(['train.jsonl', 'val.jsonl', 'test.jsonl', 'manifest.json']);
    for (const f of files.slice(0, 3)) {
      const k = f.path.replace('.jsonl', '') as 'train' | 'val' | 'test';
      expect(f.text).toBe(
        two
          .filter((t) => plan.sceneSplit[t.scene] === k)
          .map(taskLine)
          .join(''),
      );
      expect(manifest.files[k]).toEqual({ path: f.path, bytes: Buffer.byteLength(f.text), sha256: createHash('sha256').update(f.text).digest('hex') });
    }
    expect(JSON.parse(files[3]!.text) as SplitManifest).toEqual(manifest);
    expect(manifest.source).toBe('tasks.jsonl');
  });
});
