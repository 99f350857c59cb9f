import { describe, expect, it } from 'vitest';
import { scoreItem } from '../../../../src/core/scoring/vqa/embodied4c.ts';
import { mcqVqaItem, parseYesNo, scoreQaAnswers, vqaDefinition, type QaPrediction, type QaTruth } from '../../../../src/core/scoring/vqa/qaAnswers.ts';
import type { Answer } from '../../../../src/core/vqa/item.ts';
import { createWrittenItem } from '../../../../src/core/vqa/items.ts';

const item = (id: string, answer: Answer, capability = 'spatial'): QaTruth => ({
  id,
  sceneId: 'house',
  question: `Question ${id}?`,
  answer,
  category: { capability },
});
const yes = (id: string, capability?: string) => item(id, { kind: 'yesno', correct: true }, capability);
const no = (id: string, capability?: string) => item(id, { kind: 'yesno', correct: false }, capability);
const say = (model: string, id: string, reply: string, judgeScore?: number | null): QaPrediction => ({
  id,
  model,
  reply,
  ...(judgeScore !== undefined ? { judgeScore } : {}),
});

const ROOMS: Answer = {
  kind: 'mcq',
  options: [
    { key: 'A', text: 'Kitchen' },
    { key: 'B', text: 'Bedroom 1' },
    { key: 'C', text: 'Study' },
  ],
  correct: 'B',
};

describe('multiple-choice answers to an item: the option is read after MetaVQA', () => {
  // Each reply comes from another model, so each is scored on its own.
  const replies: [string, string | null, number][] = [
    ['B', 'B', 100],
    ['(b)', 'B', 100],
    ['It must be Bedroom 1, the only room upstairs.', 'B', 100],
    ['I first thought A, but the answer is C', 'C', 0],
    ['I am not sure', null, 0],
    ['E', null, 0],
  ];
  const report = scoreQaAnswers(
    [item('qa_1', ROOMS, 'semantic')],
    replies.map(([r], i) => say(`m${i}`, 'qa_1', r)),
  );

  it.each(replies.map((r, i) => [i, ...r] as const))('model m%i replying %j: option %s, score %i', (i, _reply, parsed, score) => {
    const row = report.models[i]!.items[0]!;
    expect([row.parsed, row.score]).toEqual([parsed, score]);
    if (parsed === null) expect(row.note).toBe('unparseable option');
  });

  it("each score is what Embodied4C's scoreItem gives the item as a multiple-choice VqaItem", () => {
    const a = ROOMS as Extract<Answer, { kind: 'mcq' }>;
    expect(report.models.map((m) => m.items[0]!.score)).toEqual(replies.map(([r]) => scoreItem(mcqVqaItem('qa_1', 'semantic', a, r), 0.01).score));
  });

  it('the correct key and its option text are the truth shown', () => {
    expect(report.models[0]!.items[0]!.truth).toBe('B (Bedroom 1)');
  });

  it('accuracy and parse-failure rate are shares of all MCQ items of the model', () => {
    const truth = ['qa_1', 'qa_2', 'qa_3', 'qa_4'].map((id) => item(id, ROOMS));
    const r = scoreQaAnswers(truth, [say('m', 'qa_1', 'B'), say('m', 'qa_2', 'answer: A'), say('m', 'qa_3', 'no idea')]).models[0]!;
    // qa_1 right, qa_2 wrong, qa_3 unparseable, qa_4 not answered (wrong, not a parse failure).
    expect(r.mcq).toEqual({ n: 4, correct: 1, unparseable: 1, missing: 1, accuracy: 25, failRate: 25 });
  });
});

describe('yes/no answers: the word the reply starts with, else its last yes or no', () => {
  it.each([
    ['No, it is not possible', 'no'],
    ['I think yes... but no', 'no'],
    ['Yes.', 'yes'],
    ['**YES** — the door is wide enough', 'yes'],
    ['Yes, there is no obstacle on the way', 'yes'],
    ['The answer is yes', 'yes'],
    ['There is no step there, so yes', 'yes'],
  ])('%j is %s', (reply, want) => expect(parseYesNo(reply)).toBe(want));

  it.each(['Nope', 'Nobody could tell', 'yesterday it was open', 'I cannot tell', ''])('%j gives neither', (reply) => expect(parseYesNo(reply)).toBeNull());

  it('scores 100 or 0, an unparseable reply 0 counted as a parse failure', () => {
    const truth = [yes('qa_1'), no('qa_2'), yes('qa_3'), no('qa_4')];
    const r = scoreQaAnswers(truth, [
      say('m', 'qa_1', 'Yes, it fits.'),
      say('m', 'qa_2', 'No, it is not possible'),
      say('m', 'qa_3', 'I think yes... but no'),
      say('m', 'qa_4', 'Hard to say.'),
    ]).models[0]!;
    expect(r.items.map((i) => [i.parsed, i.score])).toEqual([
      ['yes', 100],
      ['no', 100],
      ['no', 0],
      [null, 0],
    ]);
    expect(r.items[3]!.note).toBe('no yes or no in the reply');
    expect(r.yesno).toEqual({ n: 4, correct: 2, unparseable: 1, missing: 0, accuracy: 50, failRate: 25 });
  });
});

