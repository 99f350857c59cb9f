import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOMER_CRITERIA } from '../../src/core/scoring/vqa/fomer.ts';
import { completion, hostileJudge } from '../hostile/judgeServer.ts';
import { studio } from '../support/browser.ts';
import { traversa } from '../support/cli.ts';
import { writeReasoningFiles } from '../support/fomerFixture.ts';

// The Score view's QA answers with FoMER's reasoning scores, on the same exported project bundle,
// answers and imported rubric scores as `score-qa`: the page must show the command line's numbers.

const dir = mkdtempSync(join(tmpdir(), 'traversa-qa-fomer-'));
const fx = writeReasoningFiles(dir);

/** The rows of a text table `score-qa` printed, by its header line: each row's cells split on runs of two or more spaces. */
function cliTable(stdout: string, header: RegExp): string[][] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => header.test(l));
  if (at < 0) throw new Error(`no table ${header} in:\n${stdout}`);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.trim()) break;
    rows.push(line.trim().split(/ {2,}/));
  }
  return rows;
}

const KEY = 'sk-fomer-browser-5151';

describe('a researcher scores the reasoning of two models in the browser', () => {
  const { open } = studio();
  /** A judge endpoint that scores every criterion 4 + the number of the model's steps, and an open answer's final 6. */
  let judge: Awaited<ReturnType<typeof hostileJudge>>;
  beforeAll(async () => {
    judge = await hostileJudge((req, res) => {
      const user = (JSON.parse(req.body) as { messages: { content: string }[] }).messages[1]!.content;
      const steps = (user.split("Model's reasoning steps:\n")[1] ?? '').split('\n').filter((l) => /^\d+\. /.test(l)).length;
      completion(
        res,
        JSON.stringify({ ...Object.fromEntries(FOMER_CRITERIA.map((c) => [c.name, 4 + steps])), final: user.startsWith('Question (open-ended)') ? 6 : null }),
      );
    });
  });
  afterAll(async () => {
    await judge.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const cli = traversa('score-qa', '--gt', fx.projectBundle, '--pred', fx.answersA, '--pred', fx.answersB, '--verdicts', fx.scores);

  /** The page of the first test, its answers loaded: the second asks the HTTP judge about the same answers. */
  let page: Page;

  it("opens the exported bundle, loads two answer files one after the other and the judge's scores, and reads the command line's RA/FA table", async () => {
    page = await open();
    await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    await page.getByTestId('import-files').setInputFiles(fx.projectBundle);
    const report = page.getByTestId('import-report');
    await page.waitForFunction(() => /^(Read |Imported )/.test(document.querySelector('[data-testid=import-report]')?.textContent ?? ''));
    if ((await report.textContent())!.startsWith('Read ')) await page.getByTestId('import-as-new').click();
    await expect.poll(() => page.getByTestId('project-name').textContent()).toContain('Sample house reasoning');

    await page.locator('[data-view=score]').click();
    await expect.poll(() => page.getByTestId('qa-answers-status').textContent()).toContain('7 accepted items');
    // Two loads: the second file adds a model, it does not replace the first.
    await page.getByTestId('qa-answers-input').setInputFiles(fx.answersA);
    await page.locator('[data-testid=qa-answers-table] tr[data-model=vlm-a]').waitFor();
    await page.getByTestId('qa-answers-input').setInputFiles(fx.answersB);
    await page.locator('[data-testid=qa-answers-table] tr[data-model=vlm-b]').waitFor();
    expect(await page.locator('[data-testid=qa-answers-table] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-model')))).toEqual([
      'vlm-a',
      'vlm-b',
    ]);
    expect(await page.getByTestId('qa-fomer-status').textContent()).toContain('11 answers with reasoning steps');

    await page.getByTestId('qa-fomer-judge').selectOption('imported');
    await page.getByTestId('qa-fomer-scores-input').setInputFiles(fx.scores);
    await page.getByTestId('qa-fomer-subsets').waitFor();

    const subsetRows = await page
      .locator('[data-testid=qa-fomer-subsets] tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent!.trim())));
    const criterionRows = await page
      .locator('[data-testid=qa-fomer-criteria] tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent!.trim())));
    const { code, stdout } = await cli;
    expect(code).toBe(0);
    expect(subsetRows).toEqual(cliTable(stdout, /^model\s+subset\s+RA\s+n\s+FA\s+n$/));
    expect(criterionRows).toEqual(cliTable(stdout, /^criterion\s+vlm-a \(n\)/));
    // And they are the right numbers (worked out in test/unit/cli/scoreQaFomer.test.ts).
    expect(subsetRows).toContainEqual(['vlm-a', 'macro over subsets', '65.00', '6', '69.17', '7']);
    expect(subsetRows).toContainEqual(['vlm-b', 'macro over subsets', '32.67', '4', '37.50', '7']);
    expect(await page.getByTestId('qa-fomer-problems').textContent()).toContain('trail-scores.json /verdicts/8/criteria/Safety: error: Safety is 0, not 1–10');
    expect(await page.locator('[data-testid=qa-fomer-notes] li[data-model=vlm-b]').textContent()).toContain(
      'not judged: qa_2:HUMAN (judge scores: criterion "Safety" is 0, not 1–10)',
    );

    await page.screenshot({ path: 'tmp/qa-fomer.png', fullPage: false });
    await page.getByTestId('qa-fomer').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'tmp/qa-fomer-tables.png' });

    // Subsets by scene: one scene, so vlm-b's RA is the mean of its four judged items, (30 + 56 + 50 + 20) / 4.
    await page.getByLabel('FoMER subsets').selectOption('scene');
    await expect
      .poll(() => page.locator('[data-testid=qa-fomer-subsets] tr[data-model=vlm-b][data-subset=sample-house] [data-col=ra]').textContent())
      .toBe('39.00');
    expect(await page.locator('[data-testid=qa-fomer-subsets] tbody tr').count()).toBe(4);
  });

  it('asks the HTTP judge from the page (the key only in the request) and shows the same table as score-qa --judge http', async () => {
    await page.getByTestId('qa-fomer-judge').selectOption('http');
    await expect.poll(() => page.getByTestId('qa-fomer-error').textContent()).toContain('endpoint and model');
    await page.getByLabel('Reasoning judge endpoint').fill(judge.url);
    await page.getByLabel('Reasoning judge model').fill('rubric-model');
    await page.getByLabel('Reasoning judge API key').fill(KEY);
    const before = judge.seen.length;
    await page.getByRole('button', { name: 'Judge', exact: true }).click();
    // One scene: vlm-a's RA is the mean of its six judged items, (60 + 50 + 50 + 50 + 50 + 70) / 6.
    await expect
      .poll(() => page.locator('[data-testid=qa-fomer-subsets] tr[data-model=vlm-a][data-subset=sample-house] [data-col=ra]').textContent(), {
        timeout: 20_000,
      })
      .toBe('55.00');
    expect(judge.seen.length - before).toBe(11);
    expect(judge.seen.slice(before).every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    await page.getByLabel('FoMER subsets').selectOption('source');
    await expect.poll(() => page.locator('[data-testid=qa-fomer-subsets] tbody tr').count()).toBe(6);
    expect(judge.seen.length - before).toBe(11); // a change of settings is answered from the session's verdicts
    const subsetRows = await page
      .locator('[data-testid=qa-fomer-subsets] tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent!.trim())));
    expect(await page.getByTestId('qa-fomer').textContent()).toContain(`LLM judge rubric-model at ${judge.url}/chat/completions`);
    await page.getByTestId('qa-fomer').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'tmp/qa-fomer-http.png' });

    Object.assign(process.env, { TRAVERSA_JUDGE_URL: judge.url, TRAVERSA_JUDGE_MODEL: 'rubric-model', TRAVERSA_JUDGE_KEY: KEY });
    try {
      const { code, stdout } = await traversa(
        'score-qa',
        '--gt',
        fx.projectBundle,
        '--pred',
        fx.answersA,
        '--pred',
        fx.answersB,
        '--judge',
        'http',
        '--cache',
        join(dir, 'cache.json'),
      );
      expect(code).toBe(0);
      expect(subsetRows).toEqual(cliTable(stdout, /^model\s+subset\s+RA\s+n\s+FA\s+n$/));
    } finally {
      for (const k of ['TRAVERSA_JUDGE_URL', 'TRAVERSA_JUDGE_MODEL', 'TRAVERSA_JUDGE_KEY']) delete process.env[k];
    }
    // vlm-a: CapNav qa_1 2 steps → 60, qa_2, qa_3 → 50; written qa_5, qa_6 → 50, qa_7 3 steps → 70.
    expect(subsetRows).toContainEqual(['vlm-a', 'capnav', '53.33', '3', '75.00', '4']);
    expect(subsetRows).toContainEqual(['vlm-a', 'written', '56.67', '3', '63.33', '3']);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('qa-answers-export').click()]);
    const exported = readFileSync((await download.path())!, 'utf8');
    expect(exported).not.toContain(KEY);
    expect((JSON.parse(exported) as { fomer: { settings: { judge: { kind: string } } } }).fomer.settings.judge.kind).toBe('http');
  });
});
