import { describe, expect, it } from 'vitest';
import { importedTrailJudge } from '../../../../src/core/scoring/judges/trail.ts';
import { parseTrailScores } from '../../../../src/core/scoring/judges/trailPrompt.ts';
import { scoreQaAnswers, type QaPrediction, type QaTruth } from '../../../../src/core/scoring/vqa/qaAnswers.ts';
import { judgeTrailsNow, scoreTrails, trailRequests } from '../../../../src/core/scoring/vqa/trails.ts';
import { readQaAnswers } from '../../../../src/formats/qa/answers.ts';
import { readTrailScores } from '../../../../src/formats/qa/trailScores.ts';
import { rubric } from '../../../support/fomerFixture.ts';

const where = (ps: readonly { severity: string; file: string; location: string }[]) => ps.map((p) => `${p.severity} ${p.file} ${p.location}`);

describe("the rubric in a judge's reply", () => {
  it('is read from fenced JSON, numeric strings included; final is kept for open answers', () => {
    const text = 'Here you go:\n```json\n' + JSON.stringify({ ...rubric(7, { Safety: '9' as unknown as number }), final: 4, explanation: 'ok' }) + '\n```';
    expect(parseTrailScores(text)).toEqual({ criteria: rubric(7, { Safety: 9 }), final: 4, explanation: 'ok' });
    expect(parseTrailScores(JSON.stringify({ ...rubric(2), final: null }))).toEqual({ criteria: rubric(2) });
  });

  it('a missing or out-of-range criterion, or a final outside 0–10, is unreadable (asked again), never guessed', () => {
    const { Redundancy: _r, ...nine } = rubric(5);
    expect(parseTrailScores(JSON.stringify(nine))).toEqual({ unreadable: 'the reply\'s "Redundancy" is missing, not 1–10' });
    expect(parseTrailScores(JSON.stringify(rubric(5, { Safety: 11 })))).toEqual({ unreadable: 'the reply\'s "Safety" is 11, not 1–10' });
    expect(parseTrailScores(JSON.stringify({ ...rubric(5), final: 12 }))).toEqual({ unreadable: 'the reply\'s "final" is 12, not 0–10 or null' });
    expect(parseTrailScores('no scores today')).toEqual({ unreadable: 'the reply holds no JSON object' });
  });
});

describe('imported reasoning scores', () => {
  const file = {
    path: 'scores/panel.jsonl',
    text:
      [
        JSON.stringify({ id: 'qa_1', model: 'm', criteria: rubric(8) }),
        '{"id": "qa_2", "criteria": ',
        JSON.stringify({ model: 'm', criteria: rubric(8) }),
        JSON.stringify({ id: 'qa_3', criteria: { ...rubric(6), Clarity: 9 } }),
        JSON.stringify({ id: 'qa_1', model: 'm', criteria: rubric(9), final: 5 }),
      ].join('\n') + '\n',
  };
  const read = readTrailScores(file);

  it('bad lines and entries are reported by file and line and skipped; an unknown criterion is a warning; a repeat replaces the first', () => {
    expect(where(read.problems)).toEqual([
      expect.stringMatching(/^error scores\/panel\.jsonl line 2, column \d+$/),
      'error scores/panel.jsonl line 3 /id',
      'warning scores/panel.jsonl line 4 /criteria/Clarity',
      'warning scores/panel.jsonl line 5',
    ]);
    expect(read.name).toBe('panel');
    const judge = importedTrailJudge(read.entries, read.name);
    const ask = (id: string, model: string) => judge.judge({ id, model, question: '', kind: 'freetext', truth: '', trail: [], reply: '', steps: [] });
    expect(ask('qa_1', 'm')).toEqual({ criteria: rubric(9), final: 5 });
    expect(ask('qa_3', 'anyone')).toEqual({ criteria: rubric(6) });
    expect(ask('qa_1', 'other')).toEqual({ error: 'no imported scores for qa_1 (model other)' });
  });
});