describe("numeric answers: the item's own tolerance is τ unless the settings give one", () => {
  const truth = [
    item('door', { kind: 'numeric', value: 2, unit: 'm', tolerance: 0.1 }, 'physical'),
    item('chairs', { kind: 'numeric', value: 10, unit: '', tolerance: 0 }),
    item('steps', { kind: 'numeric', value: 4, unit: '', tolerance: 0.25 }),
  ];
  const answers = [say('m', 'door', 'About 2.1 m wide.'), say('m', 'chairs', '10 chairs'), say('m', 'steps', 'no idea')];

  it('per item: 2.1 for 2 m at τ 0.1 is 50; 10 of 10 at τ 0 is exact; no number scores 0', () => {
    const r = scoreQaAnswers(truth, answers).models[0]!;
    expect(r.items.map((i) => [i.parsed, i.tau, i.score])).toEqual([
      [2.1, 0.1, expect.closeTo(50, 9)],
      [10, 0, 100],
      [null, 0.25, 0],
    ]);
    expect(r.items[2]!.note).toBe('no number in the reply');
    expect(r.numeric).toEqual({ n: 3, noNumber: 1, missing: 0, mean: expect.closeTo(50, 9) });
  });

  it('τ = 0 accepts only the exact value', () => {
    expect(scoreQaAnswers(truth, [say('m', 'chairs', 'eleven, I mean 11')]).models[0]!.items[1]!.score).toBe(0);
  });

  it('an override applies to every numeric item: τ 0.5 makes 2.1 m score 90 and 9.9 chairs 98', () => {
    const r = scoreQaAnswers(truth, [say('m', 'door', '2.1'), say('m', 'chairs', '9.9')], { tau: 0.5 });
    expect(r.settings.tau).toBe(0.5);
    expect(r.models[0]!.items.slice(0, 2).map((i) => [i.tau, i.score])).toEqual([
      [0.5, expect.closeTo(90, 9)],
      [0.5, expect.closeTo(98, 9)],
    ]);
    expect(scoreQaAnswers(truth, answers).settings.tau).toBe('per item');
  });
});

describe('free-text answers carry their judge score', () => {
  it('judged replies score what the judge gave; unjudged ones are listed and left out of the means', () => {
    const truth = ['f1', 'f2', 'f3'].map((id) => item(id, { kind: 'freetext', reference: 'Against the north wall.' }, 'temporal'));
    const r = scoreQaAnswers(truth, [say('m', 'f1', 'By the north wall', 80), say('m', 'f2', 'Somewhere', null), say('m', 'f3', 'On the left')]).models[0]!;
    expect(r.items.map((i) => [i.score, i.note])).toEqual([
      [80, undefined],
      [null, 'not judged'],
      [null, 'not judged'],
    ]);
    expect(r.freetext).toEqual({ n: 3, judged: 1, notJudged: 2, missing: 0, mean: 80 });
    expect(r.embodied4c.benchmarks.qa!.capabilities.temporal).toEqual({ mean: 80, n: 1 });
  });
});

describe('capability means: macro over the four capabilities or micro over their items; GEN and custom capabilities apart', () => {
  // semantic 100, 0 → 50 · spatial 100 · temporal 0 · physical 100, 100, 100, 0 → 75 · general 100 · "navigation" (a custom capability) 100.
  const truth = [
    yes('s1', 'semantic'),
    yes('s2', 'semantic'),
    yes('p1', 'spatial'),
    yes('t1', 'temporal'),
    yes('h1', 'physical'),
    yes('h2', 'physical'),
    yes('h3', 'physical'),
    yes('h4', 'physical'),
    yes('g1', 'general'),
    yes('n1', 'navigation'),
  ];
  const right = new Set(['s1', 'p1', 'h1', 'h2', 'h3', 'g1', 'n1']);
  const answers = truth.map((t) => say('m', t.id, right.has(t.id) ? 'yes' : 'no'));

  it('macro: VQA = (50 + 100 + 0 + 75) / 4 = 56.25', () => {
    const r = scoreQaAnswers(truth, answers, { averaging: 'macro' }).models[0]!;
    const qa = r.embodied4c.benchmarks.qa!;
    expect(Object.fromEntries(Object.entries(qa.capabilities).map(([c, s]) => [c, s.mean]))).toEqual({ semantic: 50, spatial: 100, temporal: 0, physical: 75 });
    expect(qa.vqa).toEqual({ mean: 56.25, n: 8 });
    expect(r.embodied4c.general).toEqual({ mean: 100, n: 1 });
    expect(r.embodied4c.overall.mean).toBe(56.25);
  });

  it('micro: VQA = 5 right of 8 capability items = 62.5; GEN unchanged', () => {
    const r = scoreQaAnswers(truth, answers, { averaging: 'micro' });
    expect(r.settings.averaging).toBe('micro');
    expect(r.models[0]!.embodied4c.benchmarks.qa!.vqa.mean).toBe(62.5);
    expect(r.models[0]!.embodied4c.general.mean).toBe(100);
  });

  it('an item of a custom capability is scored and listed, reported outside the Embodied4C capabilities', () => {
    const r = scoreQaAnswers(truth, answers).models[0]!;
    expect(r.outside).toEqual({ n: 1, mean: 100, capabilities: ['navigation'] });
    expect(r.items.find((i) => i.id === 'n1')).toMatchObject({ reportedAs: 'outside', score: 100 });
    expect(r.items.find((i) => i.id === 'g1')!.reportedAs).toBe('general');
    expect(r.items.find((i) => i.id === 's1')!.reportedAs).toBe('capability');
  });

  it('bootstrap intervals are seeded and bracket the point estimate', () => {
    const a = scoreQaAnswers(truth, answers, { bootstrap: { resamples: 300, seed: 5 } }).models[0]!.embodied4c.benchmarks.qa!.vqa;
    const b = scoreQaAnswers(truth, answers, { bootstrap: { resamples: 300, seed: 5 } }).models[0]!.embodied4c.benchmarks.qa!.vqa;
    expect(a.ci).toEqual(b.ci);
    expect(a.ci![0]).toBeLessThanOrEqual(56.25);
    expect(a.ci![1]).toBeGreaterThanOrEqual(56.25);
  });
});

