import { describe, expect, it } from 'vitest';
import type { Label, LabelTable } from '../../../../src/core/labels.ts';
import { cohenKappa, countTable, fleissKappa, labelAgreement, verdictAgreement } from '../../../../src/core/interRater.ts';
import type { QaItem, Review } from '../../../../src/core/vqa/item.ts';

/** Every expected figure below is worked out by hand in the comment next to it. */

describe("Fleiss' kappa on the textbook table (Fleiss 1971 layout: 10 subjects, 14 raters, 5 categories)", () => {
  const TABLE = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];

  it('category shares p_j = column total / (N·n) = [20, 28, 39, 21, 32] / 140', () => {
    const r = fleissKappa(TABLE);
    expect(r.raters).toBe(14);
    expect(r.n).toBe(10);
    // 20/140 = 0.143, 28/140 = 0.200, 39/140 = 0.279, 21/140 = 0.150, 32/140 = 0.229
    [0.143, 0.2, 0.279, 0.15, 0.229].forEach((p, j) => expect(r.categoryShares[j]).toBeCloseTo(p, 3));
  });

  it('per-subject agreement P_i = (Σ n_ij² − 14) / (14·13)', () => {
    const r = fleissKappa(TABLE);
    // row 1: 14² = 196 → (196 − 14)/182 = 1; row 2: 4+36+16+4 = 60 → 46/182 = 0.253; row 6: 49+49 = 98 → 84/182 = 0.462
    expect(r.itemAgreement[0]).toBe(1);
    expect(r.itemAgreement[1]).toBeCloseTo(0.253, 3);
    expect(r.itemAgreement[5]).toBeCloseTo(0.462, 3);
  });

  it('P̄ = 3.780 / 10 = 0.378, P̄e = Σ p_j² = 0.213, κ = (0.378 − 0.213) / (1 − 0.213) = 0.210', () => {
    const r = fleissKappa(TABLE);
    expect(r.observed).toBeCloseTo(0.378, 3);
    expect(r.expected).toBeCloseTo(0.213, 3);
    expect(r.kappa).toBeCloseTo(0.21, 3);
  });

  it('a table where items have different numbers of ratings is refused, naming the item', () => {
    expect(() =>
      fleissKappa([
        [2, 1],
        [1, 1],
      ]),
    ).toThrow(/item 1 has 2 ratings, item 0 has 3/);
    expect(() =>
      fleissKappa([
        [2, 1],
        [1, 1, 1],
      ]),
    ).toThrow(RangeError);
    expect(() =>
      fleissKappa([
        [1, 0],
        [0, 1],
      ]),
    ).toThrow(/at least two ratings/);
    expect(() => fleissKappa([[1.5, 0.5]])).toThrow(RangeError);
  });

  it('no items: nothing to measure, κ is null rather than 0', () => {
    expect(fleissKappa([]).kappa).toBeNull();
  });

  it("countTable turns each item's list of labels into counts per category, in category order", () => {
    expect(
      countTable(
        [
          ['yes', 'no', 'yes'],
          ['no', 'no', 'no'],
        ],
        ['yes', 'no'],
      ),
    ).toEqual([
      [2, 1],
      [0, 3],
    ]);
  });
});

