import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../../src/core/scoring/paper/answer.ts';
import { ruleJudge } from '../../../src/core/scoring/judges/rule.ts';
import { scorePaperSync } from '../../../src/core/scoring/paper/score.ts';
import { parseFreeText } from '../../../src/formats/predictions/freeText.ts';
import { readPredictionJsonl, toPredictionJsonl } from '../../../src/formats/predictions/jsonl.ts';
import { readPredictions } from '../../../src/formats/predictions/read.ts';
import { scoringHouse } from '../../support/scoreSupport.ts';
import { REPO } from '../../support/cli.ts';

const RESULTS = join(REPO, 'test/fixtures/scoring/results');

function tree(root: string): { path: string; text: string }[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ path: relative(root, join(e.parentPath, e.name)).split('\\').join('/'), text: readFileSync(join(e.parentPath, e.name), 'utf8') }));
}

describe('reading a results folder', () => {
  const { predictions, problems } = readPredictions(tree(RESULTS), 'results');
  const byFile = (f: string) => predictions.filter((p) => p.file.endsWith(f));

  it('runner files: the model is the model-setting folder; every item becomes a prediction, values kept as written', () => {
    expect(byFile('batch1.json').map((p) => [p.model, p.scene, p.agent, p.answer, p.path, p.reason])).toEqual([
      ['model-a_16f', 'HOUSE01', 'WHEELCHAIR', 'no', ['hall', 'living', 'landing', 'bedroom'], 'The wheelchair cannot go up the stairs to the landing.'],
      ['model-a_16f', 'HOUSE01', 'WHEELCHAIR', 'true', ['Front hall', 'Kitchen'], ''],
      ['model-a_16f', 'HOUSE01', 'WHEELCHAIR', '(B) False', ['kitchen', 'hall', 'bath'], 'the bathroom door is too narrow | too tight'],
      ['model-a_16f', 'HOUSE01', 'ROBOT', 'Maybe', ['kitchen', 'hall', 'bath'], ''],
    ]);
    expect(byFile('batch1.json').map((p) => p.location)).toEqual(['/result/0', '/result/1', '/result/2', '/result/4']);
  });

  it('an item without agent or question takes them from the prompt-file name (q02 = the second question)', () => {
    expect(byFile('HOUSE01_q02_SWEEPER.json')).toMatchObject([{ scene: 'HOUSE01', agent: 'SWEEPER', question: '', questionIndex: 1, answer: '(B)' }]);
  });

  it('.txt files: each "Answer:" line is a record, identified by its own fields or by the file\'s name and folders', () => {
    expect(byFile('.txt').map((p) => [p.file, p.model, p.agent, p.question || p.questionIndex, p.answer, p.path])).toEqual([
      ['model-b/HOUSE01/HOUSE01_q03_HUMAN.txt', 'model-b', 'HUMAN', 2, '(A) True', ['hall', 'kitchen']],
      [
        'model-b/HOUSE01/notes.txt',
        'model-b',
        'QUADRUPEDAL',
        'Can [Agent] move from the front hall to the master bedroom?',
        'yes',
        ['hall', 'living', 'landing', 'bedroom'],
      ],
    ]);
  });

  it('JSONL: one prediction per line; a question index may stand in for the text', () => {
    expect(byFile('extra.jsonl').map((p) => [p.model, p.agent, p.question || p.questionIndex, p.path])).toEqual([
      ['model-c', 'HUMAN', 'Can [Agent] move from the front hall to the kitchen?', ['hall', 'kitchen']],
      ['model-c', 'SWEEPER', 0, ['hall', 'living', 'landing', 'bedroom']],
    ]);
  });

  it('every problem names its file and place; a malformed file does not stop the others', () => {
    expect(problems.map((p) => [p.file, p.location, p.code])).toEqual([
      ['extra.jsonl', 'line 4', 'predictions.item'],
      ['extra.jsonl', 'line 5', 'predictions.malformed'],
      ['model-a_16f/HOUSE01/HOUSE01_q02_SWEEPER.json', '/scene', 'predictions.no-scene'],
      ['model-a_16f/HOUSE01/batch1.json', '/result/3', 'predictions.item'],
      ['model-a_16f/HOUSE01/broken.json', 'line 1, column 66', 'predictions.malformed'],
      ['model-b/HOUSE01/notes.txt', 'line 2', 'predictions.item'],
    ]);
    expect(problems.find((p) => p.file.endsWith('notes.txt'))!.message).toMatch(/no question/);
  });

  it('what was read scores against the house: names, booleans, the old text form and ROBOT all land', () => {
    const report = scorePaperSync(scoringHouse(), predictions, { judge: ruleJudge() });
    expect(report.unmatched).toEqual([]);
    const a = report.records.filter((r) => r.model === 'model-a_16f');
    // Files are read in path order (upper case first). The sweeper has no labels: its route has no blocked hop with a note.
    expect(a.map((r) => [r.agent, r.questionIndex, r.answer, r.outcome, r.pathValid, r.rv])).toEqual([
      ['SWEEPER', 1, 'no', 'TN', true, 0],
      ['WHEELCHAIR', 0, 'no', 'TN', true, 1],
      ['WHEELCHAIR', 2, 'yes', 'TP', true, null],
      ['WHEELCHAIR', 1, 'no', 'TN', true, 1],
      ['HUMANOID', 1, null, 'FP', true, null],
    ]);
  });
});