describe('answers that are missing, match no item, or repeat', () => {
  const truth = [yes('qa_1'), no('qa_2')];
  const r = scoreQaAnswers(truth, [say('gpt', 'qa_1', 'no'), say('gpt', 'qa_9', 'yes'), say('gpt', 'qa_1', 'yes'), say('claude', 'qa_2', 'no')]);
  const [gpt, claude] = r.models;

  it('models are reported in the order they first appear', () => expect(r.models.map((m) => m.model)).toEqual(['gpt', 'claude']));

  it('an item without an answer scores 0 and is listed', () => {
    expect(gpt!.missing).toEqual(['qa_2']);
    expect(gpt!.items[1]).toMatchObject({ id: 'qa_2', reply: null, score: 0, note: 'no prediction (scored 0)' });
    expect(claude!.missing).toEqual(['qa_1']);
    expect(gpt!.yesno).toEqual({ n: 2, correct: 1, unparseable: 0, missing: 1, accuracy: 50, failRate: 0 });
  });

  it('an answer to no item is listed with its reply, not scored', () => {
    expect(gpt!.unmatched).toEqual([{ id: 'qa_9', reply: 'yes' }]);
    expect(claude!.unmatched).toEqual([]);
  });

  it('of two answers to one item the last counts, and the item is listed', () => {
    expect(gpt!.duplicates).toEqual([{ id: 'qa_1', count: 2 }]);
    expect(gpt!.items[0]).toMatchObject({ reply: 'yes', score: 100 });
    expect(gpt!.embodied4c.benchmarks.qa!.capabilities.spatial).toEqual({ mean: 50, n: 2 });
  });

  it('the settings are written into the report', () => {
    expect(r.settings).toEqual({
      tau: 'per item',
      averaging: 'macro',
      bootstrap: { resamples: 0, seed: 1, level: 0.95 },
      benchmark: 'qa',
      missing: 'scored 0',
      duplicates: 'the last one counts',
    });
    expect(r.items).toBe(2);
  });
});

it("the project's own items are ground truth as they are", () => {
  const written = {
    ...createWrittenItem([], {
      sceneId: 'house',
      author: 'ana',
      createdAt: '2026-05-01T10:00:00.000Z',
      question: 'Is the hall lit?',
      answer: { kind: 'yesno', correct: true },
      category: { capability: 'semantic' },
    }),
    status: 'accepted' as const,
  };
  const r = scoreQaAnswers([written], [say('m', written.id, 'Yes')]).models[0]!;
  expect(r.items[0]).toMatchObject({ id: 'qa_1', question: 'Is the hall lit?', truth: 'yes', score: 100 });
});

describe('the VQA line says what was averaged', () => {
  it('macro over the capabilities that have items: "the four" only when all four have some', () => {
    const three = [yes('qa_1', 'semantic'), yes('qa_2', 'spatial'), no('qa_3', 'physical')];
    const answers = [say('m', 'qa_1', 'yes'), say('m', 'qa_2', 'no'), say('m', 'qa_3', 'no')];
    expect(vqaDefinition(scoreQaAnswers(three, answers))).toBe('mean of the 3 capability means that have items (macro; TEM has none)');
    expect(vqaDefinition(scoreQaAnswers([...three, yes('qa_4', 'temporal')], answers))).toBe('mean of the four capability means (macro)');
    expect(vqaDefinition(scoreQaAnswers(three, answers, { averaging: 'micro' }))).toBe('mean of the capability items pooled (micro)');
    // The figure agrees: the mean of the three means (100, 0, 100), not of four.
    expect(scoreQaAnswers(three, answers).models[0]!.embodied4c.benchmarks.qa!.vqa.mean).toBeCloseTo(200 / 3, 10);
  });
});
