import { beforeAll, describe, expect, it } from 'vitest';
import { datasetStats, type DatasetStats } from '../../src/core/stats.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { loadScenes, oracleStats, readTree, type OracleStats } from '../support/capnavOracle.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

const haveRelease = sharedAvailable(CAPNAV_DIR, 'dataset statistics on the real release');

describe.skipIf(!haveRelease)('dataset statistics of the shared CapNav release (30 scenes)', () => {
  let stats: DatasetStats;
  let expected: OracleStats;
  beforeAll(() => {
    const { project, problems } = readRelease(readTree(CAPNAV_DIR));
    expect(problems.filter((p) => p.severity === 'fatal')).toEqual([]);
    stats = datasetStats(project!);
    expected = oracleStats(loadScenes(CAPNAV_DIR));
  });

  it('counts scenes, rooms and doorways as the files hold them', () => {
    expect(expected.scenes).toBe(30);
    expect({ scenes: stats.scenes, nodes: stats.nodes, edges: stats.edges }).toEqual({ scenes: expected.scenes, nodes: expected.nodes, edges: expected.edges });
    expect(stats.nodes_per_scene).toBeCloseTo(expected.nodes / expected.scenes, 10);
    expect(stats.edges_per_scene).toBeCloseTo(expected.edges / expected.scenes, 10);
  });

  it('counts questions, the hallucinated ones, and those with a reference that names no room', () => {
    expect(expected.unresolved).toBeGreaterThan(0);
    expect(expected.hallucinated).toBeGreaterThan(0);
    expect({ questions: stats.questions, hallucinated: stats.hallucinated_questions, unresolved: stats.unresolved_questions }).toEqual({
      questions: expected.questions,
      hallucinated: expected.hallucinated,
      unresolved: expected.unresolved,
    });
  });

  it('counts from|to segment labels only, traversable and not', () => {
    expect(stats.labels).toEqual({
      total: expected.labels.total,
      traversable: expected.labels.traversable,
      not_traversable: expected.labels.total - expected.labels.traversable,
    });
  });

  it('per agent (the humanoid filed as ROBOT): labels, edge ratio, tasks and feasible tasks', () => {
    expect(Object.keys(stats.agents).sort()).toEqual(['HUMAN', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER', 'WHEELCHAIR']);
    for (const [agent, e] of Object.entries(expected.agents)) {
      const got = stats.agents[agent]!;
      expect({ agent, labels: got.labels, tasks: got.tasks, feasible: got.feasible_tasks }).toEqual({
        agent,
        labels: e.labels,
        tasks: e.tasks,
        feasible: e.feasible,
      });
      expect(got.edge_traversable_ratio, agent).toBeCloseTo(e.traversable / e.labels, 10);
      expect(got.feasible_task_ratio, agent).toBeCloseTo(e.feasible / e.tasks, 10);
    }
  });

  it('reproduces the paper: humans pass nearly every edge, and feasible-task ratios are within ±0.06', () => {
    expect(Math.abs(stats.agents.HUMAN!.edge_traversable_ratio! - 1)).toBeLessThan(0.01);
    const paper = { HUMAN: 1.0, WHEELCHAIR: 0.48, HUMANOID: 0.22, QUADRUPEDAL: 0.97, SWEEPER: 0.57 };
    for (const [agent, ratio] of Object.entries(paper)) {
      const got = stats.agents[agent]!.feasible_task_ratio!;
      expect(Math.abs(got - ratio), `${agent}: ${got.toFixed(3)} vs paper ${ratio}`).toBeLessThanOrEqual(0.06);
    }
  });
});
