import { describe, expect, it } from 'vitest';
import { ruleJudge } from '../../../../src/core/scoring/judges/rule.ts';
import type { Judge, JudgeRequest } from '../../../../src/core/scoring/judges/types.ts';
import { scorePaper, scorePaperChunked, scorePaperSync } from '../../../../src/core/scoring/paper/score.ts';
import { pred, QUESTIONS as Q, scoringHouse } from '../../../support/scoreSupport.ts';

const house = scoringHouse();
const rule = { judge: ruleJudge() };
const UP = 'hall -> living -> landing -> bedroom';

/** A judge that records what it was asked. */
function spyJudge(answer = true): Judge & { calls: JudgeRequest[] } {
  const calls: JudgeRequest[] = [];
  return {
    calls,
    info: { id: 'spy', kind: 'rule', label: 'spy', promptVersion: '1' },
    judge: (r) => {
      calls.push(r);
      return { correct: answer };
    },
  };
}

describe("one prediction, scored by the paper's definitions", () => {
  it('the human says yes and walks hall → living room → landing → bedroom: a true positive with a valid, fully traversable route', () => {
    const [r] = scorePaperSync(house, [pred('HUMAN', Q.hallToBedroom, 'yes', UP)], rule).records;
    expect(r).toMatchObject({
      matched: true,
      status: 'scored',
      answer: 'yes',
      outcome: 'TP',
      src: 'hall',
      tgt: 'bedroom',
      gtFeasible: true,
      pathValid: true,
      rta: 1,
      rv: null,
      failureModes: [],
    });
    expect(r!.hops.map((h) => [h.from, h.to, h.traversable])).toEqual([
      ['hall', 'living', true],
      ['living', 'landing', true],
      ['landing', 'bedroom', true],
    ]);
  });

  it('the wheelchair says yes up the stairs: a false positive; its valid route scores RTA 2/3', () => {
    const [r] = scorePaperSync(house, [pred('WHEELCHAIR', Q.hallToBedroom, 'yes', UP)], rule).records;
    expect(r).toMatchObject({ outcome: 'FP', gtFeasible: false, pathValid: true, obstacleTypes: ['stairs'] });
    expect(r!.rta).toBeCloseTo(2 / 3, 12);
    expect(r!.hops[1]).toMatchObject({ traversable: false, note: 'cannot go up/down stairs', categories: ['stairs'] });
  });

  it('the wheelchair says no because of the stairs: a true negative, and the rule judge accepts the reason', () => {
    const [r] = scorePaperSync(house, [pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'A wheelchair cannot climb the staircase.')], rule).records;
    expect(r).toMatchObject({ outcome: 'TN', rv: 1, judge: { correct: true, judge: 'rule' } });
  });

  it('…but blaming a narrow door when the stairs are what stops it scores RV 0', () => {
    const [r] = scorePaperSync(house, [pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'The bedroom door is too narrow')], rule).records;
    expect(r).toMatchObject({ outcome: 'TN', rv: 0, judge: { correct: false } });
  });

  it('a "no" with fewer than two resolvable nodes, or with no reason, scores RV 0 without asking the judge', () => {
    const spy = spyJudge();
    const { records } = scorePaperSync(
      house,
      [pred('WHEELCHAIR', Q.hallToBedroom, 'no', ['hall', 'Atic'], 'stairs'), pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, '   ')],
      { judge: spy },
    );
    expect(records.map((r) => [r.rv, r.rvRule])).toEqual([
      [0, 'no-route'],
      [0, 'no-reason'],
    ]);
    expect(spy.calls).toEqual([]);
  });

  it("the judge sees the notes of the blocked hops of the route the model gave, and the label's reason category when recorded", () => {
    const spy = spyJudge();
    scorePaperSync(house, [pred('HUMANOID', Q.kitchenToBath, 'no', 'kitchen -> hall -> bath', 'too tight for me')], { judge: spy });
    expect(spy.calls[0]).toMatchObject({ reason: 'too tight for me', notes: ['see photo 12'], agent: 'HUMANOID', categories: ['narrow'] });
    const [r] = scorePaperSync(house, [pred('HUMANOID', Q.kitchenToBath, 'no', 'kitchen -> hall -> bath', 'too tight for me')], rule).records;
    expect(r!.rv).toBe(1);
  });

  it('an unparseable answer is wrong either way — FN on a feasible task, FP on an infeasible one — and is left out of PV', () => {
    const report = scorePaperSync(
      house,
      [
        pred('HUMAN', Q.hallToKitchen, 'maybe', ['hall', 'kitchen']),
        pred('SWEEPER', Q.hallToKitchen, 'I cannot tell', ['hall', 'kitchen']),
        pred('HUMAN', Q.hallToBedroom, 'yes', ['hall', 'bedroom']),
      ],
      rule,
    );
    expect(report.records.map((r) => [r.parseable, r.outcome])).toEqual([
      [false, 'FN'],
      [false, 'FP'],
      [true, 'TP'],
    ]);
    expect(report.overall.n).toEqual({ records: 3, parseable: 1, rta: 0, rv: 0, unjudged: 0 });
    expect(report.overall.pv).toBe(0); // the one parseable path skips from the hall to the bedroom
    expect(report.errorCounts['unparseable-answer']).toBe(2);
  });

  it('path tokens may be names (any case) or "id — name"; a misspelt name stays unresolved and fails PV, never guessed', () => {
    const ok = scorePaperSync(house, [pred('HUMAN', Q.hallToKitchen, 'yes', ['front HALL', 'kitchen — Kitchen'])], rule).records[0]!;
    expect(ok).toMatchObject({ pathIds: ['hall', 'kitchen'], pathValid: true });
    const typo = scorePaperSync(house, [pred('HUMAN', Q.hallToKitchen, 'yes', ['Front hall', 'Kitchenn'])], rule).records[0]!;
    expect(typo.pathIds).toEqual(['hall', null]);
    expect(typo.pathErrors).toEqual([
      { kind: 'wrong-end', expected: 'kitchen', got: 'Kitchenn' },
      { kind: 'unknown-node', index: 1, node: 'Kitchenn' },
    ]);
    expect(typo.rta).toBeNull();
  });

  it('PV: a repeated node, a hop without an edge, a wrong start and an empty path are each invalid', () => {
    const kinds = (path: string) => scorePaperSync(house, [pred('HUMAN', Q.hallToKitchen, 'yes', path)], rule).records[0]!.pathErrors.map((e) => e.kind);
    expect(kinds('hall -> living -> hall -> kitchen')).toEqual(['repeated-node']);
    expect(kinds('hall -> landing -> kitchen')).toEqual(['no-edge', 'no-edge']);
    expect(kinds('living -> kitchen')).toEqual(['wrong-start']);
    expect(kinds('')).toEqual(['empty']);
  });
});

