import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { houseScene, Q, rawQuestion, releaseFiles, writeReleaseDir, type SceneSpec } from '../support/releaseBuilder.ts';
import { traversa } from '../support/cli.ts';

const made: string[] = [];

function release(...scenes: SceneSpec[]): string {
  const dir = writeReleaseDir(releaseFiles(scenes));
  made.push(dir);
  return dir;
}

/** The house with one question whose end names no room. */
function houseWithTypo() {
  const house = houseScene();
  house.qa.push(rawQuestion(Q.kitchenToTypo, 'Kitchen', 'Secondd floor bedroom00'));
  return house;
}

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const AGENT_KEYS = ['edge_traversable_ratio', 'feasible_task_ratio', 'feasible_tasks', 'labels', 'tasks'];

describe.concurrent('the traversa command line', { timeout: 30_000 }, () => {
  it("stats --json prints only JSON, with the documented keys and the release's counts", async () => {
    const r = await traversa('stats', release(houseWithTypo(), houseScene('MP3D00001')), '--json');
    expect(r.code).toBe(0);
    const stats = JSON.parse(r.stdout) as Record<string, unknown> & { agents: Record<string, Record<string, unknown>>; labels: Record<string, unknown> };
    expect(Object.keys(stats).sort()).toEqual([
      'agents',
      'edges',
      'edges_per_scene',
      'hallucinated_questions',
      'labels',
      'nodes',
      'nodes_per_scene',
      'questions',
      'scenes',
      'unresolved_questions',
    ]);
    expect(Object.keys(stats.labels).sort()).toEqual(['not_traversable', 'total', 'traversable']);
    expect(Object.keys(stats.agents).sort()).toEqual(['HUMAN', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER', 'WHEELCHAIR']);
    for (const agent of Object.values(stats.agents)) expect(Object.keys(agent).sort()).toEqual(AGENT_KEYS);
    expect(stats).toMatchObject({ scenes: 2, nodes: 12, edges: 12, nodes_per_scene: 6, questions: 7, hallucinated_questions: 2, unresolved_questions: 1 });
    expect(stats.labels).toEqual({ total: 28, traversable: 24, not_traversable: 4 });
    // 4 tasks: per scene, two questions that are neither hallucinated nor unresolved. The stairs stop the wheelchair.
    expect(stats.agents.HUMAN).toMatchObject({ labels: 12, edge_traversable_ratio: 1, tasks: 4, feasible_tasks: 4, feasible_task_ratio: 1 });
    expect(stats.agents.WHEELCHAIR).toMatchObject({ labels: 8, edge_traversable_ratio: 0.75, tasks: 4, feasible_tasks: 0, feasible_task_ratio: 0 });
    expect(stats.agents.SWEEPER).toMatchObject({ labels: 0, edge_traversable_ratio: null, tasks: 4, feasible_tasks: 0 });
  });

  // Keys sort as strings: "node_12|…" comes before "node_1|…" because "2" < "|".
  it('plan --json lists, per question, the edges to label, or that it is hallucinated, or its unresolved references', async () => {
    const r = await traversa('plan', release(houseWithTypo()), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      scenes: {
        HM3D00025: {
          questions: [
            {
              index: 0,
              question: Q.hallToBedroom,
              edges: ['node_12|node_5', 'node_12|node_8', 'node_1|node_2', 'node_1|node_3', 'node_2|node_3', 'node_3|node_5'],
            },
            { index: 1, question: Q.kitchenToUpstairs, edges: ['node_12|node_5', 'node_1|node_2', 'node_1|node_3', 'node_2|node_3', 'node_3|node_5'] },
            { index: 2, question: Q.garage, hallucinated: true },
            { index: 3, question: Q.kitchenToTypo, unresolved: ['Secondd floor bedroom00'] },
          ],
        },
      },
    });
  });

  it('validate exits 1 on a release with an error and lists it by file, location and message', async () => {
    const r = await traversa('validate', release(houseWithTypo()), '--json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { ok: boolean; errors: number; problems: { file: string; location: string; message: string }[] };
    expect(report.ok).toBe(false);
    expect(report.errors).toBe(1);
    expect(report.problems).toEqual([
      expect.objectContaining({ file: 'qa/HM3D00025_QA.json', location: '/3/nodes_involved/end', message: expect.stringContaining('Secondd floor bedroom00') }),
    ]);
  });

  it('validate exits 0 on a clean release', async () => {
    const r = await traversa('validate', release(houseScene()));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0 errors');
  });

  it('convert --out writes the release layout into another folder', async () => {
    const out = mkdtempSync(join(tmpdir(), 'traversa-convert-'));
    made.push(out);
    const r = await traversa('convert', release(houseScene()), '--out', out);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['agent_profile.json', 'graphs', 'qa', 'traverse']);
    expect(existsSync(join(out, 'graphs/HM3D00025-graph.json'))).toBe(true);
    expect(existsSync(join(out, 'qa/HM3D00025_QA.json'))).toBe(true);
    const traverse = JSON.parse(readFileSync(join(out, 'traverse/HM3D00025-traverse.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(traverse)).toContain('ROBOT');
  });

  it('stats on a broken release fails, names the file on stderr, and prints nothing on stdout', async () => {
    const dir = release({ ...houseScene(), graph: '{ "nodes": [ ' });
    const r = await traversa('stats', dir, '--json');
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('graphs/HM3D00025-graph.json');
  });
});
