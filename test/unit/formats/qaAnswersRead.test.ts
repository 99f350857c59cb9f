import { describe, expect, it } from 'vitest';
import { emptyProject, type Project } from '../../../src/core/project.ts';
import { scoreQaAnswers } from '../../../src/core/scoring/vqa/qaAnswers.ts';
import type { Answer, QaItem } from '../../../src/core/vqa/item.ts';
import { createWrittenItem } from '../../../src/core/vqa/items.ts';
import { exportQaBundle } from '../../../src/formats/qa/bundle.ts';
import { modelFromPath, readQaAnswers } from '../../../src/formats/qa/answers.ts';
import { readQaGroundTruth } from '../../../src/formats/qa/groundTruth.ts';
import { navGraph, sceneOf } from '../../support/sceneBuilder.ts';

const AT = '2026-05-01T10:00:00.000Z';
const where = (ps: readonly { file: string; location: string; severity: string }[]) => ps.map((p) => `${p.severity} ${p.file} ${p.location}`);

describe("reading a model's answers", () => {
  const file = {
    path: 'runs/gpt-4o.jsonl',
    text:
      [
        '{"id": "qa_1", "answer": "B"}',
        '{"id": "qa_2", "answer": "yes", ',
        '{"id": "qa_3"}',
        '{"id": "qa_4", "answer": "the wall", "judgeScore": 120}',
        '',
        '{"id": "qa_5", "answer": 2.5, "model": "claude", "latency": 1.2}',
        '{"id": "qa_6", "answer": true, "model": "claude", "latency": 0.9, "judgeScore": 70}',
      ].join('\n') + '\n',
  };
  const read = readQaAnswers([file]);

  it('every bad line is reported by file and line, and skipped', () => {
    expect(where(read.problems.filter((p) => p.severity === 'error'))).toEqual([
      expect.stringMatching(/^error runs\/gpt-4o\.jsonl line 2, column \d+$/),
      'error runs/gpt-4o.jsonl line 3 /answer',
      'error runs/gpt-4o.jsonl line 4 /judgeScore',
    ]);
    expect(read.problems.find((p) => p.location === 'line 3 /answer')!.message).toMatch(/reply is missing; answer skipped/);
  });

  it("the other lines are read; the model defaults to the file's name; numbers and true/false become text", () => {
    expect(read.predictions).toEqual([
      { id: 'qa_1', model: 'gpt-4o', reply: 'B' },
      { id: 'qa_5', model: 'claude', reply: '2.5' },
      { id: 'qa_6', model: 'claude', reply: 'yes', judgeScore: 70 },
    ]);
    expect(modelFromPath('a/b/llava-1.6.v2.jsonl')).toBe('llava-1.6.v2');
  });

  it('an unknown field is a warning once per file, at its first line', () => {
    expect(read.problems.filter((p) => p.severity === 'warning').map((p) => p.location)).toEqual(['line 6 /latency']);
  });

  it('the answers that were read are scored, the skipped items count as missing', () => {
    const truth = ['qa_1', 'qa_2'].map((id) => ({
      id,
      sceneId: 's',
      question: '?',
      answer: {
        kind: 'mcq',
        options: [
          { key: 'A', text: 'x' },
          { key: 'B', text: 'y' },
        ],
        correct: 'B',
      } as Answer,
      category: { capability: 'semantic' },
    }));
    const gpt = scoreQaAnswers(truth, read.predictions).models[0]!;
    expect(gpt.items.map((i) => i.score)).toEqual([100, 0]);
    expect(gpt.missing).toEqual(['qa_2']);
  });
});

function bundleProject(): Project {
  const p = emptyProject('QA');
  p.scenes.push(sceneOf({ id: 'house', graph: navGraph(['hall-kitchen']) }));
  const add = (question: string, answer: Answer, capability: string) => {
    const it: QaItem = {
      ...createWrittenItem(p.qa.items, { sceneId: 'house', author: 'dee', createdAt: AT, question, answer, category: { capability } }),
      status: 'accepted',
    };
    p.qa.items.push(it);
  };
  add(
    'Which room is by the door?',
    {
      kind: 'mcq',
      options: [
        { key: 'A', text: 'Hall' },
        { key: 'B', text: 'Kitchen' },
      ],
      correct: 'A',
    },
    'spatial',
  );
  add('Is the kitchen lit?', { kind: 'yesno', correct: true }, 'semantic');
  add('How wide is the door?', { kind: 'numeric', value: 0.8, unit: 'm', tolerance: 0.1 }, 'physical');
  p.qa.items.push({
    ...createWrittenItem(p.qa.items, {
      sceneId: 'house',
      author: 'dee',
      createdAt: AT,
      question: 'Draft?',
      answer: { kind: 'yesno', correct: false },
      category: { capability: 'spatial' },
    }),
  });
  return p;
}

describe('reading the ground truth from a QA bundle', () => {
  const bundle = exportQaBundle(bundleProject(), { createdAt: AT, appVersion: '0.1.0' });
  if (!bundle.ok) throw new Error('the bundle should export');
  const file = (path: string) => bundle.files.find((f) => f.path === path)!;

  it('items.json and items.jsonl give the same accepted items, with the fields scoring needs', () => {
    const json = readQaGroundTruth(file('qa/items.json'));
    const jsonl = readQaGroundTruth(file('qa/items.jsonl'));
    expect(json.problems).toEqual([]);
    expect(json.items.map((i) => [i.id, i.answer.kind, i.category])).toEqual([
      ['qa_1', 'mcq', { capability: 'spatial' }],
      ['qa_2', 'yesno', { capability: 'semantic' }],
      ['qa_3', 'numeric', { capability: 'physical' }],
    ]);
    expect(jsonl).toEqual(json);
  });

  it('a bad record is reported by file and pointer or line and left out; a repeated id too', () => {
    const doc = JSON.parse(file('qa/items.json').text) as { items: Record<string, unknown>[] };
    doc.items[1] = { ...doc.items[1], answer: { kind: 'essay' } };
    doc.items.push({ ...doc.items[0]! });
    delete doc.items[2]!.sceneId;
    const json = readQaGroundTruth({ path: 'b/qa/items.json', text: JSON.stringify(doc) });
    expect(json.items.map((i) => i.id)).toEqual(['qa_1']);
    expect(where(json.problems)).toEqual([
      'error b/qa/items.json /items/1/answer/kind',
      'error b/qa/items.json /items/2/sceneId',
      'error b/qa/items.json /items/3/id',
    ]);

    const lines = file('qa/items.jsonl').text.split('\n');
    lines[2] = lines[2]!.replace('"capability":"physical"', '"capability":7');
    lines[1] = '{ not json';
    const jsonl = readQaGroundTruth({ path: 'items.jsonl', text: lines.join('\n') });
    expect(jsonl.items.map((i) => i.id)).toEqual(['qa_1']);
    expect(where(jsonl.problems)).toEqual([expect.stringMatching(/^error items\.jsonl line 2, column \d+$/), 'error items.jsonl line 3 /category/capability']);
  });

  it('another format or a newer version yields no items', () => {
    const doc = JSON.parse(file('qa/items.json').text) as Record<string, unknown>;
    expect(where(readQaGroundTruth({ path: 'x.json', text: JSON.stringify({ ...doc, format: 'other' }) }).problems)).toEqual(['fatal x.json /format']);
    const newer = readQaGroundTruth({ path: 'x.json', text: JSON.stringify({ ...doc, formatVersion: 2 }) });
    expect([newer.items, where(newer.problems)]).toEqual([[], ['fatal x.json /formatVersion']]);
  });
});