describe('matching predictions to questions', () => {
  it("a question repeated with the agent's name instead of [Agent], and ROBOT for the humanoid, still match", () => {
    const [r] = scorePaperSync(house, [pred('robot', Q.hallToKitchen.replace('[Agent]', 'HUMANOID'), 'yes', 'hall -> kitchen')], rule).records;
    expect(r).toMatchObject({ agent: 'HUMANOID', matched: true, questionIndex: 2, outcome: 'TP' });
  });

  it('an unknown question, scene or agent is reported as unmatched, with a problem, and never enters a metric', () => {
    const report = scorePaperSync(
      house,
      [
        pred('HUMAN', 'Can [Agent] fly to the moon?', 'yes'),
        pred('HUMAN', Q.hallToKitchen, 'yes', [], '', { scene: 'HM3D99999' }),
        pred('DRONE', Q.hallToKitchen, 'yes'),
        pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> kitchen'),
      ],
      rule,
    );
    expect(report.unmatched.map((r) => r.note)).toEqual([
      'question "Can [Agent] fly to the moon?" matches no question of scene HOUSE01',
      'scene "HM3D99999" is not in the ground truth',
      'agent "DRONE" has no profile and no labels in the ground truth',
    ]);
    expect(report.problems.filter((p) => p.code === 'prediction.unmatched')).toHaveLength(3);
    expect(report.overall.n.records).toBe(1);
  });

  it('predictions on hallucinated questions are excluded and counted; so are those on questions whose end names no room', () => {
    const report = scorePaperSync(
      house,
      [pred('HUMAN', Q.garage, 'yes'), pred('HUMAN', Q.attic, 'no'), pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> kitchen')],
      rule,
    );
    expect([report.excludedHallucinated, report.excludedUnresolved, report.records.length]).toEqual([1, 1, 1]);
    expect(report.excluded.map((r) => r.status)).toEqual(['excluded-hallucinated', 'excluded-unresolved']);
  });

  it('a second prediction for the same question and agent is scored too, with a warning', () => {
    const report = scorePaperSync(
      house,
      [pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> kitchen'), pred('HUMAN', Q.hallToKitchen, 'no', 'hall -> kitchen', 'door')],
      rule,
    );
    expect(report.records).toHaveLength(2);
    expect(report.problems.map((p) => p.code)).toEqual(['prediction.duplicate']);
  });
});

describe('aggregates', () => {
  // HUMAN: TP (valid), TP (invalid path), FN. WHEELCHAIR: TN with the right reason, FP through the narrow door.
  const predictions = [
    pred('HUMAN', Q.hallToBedroom, 'yes', UP),
    pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> bath -> kitchen'),
    pred('HUMAN', Q.kitchenToBath, 'no', 'kitchen -> hall -> bath', 'the bathroom door is closed'),
    pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'stairs'),
    pred('WHEELCHAIR', Q.kitchenToBath, 'yes', 'kitchen -> hall -> bath'),
  ];

  it('Feas-F1, PV, RTA, RV and the composite, overall and per agent, with the confusion matrix', () => {
    const r = scorePaperSync(house, predictions, rule);
    expect(r.confusion).toEqual({ tp: 2, fp: 1, tn: 1, fn: 1 });
    expect(r.overall.precision).toBeCloseTo(200 / 3, 10);
    expect(r.overall.recall).toBeCloseTo(200 / 3, 10);
    expect(r.overall.f1).toBeCloseTo(200 / 3, 10);
    expect(r.overall.pv).toBeCloseTo(80, 10); // 4 of 5 paths valid
    expect(r.overall.rta).toBeCloseTo((100 + 50) / 2, 10); // the wheelchair's route: 1 of 2 hops traversable
    expect(r.overall.rv).toBeCloseTo(50, 10); // "closed door" is not what the human's (absent) obstacle is; "stairs" is right
    expect(r.overall.capnav).toBeCloseTo((200 / 3 + 80 + 75 + 50) / 4, 10);
    expect(r.perAgent.HUMAN).toMatchObject({ precision: 100, n: { records: 3, parseable: 3, rta: 1, rv: 1 } });
    expect(r.perAgent.HUMAN!.recall).toBeCloseTo(200 / 3, 10);
    expect(r.perAgent.WHEELCHAIR).toMatchObject({ f1: 0, pv: 100, rta: 50, rv: 100 });
    expect(Object.keys(r.perAgent)).toEqual(['HUMAN', 'WHEELCHAIR']);
  });

  it('the macro average is the mean over agents, and `averaging` picks which one is the headline', () => {
    const micro = scorePaperSync(house, predictions, rule);
    expect(micro.macro.f1).toBeCloseTo((micro.perAgent.HUMAN!.f1! + micro.perAgent.WHEELCHAIR!.f1!) / 2, 10);
    expect(micro.macro.capnav).toBeCloseTo((micro.perAgent.HUMAN!.capnav! + micro.perAgent.WHEELCHAIR!.capnav!) / 2, 10);
    expect(micro.headline).toBe(micro.overall);
    const macro = scorePaperSync(house, predictions, { ...rule, averaging: 'macro' });
    expect(macro.headline).toEqual(macro.macro);
  });

  it('weights are settable; without a judge RV is not computed and the composite renormalises over the rest', () => {
    const w = scorePaperSync(house, predictions, { ...rule, weights: { f1: 0.5, pv: 1 / 6, rta: 1 / 6, rv: 1 / 6 } });
    expect(w.overall.capnav).toBeCloseTo(0.5 * (200 / 3) + (80 + 75 + 50) / 6, 10);
    const none = scorePaperSync(house, predictions, { judge: null });
    expect(none.overall.rv).toBeNull();
    expect(none.records.every((r) => r.rv === null)).toBe(true);
    expect(none.overall.capnav).toBeCloseTo((200 / 3 + 80 + 75) / 3, 10);
    expect(none.settings.judge.kind).toBe('none');
  });

  it('obstacle types come from the work list for the agent; accuracy by type counts "no" with an accepted reason', () => {
    const r = scorePaperSync(house, predictions, rule);
    expect(r.records.map((x) => x.obstacleTypes)).toEqual([[], [], [], ['stairs'], ['narrow']]);
    expect(r.byObstacle.stairs).toEqual({ n: 1, correct: 1, accuracy: 100, answeredNo: 1 });
    expect(r.byObstacle.narrow).toEqual({ n: 1, correct: 0, accuracy: 0, answeredNo: 0 });
  });

  it('failure modes: path and obstacle hallucination, dimension neglect, ability hallucination', () => {
    const r = scorePaperSync(house, [...predictions, pred('HUMAN', Q.hallToKitchen, 'no', 'hall -> kitchen', 'There are stairs on the way')], rule);
    expect(r.records.map((x) => x.failureModes)).toEqual([
      [],
      ['path-hallucination'],
      ['obstacle-hallucination'],
      [],
      ['dimension-neglect'],
      ['obstacle-hallucination', 'ability-hallucination'],
    ]);
    expect(r.failureModes).toEqual({ 'path-hallucination': 1, 'obstacle-hallucination': 2, 'dimension-neglect': 1, 'ability-hallucination': 1 });
  });

  it('bootstrap intervals: seeded and reproducible, around the point estimate, for every breakdown', () => {
    const many = Array.from({ length: 8 }, () => predictions).flat();
    const a = scorePaperSync(house, many, { ...rule, bootstrap: { resamples: 300, seed: 7 } });
    const b = scorePaperSync(house, many, { ...rule, bootstrap: { resamples: 300, seed: 7 } });
    expect(a.overall.ci).toEqual(b.overall.ci);
    for (const k of ['f1', 'pv', 'rta', 'rv', 'capnav'] as const) {
      const [lo, hi] = a.overall.ci![k]!;
      expect(lo).toBeLessThanOrEqual(a.overall[k]!);
      expect(hi).toBeGreaterThanOrEqual(a.overall[k]!);
      expect(hi).toBeGreaterThan(lo);
    }
    expect(a.macro.ci!.capnav).toBeDefined();
    expect(a.perAgent.WHEELCHAIR!.ci!.pv).toEqual([100, 100]);
    expect(scorePaperSync(house, many, rule).overall.ci).toBeUndefined();
  });
});

describe('judging and running', () => {
  it('the same reason against the same notes is judged once', () => {
    const spy = spyJudge();
    scorePaperSync(
      house,
      Array.from({ length: 5 }, () => pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'stairs')),
      { judge: spy },
    );
    expect(spy.calls).toHaveLength(1);
  });

  it("a judge failure makes the record's RV unknown: RV and the composite are withheld, with their range, and the failure is listed", async () => {
    const failing: Judge = { info: { id: 'down', kind: 'http', label: 'down', promptVersion: '1' }, judge: async () => ({ error: 'HTTP 503' }) };
    const r = await scorePaper(
      house,
      [pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'stairs'), pred('WHEELCHAIR', Q.hallToKitchen, 'yes', 'hall -> kitchen')],
      { judge: failing },
    );
    expect(r.records[0]).toMatchObject({ rv: null, judge: { error: 'HTTP 503' } });
    expect(r.overall).toMatchObject({ rv: null, capnav: null, n: { unjudged: 1 }, incomplete: { rv: [0, 100] } });
    expect(r.unjudged).toEqual({ count: 1, why: { 'HTTP 503': 1 } });
    expect(r.errorCounts['judge-failed']).toBe(1);
    expect(r.problems.map((p) => p.code)).toEqual(['judge.failed']);
  });
});