describe('the older one-line text form', () => {
  it('reads Answer, Path and Reason in any order and case; a reason may hold "|"', () => {
    expect(parseFreeText('answer: (A) True | path: a -> b → c | reason: ok | fine')).toEqual({
      answer: '(A) True',
      path: ['a', 'b', 'c'],
      reason: 'ok | fine',
    });
    expect(parseFreeText('Reason: stairs | Answer: no | Path: x, y')).toEqual({ answer: 'no', path: ['x', 'y'], reason: 'stairs' });
    expect(parseFreeText('I think the answer is yes')).toBeNull();
  });
});

describe('feasibility answers as models write them', () => {
  it.each([
    ['yes', 'yes'],
    ['No', 'no'],
    [' TRUE ', 'yes'],
    ['false', 'no'],
    ['(A)', 'yes'],
    ['(B)', 'no'],
    ['A', 'yes'],
    ['b.', 'no'],
    ['(A) True', 'yes'],
    ['(B) False', 'no'],
    ['A: yes', 'yes'],
    ['"yes"', 'yes'],
    ['Yes.', 'yes'],
    ['Yes, it can reach the kitchen.', 'yes'],
    ['No; the stairs block it', 'no'],
    ['infeasible', 'no'],
    ['not feasible', 'no'],
  ])('%j reads as %s', (raw, want) => expect(parseAnswer(raw)).toBe(want));

  it.each(['', 'maybe', '(A) False', '(C)', 'yes and no', 'The answer is yes', 'Unknown'])('%j is unparseable', (raw) => expect(parseAnswer(raw)).toBeNull());
});

describe('Traversa prediction JSONL', () => {
  it('round-trips the rows the baselines write', () => {
    const rows = [{ model: 'oracle', scene: 'S', question: 'Q?', questionIndex: 3, agent: 'HUMAN', answer: 'yes' as const, path: ['a', 'b'], reason: '' }];
    const back = readPredictionJsonl({ path: 'oracle.jsonl', text: toPredictionJsonl(rows) });
    expect(back.problems).toEqual([]);
    expect(back.predictions).toEqual([
      {
        id: 'oracle.jsonl#line 1',
        file: 'oracle.jsonl',
        location: 'line 1',
        model: 'oracle',
        scene: 'S',
        question: 'Q?',
        questionIndex: 3,
        agent: 'HUMAN',
        answer: 'yes',
        path: ['a', 'b'],
        reason: '',
      },
    ]);
  });

  it('a byte-order mark before the first line (as Windows editors write) loses no prediction (issue 25 §10)', () => {
    const rows = ['A', 'B'].map((q) => ({
      model: 'm',
      scene: 'S',
      question: `${q}?`,
      questionIndex: 0,
      agent: 'HUMAN',
      answer: 'yes' as const,
      path: ['a', 'b'],
      reason: '',
    }));
    const back = readPredictions([{ path: 'm.jsonl', text: `\uFEFF${toPredictionJsonl(rows)}` }]);
    expect(back.problems).toEqual([]);
    expect(back.predictions.map((p) => [p.location, p.question])).toEqual([
      ['line 1', 'A?'],
      ['line 2', 'B?'],
    ]);
  });
});
