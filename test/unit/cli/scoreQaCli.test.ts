import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyProject, type Project } from '../../../src/core/project.ts';
import type { QaScoresFile } from '../../../src/cli/scoreQa.ts';
import type { Answer } from '../../../src/core/vqa/item.ts';
import { createWrittenItem } from '../../../src/core/vqa/items.ts';
import { exportQaBundle } from '../../../src/formats/qa/bundle.ts';
import { navGraph, sceneOf } from '../../support/sceneBuilder.ts';
import { traversa } from '../../support/cli.ts';

// `score-qa` run as a user runs it (the bundled entry `npm run cli` uses), on a bundle the studio
// exported: two models' answers to five accepted items, one per capability and one general.

const AT = '2026-05-01T10:00:00.000Z';
const tmp = mkdtempSync(join(tmpdir(), 'traversa-score-qa-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function project(): Project {
  const p = emptyProject('House QA');
  p.scenes.push(sceneOf({ id: 'house', graph: navGraph(['hall-kitchen']) }));
  const add = (question: string, answer: Answer, capability: string, status: 'accepted' | 'pending' = 'accepted') =>
    p.qa.items.push({
      ...createWrittenItem(p.qa.items, { sceneId: 'house', author: 'dee', createdAt: AT, question, answer, category: { capability } }),
      status,
    });
  add(
    'Which room is by the front door?',
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
  add('How wide is the kitchen door?', { kind: 'numeric', value: 0.8, unit: 'm', tolerance: 0.1 }, 'physical');
  add('What did the robot pass before the kitchen?', { kind: 'freetext', reference: 'The hall.' }, 'temporal');
  add('Do houses usually have a roof?', { kind: 'yesno', correct: false }, 'general');
  add('Is this a draft?', { kind: 'yesno', correct: true }, 'spatial', 'pending');
  return p;
}

const bundleDir = join(tmp, 'bundle');
const answersDir = join(tmp, 'answers');
{
  const bundle = exportQaBundle(project(), { createdAt: AT, appVersion: '0.1.0' });
  if (!bundle.ok) throw new Error('the bundle should export');
  for (const f of bundle.files) {
    mkdirSync(join(bundleDir, f.path, '..'), { recursive: true });
    writeFileSync(join(bundleDir, f.path), f.text);
  }
  mkdirSync(answersDir);
  // vlm-a: SPA 100, SEM 0, PHY 0.76 for 0.8 m at τ 0.1 → 50, TEM judged 80; its qa_5 line is broken (missing → 0), and it answers an item that does not exist.
  writeFileSync(
    join(answersDir, 'vlm-a.jsonl'),
    [
      '{"id": "qa_1", "answer": "The answer is (A)."}',
      '{"id": "qa_2", "answer": "No, it is not possible"}',
      '{"id": "qa_3", "answer": "About 0.76 m"}',
      '{"id": "qa_4", "answer": "It passed the hall.", "judgeScore": 80}',
      '{"id": "qa_5", "answer": }',
      '{"id": "qa_77", "answer": "yes"}',
    ].join('\n') + '\n',
  );
  writeFileSync(
    join(answersDir, 'vlm-b.jsonl'),
    [
      '{"id": "qa_1", "answer": "A", "model": "oracle-ish"}',
      '{"id": "qa_2", "answer": "Yes.", "model": "oracle-ish"}',
      '{"id": "qa_3", "answer": "0.8", "model": "oracle-ish"}',
      '{"id": "qa_4", "answer": "The hall.", "model": "oracle-ish", "judgeScore": 100}',
      '{"id": "qa_5", "answer": "no", "model": "oracle-ish"}',
    ].join('\n') + '\n',
  );
}

const capabilityMeans = (m: QaScoresFile['models'][number]) =>
  Object.fromEntries(Object.entries(m.embodied4c.benchmarks.qa!.capabilities).map(([c, s]) => [c, s.mean]));

describe('traversa score-qa', () => {
  const json = traversa('score-qa', '--gt', bundleDir, '--pred', answersDir, '--json');
  const text = traversa('score-qa', '--gt', bundleDir, '--pred', answersDir);
  const overridden = traversa(
    'score-qa',
    '--gt',
    join(bundleDir, 'qa/items.jsonl'),
    '--pred',
    join(answersDir, 'vlm-a.jsonl'),
    '--tau',
    '0.01',
    '--averaging',
    'micro',
    '--out',
    join(tmp, 'out'),
  );

  it("scores each model's answers per capability, lists what is missing or unmatched, and reports the broken line", async () => {
    const { code, stdout, stderr } = await json;
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as QaScoresFile;
    expect(r.items).toBe(5);
    expect(r.models.map((m) => m.model)).toEqual(['vlm-a', 'oracle-ish']);
    const [a, b] = r.models;
    expect(capabilityMeans(a!)).toEqual({ semantic: 0, spatial: 100, temporal: 80, physical: expect.closeTo(50, 9) });
    expect(a!.embodied4c.benchmarks.qa!.vqa.mean).toBeCloseTo(57.5, 9);
    expect(a!.embodied4c.general.mean).toBe(0);
    expect([a!.missing, a!.unmatched, a!.freetext.judged]).toEqual([['qa_5'], [{ id: 'qa_77', reply: 'yes' }], 1]);
    expect([a!.mcq.accuracy, a!.yesno.accuracy, a!.yesno.n]).toEqual([100, 0, 2]);
    expect([b!.embodied4c.benchmarks.qa!.vqa.mean, b!.embodied4c.general.mean]).toEqual([100, 100]);
    expect(r.settings).toMatchObject({ tau: 'per item', averaging: 'macro' });
    expect(r.problems.map((p) => `${p.file} ${p.location}`)).toEqual([expect.stringMatching(/^vlm-a\.jsonl line 5, column \d+$/)]);
    expect(stderr).toMatch(/vlm-a\.jsonl line 5, column \d+: error: /);
  }, 60_000);

  it('prints the capability table and the answer-kind table', async () => {
    const { code, stdout } = await text;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^model\s+items\s+SEM\s+SPA\s+TEM\s+PHY\s+VQA\s+GEN\s+outside \(n\)$/m);
    expect(stdout).toMatch(/^vlm-a\s+5\s+0\.00\s+100\.00\s+80\.00\s+50\.00\s+57\.50\s+0\.00\s+–$/m);
    expect(stdout).toMatch(/^model\s+MCQ acc\s+MCQ fail\s+Y\/N acc\s+Y\/N fail\s+numeric\s+free judged\s+missing\s+unmatched\s+duplicates$/m);
    expect(stdout).toMatch(/^vlm-a\s+100\.00\s+0\.00\s+0\.00\s+0\.00\s+50\.00\s+1\/1\s+1\s+1\s+0$/m);
    expect(stdout).toMatch(/^oracle-ish\s+5\s+100\.00\s+100\.00\s+100\.00\s+100\.00\s+100\.00\s+100\.00/m);
    expect(stdout).toContain('no answer (scored 0): qa_5');
    expect(stdout).toContain('answers to no item (not scored): qa_77');
  }, 60_000);

  it('reads items.jsonl as well, takes one τ for every numeric item, and writes the report files into --out', async () => {
    const { code } = await overridden;
    expect(code).toBe(0);
    const r = JSON.parse(readFileSync(join(tmp, 'out', 'qa_scores.json'), 'utf8')) as QaScoresFile;
    expect(r.settings).toMatchObject({ tau: 0.01, averaging: 'micro' });
    // 0.76 for 0.8 m is 5 % off, beyond τ = 1 %: PHY 0, VQA (100 + 0 + 0 + 80) / 4 items.
    expect(capabilityMeans(r.models[0]!).physical).toBe(0);
    expect(r.models[0]!.embodied4c.benchmarks.qa!.vqa.mean).toBe(45);
    const rows = readFileSync(join(tmp, 'out', 'qa_scored_items.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { model: string; id: string; score: number });
    expect(rows.map((x) => [x.model, x.id, x.score])).toEqual([
      ['vlm-a', 'qa_1', 100],
      ['vlm-a', 'qa_2', 0],
      ['vlm-a', 'qa_3', 0],
      ['vlm-a', 'qa_4', 80],
      ['vlm-a', 'qa_5', 0],
    ]);
  }, 60_000);

  it('exits 2 on bad arguments and 1 when the ground truth cannot be read', async () => {
    const broken = join(tmp, 'broken.json');
    writeFileSync(broken, '{"format": "traversa-qa", "items": [');
    const runs = await Promise.all([
      traversa('score-qa', '--gt', bundleDir, '--pred', answersDir, '--averaging', 'mean'),
      traversa('score-qa', '--gt', bundleDir),
      traversa('score-qa', '--gt', bundleDir, '--pred', answersDir, '--tau', '-1'),
      traversa('score-qa', '--gt', join(tmp, 'nowhere'), '--pred', answersDir),
      traversa('score-qa', '--gt', answersDir, '--pred', answersDir),
      traversa('score-qa', '--gt', broken, '--pred', answersDir),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 1, 1, 1]);
    expect(runs.every((r) => r.stdout === '' && r.stderr.includes('traversa: '))).toBe(true);
    expect(runs[5]!.stderr).toMatch(/broken\.json line 1, column \d+: fatal: /);
    expect(existsSync(join(tmp, 'nowhere'))).toBe(false);
  }, 60_000);
});