describe('a failing judge never raises a score', () => {
  // Agents that say "no" with a reason the rule judge rejects (RV 0), and one whose answers are all right.
  const run = [
    pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'the door is too narrow'),
    pred('WHEELCHAIR', Q.hallToKitchen, 'yes', 'hall -> kitchen'),
    pred('HUMAN', Q.hallToBedroom, 'yes', UP),
    pred('HUMANOID', Q.kitchenToBath, 'no', 'kitchen -> hall -> bath', 'it smells'),
  ];
  const failOn = (bad: (r: JudgeRequest) => boolean): Judge => {
    const inner = ruleJudge();
    return {
      info: { id: 'flaky', kind: 'http', label: 'flaky', promptVersion: '1' },
      judge: async (q) => (bad(q) ? { error: "the endpoint's response is not JSON" } : inner.judge(q)),
    };
  };

  it('every verdict failing: no composite anywhere (overall, macro, per agent that needed the judge); the true one lies in the printed range', async () => {
    const truth = scorePaperSync(house, run, rule);
    const failed = await scorePaper(house, run, { judge: failOn(() => true) });
    expect(truth.overall.capnav).not.toBeNull();
    for (const [name, set, real] of [
      ['overall', failed.overall, truth.overall],
      ['macro', failed.macro, truth.macro],
      ['WHEELCHAIR', failed.perAgent.WHEELCHAIR!, truth.perAgent.WHEELCHAIR!],
    ] as const) {
      expect(set.capnav, name).toBeNull();
      expect(set.rv, name).toBeNull();
      const [lo, hi] = set.incomplete!.capnav!;
      // The judge would have rejected both reasons: the truth is the low end, never above it.
      expect(lo, name).toBeCloseTo(real.capnav!, 10);
      expect(hi, name).toBeGreaterThan(lo);
    }
    // An agent that needed no judge keeps its figures.
    expect(failed.perAgent.HUMAN).toEqual(truth.perAgent.HUMAN);
    expect(failed.unjudged.count).toBe(2);
  });

  it('one verdict failing of two: still withheld, not averaged over the judged one', async () => {
    const failed = await scorePaper(house, run, { judge: failOn((q) => q.agent === 'HUMANOID'), bootstrap: { resamples: 200, seed: 3 } });
    expect(failed.overall.capnav).toBeNull();
    expect(failed.overall.n).toMatchObject({ rv: 1, unjudged: 1 });
    expect(failed.overall.incomplete!.rv).toEqual([0, 50]);
    expect(failed.perAgent.WHEELCHAIR!.capnav).not.toBeNull();
    // No interval for a withheld value.
    expect(failed.overall.ci!.capnav).toBeUndefined();
    expect(failed.overall.ci!.f1).toBeDefined();
  });
});

