import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QaScoresFile } from '../../../src/cli/scoreQa.ts';
import { FOMER_CRITERIA } from '../../../src/core/scoring/vqa/fomer.ts';
import { traversa } from '../../support/cli.ts';
import { ANSWERS_A, writeReasoningFiles } from '../../support/fomerFixture.ts';

// `score-qa` scoring reasoning trails (FoMER RA/FA) as a researcher runs it: the sample house's
// items with trails, exported by the studio's own code as a project bundle and a QA bundle; two
// models' answers with reasoning steps, in two files; a judge's rubric scores imported, or asked
// of an OpenAI-compatible endpoint (a local stand-in here).

const tmp = mkdtempSync(join(tmpdir(), 'traversa-score-qa-fomer-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fx = writeReasoningFiles(tmp);

const run = async (...args: string[]) => {
  const r = await traversa('score-qa', ...args);
  return { ...r, json: r.code === 0 && args.includes('--json') ? (JSON.parse(r.stdout) as QaScoresFile) : null };
};
const subsets = (r: QaScoresFile, model: string) => {
  const m = r.fomer!.models.find((x) => x.model === model)!;
  const round = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);
  return Object.fromEntries(
    [...Object.entries(m.reasoning.perSubset), ['overall', m.reasoning.overall] as const].map(([s, v]) => [s, [round(v.ra), v.nRa, round(v.fa), v.nFa]]),
  );
};

describe('score-qa: FoMER reasoning scores from imported rubric scores', () => {
  const fromProject = run('--gt', fx.projectBundle, '--pred', fx.answersA, '--pred', fx.answersB, '--verdicts', fx.scores, '--json');
  const fromQaBundle = run('--gt', fx.qaBundle, '--pred', fx.answersA, '--pred', fx.answersB, '--verdicts', fx.scores, '--json', '--out', join(tmp, 'out'));
  const text = run('--gt', fx.projectBundle, '--pred', fx.answersA, '--pred', fx.answersB, '--verdicts', fx.scores);

  it("RA and FA per subset (the items' sources) with their n, and the macro over subsets", async () => {
    const { code, json: r, stderr } = await fromProject;
    expect(code).toBe(0);
    // vlm-a: CapNav qa_1..qa_3 judged 8, 6, 4 (qa_4 answered without steps); FA 10, 10, 0 (said no), 10.
    //        written qa_5 9, qa_6 5, qa_7 7; FA MCQ right 10, 0.6 for 0.7 m is beyond τ 0.1 → 0, judged free text 90 → 9.
    expect(subsets(r!, 'vlm-a')).toEqual({ capnav: [60, 3, 75, 4], written: [70, 3, 63.33, 3], overall: [65, 6, 69.17, 7] });
    // vlm-b: qa_1 3, qa_2 out of range (left out), qa_3 the any-model entry 6 × 9 + 2 → 5.6, qa_4 5; qa_5 2; qa_6, qa_7 unanswered (FA 0).
    expect(subsets(r!, 'vlm-b')).toEqual({ capnav: [45.33, 3, 75, 4], written: [20, 1, 0, 3], overall: [32.67, 4, 37.5, 7] });
    expect(r!.fomer!.settings).toMatchObject({
      subsets: 'source',
      averaging: 'macro',
      judge: { kind: 'imported', label: 'imported reasoning scores (test panel)' },
    });
    expect(r!.fomer!.models.find((m) => m.model === 'vlm-b')!.items.find((i) => i.id === 'qa_2:HUMAN')).toMatchObject({
      ra: null,
      fa: 100,
      note: 'judge scores: criterion "Safety" is 0, not 1–10',
    });
    expect(r!.fomer!.models[0]!.items.find((i) => i.id === 'qa_4:HUMAN')).toMatchObject({ ra: null, note: 'no reasoning steps in the answer' });
    expect(stderr).toMatch(/trail-scores\.json \/verdicts\/8\/criteria\/Safety: error: Safety is 0, not 1–10/);
  }, 60_000);

  it('RA per criterion is averaged like RA, and the criteria average to RA', async () => {
    const r = (await fromProject).json!;
    const b = r.fomer!.models.find((m) => m.model === 'vlm-b')!.reasoning;
    // Missing Step of vlm-b: CapNav (3 + 2 + 5) / 3, written 2 → macro 2.667 → 26.67 %; every other criterion 32.67 %.
    expect(b.perCriterion['Missing Step']).toBeCloseTo((((3 + 2 + 5) / 3 + 2) / 2) * 10, 9);
    expect(b.perCriterion['Faithfulness']).toBeCloseTo((((3 + 6 + 5) / 3 + 2) / 2) * 10, 9);
    const mean = FOMER_CRITERIA.reduce((s, c) => s + b.perCriterion[c.name]!, 0) / FOMER_CRITERIA.length;
    expect(mean).toBeCloseTo(b.overall.ra!, 9);
  }, 60_000);

  it('the QA bundle folder gives the same figures as the project bundle, and --out writes the per-item reasoning file', async () => {
    const [a, b] = [(await fromProject).json!, (await fromQaBundle).json!];
    expect(b.fomer!.models.map((m) => m.reasoning)).toEqual(a.fomer!.models.map((m) => m.reasoning));
    const rows = readFileSync(join(tmp, 'out', 'qa_reasoning_items.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { model: string; id: string; ra: number | null; fa: number | null });
    expect(rows.filter((x) => x.model === 'vlm-a').map((x) => [x.id, x.ra, x.fa])).toEqual([
      ['qa_1:HUMAN', 80, 100],
      ['qa_2:HUMAN', 60, 100],
      ['qa_3:HUMAN', 40, 0],
      ['qa_4:HUMAN', null, 100],
      ['qa_5', 90, 100],
      ['qa_6', 50, 0],
      ['qa_7', 70, 90],
    ]);
    expect((JSON.parse(readFileSync(join(tmp, 'out', 'qa_scores.json'), 'utf8')) as QaScoresFile).fomer!.models).toHaveLength(2);
  }, 60_000);

  it('prints RA and FA with n beside each number, the macro line, and RA per criterion per model', async () => {
    const { stdout } = await text;
    expect(stdout).toMatch(/^model\s+subset\s+RA\s+n\s+FA\s+n$/m);
    expect(stdout).toMatch(/^vlm-a\s+capnav\s+60\.00\s+3\s+75\.00\s+4$/m);
    expect(stdout).toMatch(/^vlm-b\s+macro over subsets\s+32\.67\s+4\s+37\.50\s+7$/m);
    expect(stdout).toMatch(/^criterion\s+vlm-a \(n\)\s+vlm-b \(n\)$/m);
    expect(stdout).toMatch(/^Missing Step\s+65\.00 \(6\)\s+26\.67 \(4\)$/m);
    expect(stdout).toMatch(/^RA \(macro over subsets\)\s+65\.00 \(6\)\s+32\.67 \(4\)$/m);
    expect(stdout).toContain('not judged (not in RA): qa_2:HUMAN (judge scores: criterion "Safety" is 0, not 1–10)');
    expect(stdout).toContain('judged by imported reasoning scores (test panel)');
  }, 60_000);
});

describe('score-qa --pred a --pred b', () => {
  const sameModel = join(tmp, 'same-model.jsonl');
  writeFileSync(
    sameModel,
    ANSWERS_A.slice(0, 3)
      .map((a) => JSON.stringify({ ...a, model: 'vlm-b', answer: 'No' }))
      .join('\n') + '\n',
  );

  it('scores both files, each as its own model (it used to score only the last)', async () => {
    const { code, json: r } = await run('--gt', fx.projectBundle, '--pred', fx.answersA, '--pred', fx.answersB, '--json');
    expect(code).toBe(0);
    expect(r!.models.map((m) => m.model)).toEqual(['vlm-a', 'vlm-b']);
    expect(r!.predictions).toEqual([fx.answersA, fx.answersB]);
    expect(r!.fomer).toBeNull();
  }, 60_000);

  it('two files naming the same model are scored apart, and the overlap is reported where the user looks', async () => {
    const json = await run('--gt', fx.projectBundle, '--pred', fx.answersB, '--pred', sameModel, '--json');
    const r = json.json!;
    expect(r.models.map((m) => [m.model, m.items.filter((i) => i.reply !== null).length])).toEqual([
      [`vlm-b (${fx.answersB})`, 5],
      [`vlm-b (${sameModel})`, 3],
    ]);
    expect(r.sameModel).toEqual([
      {
        model: 'vlm-b',
        sharedItems: 3,
        files: [
          { file: fx.answersB, scoredAs: `vlm-b (${fx.answersB})`, answers: 5 },
          { file: sameModel, scoredAs: `vlm-b (${sameModel})`, answers: 3 },
        ],
      },
    ]);
    const { stdout } = await run('--gt', fx.projectBundle, '--pred', fx.answersB, '--pred', sameModel);
    expect(stdout).toContain('model "vlm-b" is named in 2 files, each scored as its own model (3 items answered in more than one):');
    expect(stdout).toContain(`${sameModel}: 3 answers, scored as "vlm-b (${sameModel})"`);
  }, 60_000);
});

describe('score-qa --judge http: the rubric from an OpenAI-compatible endpoint', () => {
  let server: Server;
  let url = '';
  const seen: { auth: string | undefined; body: { messages: { role: string; content: string }[] } }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        const parsed = JSON.parse(body) as (typeof seen)[number]['body'];
        seen.push({ auth: req.headers.authorization, body: parsed });
        const user = parsed.messages[1]!.content;
        // Longer reasoning scores higher: 4 + the number of the model's steps; an open question also gets a final score.
        const steps = (user.split("Model's reasoning steps:\n")[1] ?? '').split('\n').filter((l) => /^\d+\. /.test(l)).length;
        const scores = Object.fromEntries(FOMER_CRITERIA.map((c) => [c.name, 4 + steps]));
        const content = '```json\n' + JSON.stringify({ ...scores, final: user.startsWith('Question (open-ended)') ? 6 : null, explanation: 'fine' }) + '\n```';
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { content } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address() as { port: number };
    url = `http://127.0.0.1:${addr.port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('asks once per answer with steps, never writes the key, and a second run is answered from the cache', async () => {
    const noFinal = join(tmp, 'no-judge-score.jsonl');
    writeFileSync(noFinal, ANSWERS_A.map(({ judgeScore: _j, ...a }) => JSON.stringify(a)).join('\n') + '\n');
    const out = join(tmp, 'http-out');
    Object.assign(process.env, { TRAVERSA_JUDGE_URL: url, TRAVERSA_JUDGE_MODEL: 'rubric-model', TRAVERSA_JUDGE_KEY: 'sk-test-SECRET-4242' });
    try {
      const first = await run('--gt', fx.projectBundle, '--pred', noFinal, '--judge', 'http', '--out', out, '--json');
      expect(first.code).toBe(0);
      expect(seen).toHaveLength(6); // qa_4 has no steps
      expect(seen.every((s) => s.auth === 'Bearer sk-test-SECRET-4242')).toBe(true);
      expect(seen[0]!.body.messages[1]!.content).toContain('Reference reasoning steps:\n1. Reason');
      const m = first.json!.fomer!.models[0]!;
      // qa_1 has 2 steps → 6, the others 1 step → 5, qa_7 3 steps → 7: CapNav (60 + 50 + 50) / 3, written (50 + 50 + 70) / 3.
      expect(m.items.map((i) => i.ra)).toEqual([60, 50, 50, null, 50, 50, 70]);
      // qa_7's answer has no judgeScore here: its FA is the judge's final score, 6 → 60 %.
      expect(m.items.find((i) => i.id === 'qa_7')).toMatchObject({ fa: 60, faFrom: 'judge' });
      expect(first.json!.fomer!.settings.judge).toMatchObject({
        kind: 'http',
        id: `http:rubric-model@${url}/chat/completions`,
        promptVersion: 'fomer-trail-1',
      });
      const cache = readFileSync(join(out, 'judge-cache.json'), 'utf8');
      for (const text of [first.stdout, first.stderr, cache, readFileSync(join(out, 'qa_scores.json'), 'utf8')]) expect(text).not.toContain('SECRET');

      const again = await run('--gt', fx.projectBundle, '--pred', noFinal, '--judge', 'http', '--out', out, '--json');
      expect(seen).toHaveLength(6);
      expect(again.json!.fomer!.models[0]!.reasoning).toEqual(m.reasoning);
    } finally {
      for (const k of ['TRAVERSA_JUDGE_URL', 'TRAVERSA_JUDGE_MODEL', 'TRAVERSA_JUDGE_KEY']) delete process.env[k];
    }
  }, 60_000);
});

describe('score-qa refuses what it cannot score', () => {
  it('bad judge flags exit 2, an unreadable scores file exits 1, each with a message', async () => {
    const broken = join(tmp, 'broken-scores.json');
    writeFileSync(broken, '{"verdicts": [');
    const runs = await Promise.all([
      run('--gt', fx.projectBundle, '--pred', fx.answersA, '--judge', 'rule'),
      run('--gt', fx.projectBundle, '--pred', fx.answersA, '--verdicts', fx.scores, '--subsets', 'dataset'),
      run('--gt', fx.projectBundle, '--pred', fx.answersA, '--judge', 'http'),
      run('--gt', fx.projectBundle, '--pred', fx.answersA, '--verdicts', fx.scores, '--judge', 'http'),
      run('--gt', fx.projectBundle, '--pred', fx.answersA, '--verdicts', fx.scores, '--cache', join(tmp, 'c.json')),
      run('--gt', fx.projectBundle, '--pred', fx.answersA, '--verdicts', broken),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 1]);
    expect(runs.every((r) => r.stdout === '' && r.stderr.includes('traversa: '))).toBe(true);
    expect(runs[1]!.stderr).toContain('--subsets is source, scene, capability, task');
    expect(runs[2]!.stderr).toContain('give --out <dir> or --cache <file>');
    expect(runs[5]!.stderr).toMatch(/broken-scores\.json line 1, column \d+: fatal: /);
    expect(existsSync(join(tmp, 'c.json'))).toBe(false);
  }, 60_000);

  it('answers with steps but no judge: scored as before, with a hint how to score the reasoning', async () => {
    const { code, stdout } = await run('--gt', fx.projectBundle, '--pred', fx.answersA);
    expect(code).toBe(0);
    expect(stdout).toContain('6 answer(s) carry reasoning steps: give --verdicts <file> or --judge http to score them (FoMER RA/FA).');
    expect(stdout).not.toContain('FoMER reasoning scores');
  }, 60_000);
});
