import { beforeAll, describe, expect, it } from 'vitest';
import { adjacency } from '../../../../src/core/graph.ts';
import type { Project } from '../../../../src/core/project.ts';
import { oracleBaseline, randomWalkBaseline, type PredictionRow } from '../../../../src/core/scoring/baselines.ts';
import { ruleJudge } from '../../../../src/core/scoring/judges/rule.ts';
import { scorePaperSync } from '../../../../src/core/scoring/paper/score.ts';
import type { PaperReport } from '../../../../src/core/scoring/paper/types.ts';
import { readPredictionJsonl, toPredictionJsonl } from '../../../../src/formats/predictions/jsonl.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { readTree } from '../../../support/capnavOracle.ts';
import { CAPNAV_DIR, sharedAvailable } from '../../../support/shared.ts';
import { scoringHouse } from '../../../support/scoreSupport.ts';

/** Baseline rows through the JSONL writer and reader, then scored with the rule judge: the path a user takes. */
function score(project: Project, rows: PredictionRow[]): PaperReport {
  const { predictions, problems } = readPredictionJsonl({ path: 'baseline.jsonl', text: toPredictionJsonl(rows) });
  expect(problems).toEqual([]);
  return scorePaperSync(project, predictions, { judge: ruleJudge() });
}

/** Whether a question's start and end are joined by any path of the graph at all. */
function connected(project: Project, scene: string, src: string, tgt: string): boolean {
  const adj = adjacency(project.scenes.find((s) => s.id === scene)!.graph);
  const seen = new Set([src]);
  const queue = [src];
  for (let i = 0; i < queue.length; i++)
    for (const v of adj.get(queue[i]!)!)
      if (!seen.has(v)) {
        seen.add(v);
        queue.push(v);
      }
  return seen.has(tgt);
}

describe('baselines on the scoring house', () => {
  const house = scoringHouse();

  it('the oracle answers every task for every agent and scores 100 on F1, PV and RTA', () => {
    const r = score(house, oracleBaseline(house));
    expect(r.records).toHaveLength(3 * 5); // hallucinated and unresolved questions are not tasks
    expect([r.overall.f1, r.overall.pv, r.overall.rta]).toEqual([100, 100, 100]);
    // RV misses only where the blocked hop has no note to name (the sweeper has no labels at all).
    expect(r.records.filter((x) => x.rv === 0).every((x) => x.agent === 'SWEEPER')).toBe(true);
    expect(r.perAgent.WHEELCHAIR!.capnav).toBe(100);
  });

  it('the random walk is seeded: the same seed gives the same predictions, another seed others', () => {
    expect(randomWalkBaseline(house, { seed: 4 })).toEqual(randomWalkBaseline(house, { seed: 4 }));
    expect(randomWalkBaseline(house, { seed: 4 })).not.toEqual(randomWalkBaseline(house, { seed: 5 }));
    for (const row of randomWalkBaseline(house, { seed: 4 })) {
      expect(row.answer === 'yes').toBe(row.path[row.path.length - 1] === house.scenes[0]!.questions[row.questionIndex]!.end.nodeId);
    }
  });
});

const haveRelease = sharedAvailable(CAPNAV_DIR, 'baselines on the real release');

describe.skipIf(!haveRelease)('baselines on the shared CapNav release', () => {
  let project: Project;
  beforeAll(() => {
    project = readRelease(readTree(CAPNAV_DIR)).project!;
  });

  it('the oracle: F1 and RTA 100; PV 100 wherever a path exists; RV misses only "no" answers without a route', () => {
    const r = score(project, oracleBaseline(project));
    expect(r.overall.f1).toBe(100);
    expect(r.overall.rta).toBe(100);
    const invalid = r.records.filter((x) => !x.pathValid);
    // The only invalid paths are of tasks whose start and end no path of the graph joins.
    expect(invalid.every((x) => !connected(project, x.scene, x.src!, x.tgt!))).toBe(true);
    expect(invalid.length).toBeLessThanOrEqual(5);
    expect(r.records.filter((x) => x.rv === 0).every((x) => x.rvRule === 'no-route')).toBe(true);
    expect(r.overall.capnav!).toBeGreaterThan(99);
  });

  it('the random walk scores far lower (the paper reports 29.35 for its random walk)', () => {
    const r = score(project, randomWalkBaseline(project, { seed: 1 }));
    expect(r.overall.rv).toBe(0);
    expect(r.overall.capnav!).toBeGreaterThan(25);
    expect(r.overall.capnav!).toBeLessThan(45);
  });
});