describe('judging and running, continued', () => {
  // The human's "no" has no blocked hop on its route, so its notes differ from the wheelchair's: two verdicts.
  it('chunked scoring reports progress and gives the same report as one pass', async () => {
    const many = Array.from({ length: 30 }, (_, i) => pred(i % 2 ? 'HUMAN' : 'WHEELCHAIR', Q.hallToBedroom, i % 3 ? 'no' : 'yes', UP, 'stairs'));
    const progress: string[] = [];
    const chunked = await scorePaperChunked(house, many, rule, {
      chunkSize: 7,
      onProgress: (p) => progress.push(p.phase === 'aggregate' ? p.phase : `${p.phase} ${p.done}/${p.total}`),
    });
    expect(progress).toEqual(['score 7/30', 'score 14/30', 'score 21/30', 'score 28/30', 'score 30/30', 'judge 1/2', 'judge 2/2', 'aggregate']);
    expect(chunked).toEqual(scorePaperSync(house, many, rule));
    expect(chunked).toEqual(await scorePaper(house, many, rule));
  });

  it('the synchronous entry point refuses an asynchronous judge', () => {
    const slow: Judge = { info: { id: 'slow', kind: 'http', label: 'slow', promptVersion: '1' }, judge: async () => ({ correct: true }) };
    expect(() => scorePaperSync(house, [pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'stairs')], { judge: slow })).toThrow(/asynchronous/);
  });
});