describe("Cohen's kappa for two raters", () => {
  it('the 50-item example: po = (20 + 15)/50 = 0.70, pe = 0.5·0.6 + 0.5·0.4 = 0.50, κ = 0.20/0.50 = 0.40', () => {
    // A said yes 25 times (20 + 5), B said yes 30 times (20 + 10).
    const a = [...Array(20).fill('yes'), ...Array(5).fill('yes'), ...Array(10).fill('no'), ...Array(15).fill('no')];
    const b = [...Array(20).fill('yes'), ...Array(5).fill('no'), ...Array(10).fill('yes'), ...Array(15).fill('no')];
    const r = cohenKappa(a, b);
    expect(r.n).toBe(50);
    expect(r.observed).toBeCloseTo(0.7, 12);
    expect(r.expected).toBeCloseTo(0.5, 12);
    expect(r.kappa).toBeCloseTo(0.4, 12);
  });

  it('three categories: 7 of 10 agree; both raters used a 4, b 3, c 3 → pe = .16 + .09 + .09 = .34, κ = .36/.66 = 6/11', () => {
    const a = ['a', 'a', 'a', 'b', 'b', 'c', 'c', 'c', 'a', 'b'];
    const b = ['a', 'a', 'b', 'b', 'b', 'c', 'a', 'c', 'a', 'c'];
    const r = cohenKappa(a, b);
    expect(r.observed).toBeCloseTo(0.7, 12);
    expect(r.expected).toBeCloseTo(0.34, 12);
    expect(r.kappa).toBeCloseTo(6 / 11, 12);
  });

  it('perfect agreement is 1, agreement at chance is 0, systematic disagreement is below 0', () => {
    expect(cohenKappa(['x', 'y', 'z'], ['x', 'y', 'z']).kappa).toBe(1);
    // po = 2/4, each rater half yes → pe = .5 → κ = 0
    expect(cohenKappa([true, true, false, false], [true, false, true, false]).kappa).toBe(0);
    // po = 0, pe = .5 → κ = −1
    expect(cohenKappa(['y', 'n'], ['n', 'y']).kappa).toBe(-1);
  });

  it('when both raters used one category throughout, chance agreement is certain and κ is null, not 1', () => {
    const r = cohenKappa(['accept', 'accept', 'accept'], ['accept', 'accept', 'accept']);
    expect(r.observed).toBe(1);
    expect(r.expected).toBe(1);
    expect(r.kappa).toBeNull();
    expect(cohenKappa([], []).kappa).toBeNull();
  });

  it('raters who labelled different numbers of items are refused', () => {
    expect(() => cohenKappa(['a', 'b'], ['a'])).toThrow(/2 vs 1 labels/);
  });
});

const review = (reviewer: string, verdict: Review['verdict']): Review => ({ reviewer, verdict, comment: '', timeMs: 1000, at: '2025-01-01T00:00:00Z' });

function reviewed(id: string, ...reviews: Review[]): QaItem {
  return {
    id,
    sceneId: 'HM3D00001',
    question: `Question ${id}?`,
    answer: { kind: 'yesno', correct: true },
    category: { capability: 'spatial' },
    anchors: { viewpoints: [], marks: [], nodes: [], edges: [] },
    trail: [],
    source: 'generated',
    status: 'pending',
    requiredReviews: reviews.length || 1,
    reviews,
    createdAt: '2025-01-01T00:00:00Z',
    author: '',
  };
}