describe('reasoning steps in the answers file', () => {
  it('are read as texts ("title: text" for objects); a steps field of another shape is an error at its line', () => {
    const read = readQaAnswers([
      {
        path: 'a.jsonl',
        text: [
          '{"id": "qa_1", "answer": "B", "steps": ["Look left.", {"title": "Count", "text": "Two doors."}, {"text": "So B."}]}',
          '{"id": "qa_2", "answer": "B", "steps": "Look left."}',
        ].join('\n'),
      },
    ]);
    expect(read.predictions).toEqual([{ id: 'qa_1', model: 'a', reply: 'B', steps: ['Look left.', 'Count: Two doors.', 'So B.'] }]);
    expect(where(read.problems)).toEqual(['error a.jsonl line 2 /steps']);
  });
});

describe('FoMER scores of answers', () => {
  const trail = [{ title: 'Look', text: 'The door is 0.7 m.' }];
  const truth: QaTruth[] = [
    {
      id: 'q1',
      sceneId: 'house',
      question: 'Door wide enough?',
      answer: { kind: 'yesno', correct: true },
      category: { capability: 'physical' },
      source: 'written',
      trail,
    },
    {
      id: 'q2',
      sceneId: 'flat',
      question: 'Which room?',
      answer: {
        kind: 'mcq',
        options: [
          { key: 'A', text: 'x' },
          { key: 'B', text: 'y' },
        ],
        correct: 'A',
      },
      category: { capability: 'semantic' },
      source: 'written',
      trail,
    },
    {
      id: 'q3',
      sceneId: 'flat',
      question: 'Describe.',
      answer: { kind: 'freetext', reference: 'A hall.' },
      category: { capability: 'spatial' },
      source: 'capnav',
      trail,
    },
    { id: 'q4', sceneId: 'flat', question: 'No trail here?', answer: { kind: 'yesno', correct: false }, category: { capability: 'spatial' }, source: 'capnav' },
  ];
  const say = (id: string, reply: string, steps?: string[]): QaPrediction => ({ id, model: 'm', reply, ...(steps ? { steps } : {}) });
  const predictions = [
    say('q1', 'no', ['first try']),
    say('q1', 'yes', ['look', 'yes']),
    say('q2', 'B', ['guess']),
    say('q3', 'A hall', ['hall']),
    say('q4', 'no', ['none']),
  ];
  const judge = importedTrailJudge([
    { id: 'q1', criteria: rubric(9) },
    { id: 'q2', criteria: rubric(5) },
    { id: 'q3', criteria: rubric(6), final: 8 },
    { id: 'q4', criteria: rubric(10) },
  ]);
  const score = (settings: Parameters<typeof scoreTrails>[5]) => {
    const answers = scoreQaAnswers(truth, predictions);
    return scoreTrails(truth, predictions, answers, judgeTrailsNow(trailRequests(truth, predictions), judge), judge.info, settings).models[0]!;
  };

  it("the last answer is judged; an item without a trail is not asked about; free text without a judgeScore takes the judge's final score", () => {
    const requests = trailRequests(truth, predictions);
    expect(requests.map((r) => [r.id, r.steps])).toEqual([
      ['q1', ['look', 'yes']],
      ['q2', ['guess']],
      ['q3', ['hall']],
    ]);
    const m = score({});
    expect(m.items.map((i) => [i.id, i.subset, i.ra, i.fa, i.faFrom])).toEqual([
      ['q1', 'written', 90, 100, 'answer'],
      ['q2', 'written', 50, 0, 'answer'],
      ['q3', 'capnav', 60, 80, 'judge'],
      ['q4', 'capnav', null, 100, 'answer'],
    ]);
    expect(m.items[3]!.note).toBe('the item has no reasoning trail to judge against');
    expect(m.counts).toEqual({ items: 4, withSteps: 4, judged: 3, noAnswer: 0, noSteps: 0, noTrail: 1, notJudged: 0 });
  });

  it("macro averages the subsets' means, micro the items; the subsets can be scenes", () => {
    expect(score({}).reasoning.overall.ra).toBe(((90 + 50) / 2 + 60) / 2);
    expect(score({ averaging: 'micro' }).reasoning.overall.ra).toBeCloseTo((90 + 50 + 60) / 3, 9);
    expect(score({ averaging: 'micro' }).reasoning.overall.fa).toBe(70);
    const byScene = score({ subsets: 'scene' }).reasoning.perSubset;
    expect(Object.fromEntries(Object.entries(byScene).map(([s, v]) => [s, [v.ra, v.nRa, v.fa, v.nFa]]))).toEqual({
      house: [90, 1, 100, 1],
      flat: [55, 2, 60, 3],
    });
  });
});
