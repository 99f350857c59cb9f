import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFiles } from '../../src/cli/files.ts';
import type { AugmentedTask } from '../../src/core/research/augment.ts';
import type { Project } from '../../src/core/project.ts';
import { groundTruth } from '../../src/core/scoring/paper/groundTruth.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { REPO, traversa } from '../support/cli.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

// Issue 27 §1: `traversa augment` turns a labelled release into training tasks. Every answer is
// recomputed here from the labels alone, independently of the code that wrote it: a feasible task's
// route is walked hop by hop over traversable labels; an infeasible task's end must be out of reach
// over them; where the pair is a release question, the scorer's ground truth must agree.

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

async function augmentOf(release: string, ...flags: string[]): Promise<{ tasks: AugmentedTask[]; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'traversa-augment-'));
  made.push(dir);
  const r = await traversa('augment', release, '--out', join(dir, 'tasks.jsonl'), ...flags);
  expect(r.code, r.stderr).toBe(0);
  const lines = readFileSync(join(dir, 'tasks.jsonl'), 'utf8').trim().split('\n');
  return { tasks: lines.map((l) => JSON.parse(l) as AugmentedTask), stdout: r.stdout };
}

/** Whether the agent may walk u → v: that direction's label, else the reverse one's (a missing label: no). */
function walkable(project: Project, scene: string, agent: string, u: string, v: string): boolean {
  const table = project.scenes.find((s) => s.id === scene)!.labels[agent] ?? {};
  return (table[`${u}|${v}`] ?? table[`${v}|${u}`])?.traversable === true;
}

/** Recompute each task's answer from the labels: the problems found (empty when every answer holds). */
function check(project: Project, tasks: readonly AugmentedTask[]): string[] {
  const wrong: string[] = [];
  const gt = groundTruth(project);
  for (const t of tasks) {
    const scene = project.scenes.find((s) => s.id === t.scene)!;
    const edges = new Set(scene.graph.edges.flatMap((e) => [`${e.from}|${e.to}`, `${e.to}|${e.from}`]));
    if (t.feasible) {
      const r = t.route ?? [];
      const ok =
        r[0] === t.start.id &&
        r.at(-1) === t.end.id &&
        r.every((n, i) => i === 0 || (edges.has(`${r[i - 1]}|${n}`) && walkable(project, t.scene, t.agent, r[i - 1]!, n)));
      if (!ok) wrong.push(`${t.id}: the route ${r.join(' → ')} is not walkable`);
    } else {
      // Out of reach: a breadth-first walk over traversable hops from the start never meets the end.
      const seen = new Set([t.start.id]);
      const queue = [t.start.id];
      for (let i = 0; i < queue.length; i++)
        for (const e of scene.graph.edges) {
          const [a, b] = e.from === queue[i] ? [e.from, e.to] : e.to === queue[i] ? [e.to, e.from] : [null, null];
          if (a && b && !seen.has(b) && walkable(project, t.scene, t.agent, a, b)) {
            seen.add(b);
            queue.push(b);
          }
        }
      if (seen.has(t.end.id)) wrong.push(`${t.id}: said infeasible, but the end is reachable`);
      if (!t.blocking?.segments.length) wrong.push(`${t.id}: infeasible without a blocking segment`);
      for (const s of t.blocking?.segments ?? []) {
        const [u, v] = s.segment.split('|') as [string, string];
        if (walkable(project, t.scene, t.agent, u, v)) wrong.push(`${t.id}: ${s.segment} is traversable, yet named as blocking`);
      }
    }
    if (t.provenance.releaseQuestion !== null) {
      const st = gt.scene(t.scene)!;
      const q = st.findQuestion(scene.questions[t.provenance.releaseQuestion]!.text, t.agent, t.provenance.releaseQuestion)!;
      if (!q.hallucinated && q.src === t.start.id && q.tgt === t.end.id && st.agentTruth(q, t.agent).feasible !== t.feasible)
        wrong.push(`${t.id}: the scorer's ground truth for release question ${q.index} says ${!t.feasible}`);
    }
  }
  return wrong;
}

describe('task augmentation on the graph', () => {
  it('on the sample house: every answer holds, the wheelchair cannot take the stairs, and the summary counts what was written', async () => {
    const release = join(REPO, 'scenes/sample-house');
    const project = readRelease(readJsonFiles(release)).project!;
    const { tasks, stdout } = await augmentOf(release);
    const scene = project.scenes[0]!;
    const n = scene.graph.nodes.length;
    expect(tasks).toHaveLength(n * (n - 1) * project.profiles.length);
    expect(check(project, tasks)).toEqual([]);
    const up = tasks.filter((t) => t.agent === 'WHEELCHAIR' && !t.feasible && t.blocking!.categories.includes('stairs'));
    expect(up.length).toBeGreaterThan(0);
    expect(stdout).toContain(`${tasks.length} tasks from 1 scene written to`);
    // The question is CapNav's, in the node names the graph gives.
    expect(tasks[0]!.question).toBe(`Can [Agent] move from the ${tasks[0]!.start.name} to the ${tasks[0]!.end.name}?`);
  });

  it('a budget with balanced answers: as many yes as no per scene and agent, the same sample for the same seed, another for another', async () => {
    const release = join(REPO, 'scenes/sample-house');
    const a = await augmentOf(release, '--budget', '10', '--balance', 'answers', '--seed', '7');
    const b = await augmentOf(release, '--budget', '10', '--balance', 'answers', '--seed', '7');
    const c = await augmentOf(release, '--budget', '10', '--balance', 'answers', '--seed', '8');
    expect(a.tasks).toEqual(b.tasks);
    expect(a.tasks.map((t) => t.id)).not.toEqual(c.tasks.map((t) => t.id));
    for (const agent of new Set(a.tasks.map((t) => t.agent))) {
      const mine = a.tasks.filter((t) => t.agent === agent);
      expect(mine.length).toBeLessThanOrEqual(10);
      expect(mine.filter((t) => t.feasible).length, agent).toBe(mine.filter((t) => !t.feasible).length);
    }
  });

  it.skipIf(!sharedAvailable(CAPNAV_DIR, 'augmenting the shared CapNav release'))(
    'on the shared release (30 scenes): every answer recomputed from the labels holds, and agrees with the scorer on the release questions',
    async () => {
      const project = readRelease(readJsonFiles(CAPNAV_DIR)).project!;
      const { tasks, stdout } = await augmentOf(CAPNAV_DIR);
      expect(check(project, tasks)).toEqual([]);
      // Every release question with a start and an end in the graph is among the tasks, for each agent.
      const asked = tasks.filter((t) => t.provenance.releaseQuestion !== null).length;
      expect(asked).toBeGreaterThan(project.scenes.length * project.profiles.length);
      expect(stdout).toMatch(/^\d+ tasks from 30 scenes written to/);
    },
    120_000,
  );
});