describe('agreement of review verdicts', () => {
  const A = 'accept',
    E = 'edit-accept',
    R = 'reject';
  const items = [
    reviewed('i1', review('ana', A), review('ben', A)),
    reviewed('i2', review('ana', A), review('ben', E)),
    reviewed('i3', review('ben', A), review('ana', R)), // listed out of name order on purpose
    reviewed('i4', review('ana', R), review('ben', R)),
    reviewed('i5', review('ana', A), review('ben', R), review('cy', A)),
    reviewed('i6', review('cy', R), review('ana', R), review('ben', R)),
    reviewed('i7', review('ana', A)), // one review: no overlap, left out
    reviewed('i8'),
  ];

  it('counts items with overlap and those where every verdict agrees (edit-accept counts as accept)', () => {
    const r = verdictAgreement(items);
    expect(r.categories).toEqual(['accept', 'reject']);
    expect(r.items).toBe(6);
    expect(r.unanimous).toBe(4); // i1, i2, i4, i6
  });

  it("Fleiss' κ per overlap, collapsed to accept / reject", () => {
    const r = verdictAgreement(items);
    expect(r.byRaters.map((g) => [g.raters, g.items])).toEqual([
      [2, 4],
      [3, 2],
    ]);
    // Two raters, rows [2,0] [2,0] [1,1] [0,2]: P_i = 1, 1, 0, 1 → P̄ = .75;
    // p = [5/8, 3/8] → P̄e = 34/64 = .53125; κ = .21875 / .46875 = 7/15.
    const two = r.byRaters[0]!.fleiss;
    expect(two.observed).toBeCloseTo(0.75, 12);
    expect(two.expected).toBeCloseTo(0.53125, 12);
    expect(two.kappa).toBeCloseTo(7 / 15, 12);
    // Three raters, rows [2,1] [0,3]: P_i = (5−3)/6 = 1/3, (9−3)/6 = 1 → P̄ = 2/3;
    // p = [1/3, 2/3] → P̄e = 5/9; κ = (1/9)/(4/9) = 1/4.
    expect(r.byRaters[1]!.fleiss.kappa).toBeCloseTo(0.25, 12);
  });

  it("Cohen's κ per pair of reviewers over the items both reviewed, pairs named in alphabetical order", () => {
    const r = verdictAgreement(items);
    expect(r.pairs.map((p) => [p.reviewers, p.items])).toEqual([
      [['ana', 'ben'], 6],
      [['ana', 'cy'], 2],
      [['ben', 'cy'], 2],
    ]);
    // ana: A A R R A R; ben: A A A R R R → 4/6 agree; both 3 A / 3 R → pe = .5; κ = (2/3 − 1/2)/(1/2) = 1/3
    expect(r.pairs[0]!.cohen.kappa).toBeCloseTo(1 / 3, 12);
    // ana and cy agree on i5 and i6, each half accept → κ = 1
    expect(r.pairs[1]!.cohen.kappa).toBe(1);
    // ben R R, cy A R: po = .5; pe = 1·.5 = .5 → κ = 0
    expect(r.pairs[2]!.cohen.kappa).toBe(0);
  });

  it('with collapseEditAccept false, "needed editing" counts as its own verdict', () => {
    const r = verdictAgreement(items, { collapseEditAccept: false });
    expect(r.categories).toEqual(['accept', 'edit-accept', 'reject']);
    expect(r.unanimous).toBe(3); // i2 no longer unanimous
    // rows [2,0,0] [1,1,0] [1,0,1] [0,0,2]: P̄ = (1+0+0+1)/4 = .5; p = [4/8, 1/8, 3/8] → P̄e = 26/64; κ = (6/64)/(38/64) = 3/19
    expect(r.byRaters[0]!.fleiss.kappa).toBeCloseTo(3 / 19, 12);
    // ana–ben: 3/6 agree; ana A 3 R 3, ben A 2 E 1 R 3 → pe = (3·2 + 3·3)/36 = 5/12; κ = (1/12)/(7/12) = 1/7
    expect(r.pairs[0]!.cohen.kappa).toBeCloseTo(1 / 7, 12);
  });
});

