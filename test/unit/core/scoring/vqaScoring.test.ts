import { describe, expect, it } from 'vitest';
import { parseOption, scoreMcq } from '../../../../src/core/scoring/vqa/mcq.ts';
import { extractNumber, numericScore, TAU_EQUATION, TAU_JUDGE_PROMPT } from '../../../../src/core/scoring/vqa/numeric.ts';

describe("multiple-choice answers, parsed in MetaVQA's order", () => {
  it.each([
    ['B', 'B'],
    ['(c)', 'C'],
    ['D.', 'D'],
    ['"A"', 'A'],
  ])('a lone option token %j is %s', (reply, want) => expect(parseOption(reply)).toBe(want));

  it('otherwise the last option keyword wins', () => {
    expect(parseOption('At first I thought option A, but the answer is (C).')).toBe('C');
    expect(parseOption('answer: b.')).toBe('B');
    expect(parseOption('The answer is a dog, not a cat')).toBeNull();
    expect(parseOption('The car is behind us, so it is not to the left.', ['A', 'B'], { A: 'to the left', B: 'behind' })).toBe('A');
    expect(parseOption('It is to the left... no wait, it is behind.', ['A', 'B'], { A: 'to the left', B: 'behind' })).toBe('B');
  });

  it('otherwise a single parenthesised letter; several different ones, none, or an illegal letter are unparseable', () => {
    expect(parseOption('I pick (b) because it is closer')).toBe('B');
    expect(parseOption('Between (A) and (B) I cannot choose')).toBeNull();
    expect(parseOption('The truck is closer')).toBeNull();
    expect(parseOption('E')).toBeNull();
    expect(parseOption('I pick (E)')).toBeNull();
  });

  it('accuracy and parse-failure rate are shares of all items; bootstrap intervals are seeded', () => {
    const items = ['A', '(B)', 'answer: C', 'dunno'].map((reply, i) => ({ id: `q${i}`, reply, answer: 'ABCD'[i]! }));
    const s = scoreMcq(items, { resamples: 200, seed: 3 });
    expect([s.n, s.correct, s.unparseable, s.accuracy, s.failRate]).toEqual([4, 3, 1, 75, 25]);
    expect(s.ci).toEqual(scoreMcq(items, { resamples: 200, seed: 3 }).ci);
    expect(s.ci!.accuracy![0]).toBeLessThanOrEqual(75);
  });
});

describe("numeric answers: Embodied4C's relative deviation score", () => {
  it('100 when exact, falling linearly to 0 at a deviation of τ·|a|', () => {
    expect(numericScore(10, 10, TAU_EQUATION)).toBe(100);
    expect(numericScore(10.05, 10, TAU_EQUATION)).toBeCloseTo(50, 9);
    expect(numericScore(10.2, 10, TAU_EQUATION)).toBe(0);
    expect(numericScore(10.5, 10, TAU_JUDGE_PROMPT)).toBeCloseTo(50, 9);
    expect(numericScore(-9.5, -10, TAU_JUDGE_PROMPT)).toBeCloseTo(50, 9);
  });

  it('a = 0 scores 100 only for â = 0; a reply without a number scores 0', () => {
    expect(numericScore(0, 0, 0.1)).toBe(100);
    expect(numericScore(0.001, 0, 0.1)).toBe(0);
    expect(numericScore(null, 0, 0.1)).toBe(0);
  });

  it('the number is read after the last "answer", else the first in the reply', () => {
    expect(extractNumber('There are 2 cars ahead. Answer: 3')).toBe(3);
    expect(extractNumber('About 12.5 m (roughly 41 ft).')).toBe(12.5);
    expect(extractNumber('It is 1,250 metres away')).toBe(1250);
    expect(extractNumber('−3 degrees')).toBe(-3);
    expect(extractNumber('no idea')).toBeNull();
  });
});

describe('free-form answers carry a judge score', () => {
  it('scores imported by item id fill the free-form items only', async () => {
    const { attachJudgeScores } = await import('../../../../src/core/scoring/vqa/freeform.ts');
    const { scoreEmbodied4C } = await import('../../../../src/core/scoring/vqa/embodied4c.ts');
    const items = attachJudgeScores(
      [
        { id: 'f1', benchmark: 'b', capability: 'semantic', kind: 'free', judgeScore: null },
        { id: 'f2', benchmark: 'b', capability: 'semantic', kind: 'free', judgeScore: null },
        { id: 'n1', benchmark: 'b', capability: 'semantic', kind: 'numeric', reply: '3', truth: 3 },
      ],
      new Map([
        ['f1', 40],
        ['n1', 0],
      ]),
    );
    const r = scoreEmbodied4C(items);
    expect(r.items.map((i) => i.score)).toEqual([40, null, 100]);
    expect(r.benchmarks.b!.capabilities.semantic).toEqual({ mean: 70, n: 2 });
  });
});
