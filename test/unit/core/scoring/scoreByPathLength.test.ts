import { describe, expect, it } from 'vitest';
import { ruleJudge } from '../../../../src/core/scoring/judges/rule.ts';
import { scorePaperSync } from '../../../../src/core/scoring/paper/score.ts';
import { pred, QUESTIONS as Q, scoringHouse } from '../../../support/scoreSupport.ts';

const house = scoringHouse();

/** Issue 23 §12: score by path length, the length being the task's (shortest route on the graph), not the model's route. */
describe('score by path length', () => {
  it("groups the scored records by the hops of the task's shortest route, whatever the model walked", () => {
    const report = scorePaperSync(
      house,
      [
        pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> kitchen'), // 1 hop
        // 2 hops (kitchen → hall → bathroom) though the model walks 3: the task's length counts.
        pred('HUMAN', Q.kitchenToBath, 'yes', 'kitchen -> living -> hall -> bath'),
        pred('WHEELCHAIR', Q.kitchenToBath, 'yes', 'kitchen -> hall -> bath'), // 2 hops, infeasible: FP
        pred('HUMAN', Q.hallToBedroom, 'yes', 'hall -> living -> landing -> bedroom'), // 3 hops
        pred('HUMAN', Q.garage, 'yes', 'kitchen'), // hallucinated: not scored, in no bucket
      ],
      { judge: ruleJudge() },
    );
    const buckets = report.byPathLength.map((b) => [b.label, b.metrics.n.records, b.metrics.f1 === null ? null : Math.round(b.metrics.f1)]);
    expect(buckets).toEqual([
      ['1', 1, 100],
      ['2', 2, 67],
      ['3', 1, 100],
    ]);
    expect(report.byPathLength.reduce((n, b) => n + b.metrics.n.records, 0)).toBe(report.records.length);
  });

  it('puts a task whose start and end are not connected last, and long tasks together', () => {
    const scene = house.scenes[0]!;
    const island = {
      ...scene,
      graph: { ...scene.graph, nodes: [...scene.graph.nodes, { ...scene.graph.nodes[0]!, id: 'shed', name: 'Shed' }] },
      questions: [
        ...scene.questions,
        {
          ...scene.questions[0]!,
          id: 'q9',
          text: 'Can [Agent] move from the kitchen to the shed?',
          start: { ...scene.questions[0]!.start, raw: 'kitchen', nodeId: 'kitchen' },
          end: { ...scene.questions[0]!.end, raw: 'shed', nodeId: 'shed' },
        },
      ],
    };
    const report = scorePaperSync(
      { ...house, scenes: [island] },
      [
        pred('HUMAN', 'Can [Agent] move from the kitchen to the shed?', 'no', 'kitchen -> shed', 'no way there'),
        pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> kitchen'),
      ],
      { judge: ruleJudge() },
    );
    expect(report.byPathLength.map((b) => [b.label, b.hops, b.metrics.n.records])).toEqual([
      ['1', 1, 1],
      ['not connected', null, 1],
    ]);
  });
});