describe('agreement of two traversability labellings of the same scene', () => {
  const yes = (more: Partial<Label> = {}): Label => ({ traversable: true, note: 'clear', ...more });
  const no = (more: Partial<Label> = {}): Label => ({ traversable: false, note: 'blocked', ...more });
  const autoNote = 'Auto-approved: able-bodied human';

  const first: LabelTable = {
    WHEELCHAIR: {
      'n1|n2': yes(),
      'n2|n3': no(),
      'n3|n4': yes(),
      'n4|n5': no(),
      'n5|n6': yes(),
      'n6|n5': no(), // this labelling disagrees with itself on n5–n6
      'n6|n7': yes(), // labelled only here: not compared
    },
    SWEEPER: { 'n1|n2': no(), 'n2|n3': no(), 'n3|n4': yes() },
    HUMAN: { 'n1|n2': yes({ note: autoNote }), 'n2|n3': yes({ note: autoNote }) },
  };
  const second: LabelTable = {
    WHEELCHAIR: {
      'n1|n2': yes(),
      'n2|n1': yes(), // both directions, one judgement
      'n2|n3': yes(),
      'n4|n3': yes(),
      'n4|n5': no(),
      'n5|n6': yes(),
    },
    SWEEPER: { 'n1|n2': no(), 'n2|n3': yes(), 'n3|n4': no() },
    HUMAN: { 'n1|n2': yes({ source: 'auto-approved' }), 'n2|n3': no({ note: 'door shut', source: 'annotator' }) },
  };

  it('per agent: a segment labelled a→b in one and b→a in the other is compared once', () => {
    const r = labelAgreement(first, second);
    const wheelchair = r.perAgent.find((p) => p.agent === 'WHEELCHAIR')!;
    // n1–n2 (T,T), n2–n3 (F,T), n3–n4 (T,T), n4–n5 (F,F): 3 of 4 agree.
    // first: T 2 F 2; second: T 3 F 1 → pe = .5·.75 + .5·.25 = .5; κ = (.75 − .5)/.5 = .5
    expect([wheelchair.compared, wheelchair.agreed]).toEqual([4, 3]);
    expect(wheelchair.cohen.kappa).toBeCloseTo(0.5, 12);
    expect(wheelchair.disagreements).toEqual([{ edge: 'n2|n3', a: false, b: true }]);
    // sweeper: 1 of 3 agree; both T 1/3 F 2/3 → pe = 5/9; κ = (3/9 − 5/9)/(4/9) = −1/2
    const sweeper = r.perAgent.find((p) => p.agent === 'SWEEPER')!;
    expect([sweeper.compared, sweeper.agreed]).toEqual([3, 1]);
    expect(sweeper.cohen.kappa).toBeCloseTo(-0.5, 12);
  });

  it('segments a labelling contradicts itself on, and auto-approved labels, are skipped and listed', () => {
    const r = labelAgreement(first, second);
    expect(r.skipped).toEqual([
      { agent: 'WHEELCHAIR', edge: 'n5|n6', why: 'direction-conflict' },
      { agent: 'HUMAN', edge: 'n1|n2', why: 'auto-approved' }, // auto-approved by source in the second table
      { agent: 'HUMAN', edge: 'n2|n3', why: 'auto-approved' }, // auto-approved by note in the first table only
    ]);
    const human = r.perAgent.find((p) => p.agent === 'HUMAN')!;
    expect(human.compared).toBe(0);
    expect(human.cohen.kappa).toBeNull();
  });

  it("overall κ pools every agent's compared segments", () => {
    const r = labelAgreement(first, second);
    // 7 segments, 4 agree; first T 3 F 4, second T 4 F 3 → pe = 24/49; κ = (28/49 − 24/49)/(25/49) = 4/25
    expect([r.overall.compared, r.overall.agreed]).toEqual([7, 4]);
    expect(r.overall.cohen.kappa).toBeCloseTo(0.16, 12);
  });

  it("includeAutoApproved counts the unrestricted human's labels too", () => {
    const r = labelAgreement(first, second, { includeAutoApproved: true });
    const human = r.perAgent.find((p) => p.agent === 'HUMAN')!;
    // (T,T) (T,F): po = .5; first all T, second half T → pe = .5 → κ = 0
    expect([human.compared, human.agreed, human.cohen.kappa]).toEqual([2, 1, 0]);
    expect(r.skipped.map((s) => s.why)).toEqual(['direction-conflict']);
    // 9 segments, 5 agree; first T 5 F 4, second T 5 F 4 → pe = 41/81; κ = (45 − 41)/(81 − 41) = 0.1
    expect([r.overall.compared, r.overall.agreed]).toEqual([9, 5]);
    expect(r.overall.cohen.kappa).toBeCloseTo(0.1, 12);
  });
});
