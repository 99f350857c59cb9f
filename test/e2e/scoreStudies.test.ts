import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { importFolder, studio } from '../support/browser.ts';
import { REPO, traversa } from '../support/cli.ts';
import { generateResults } from '../support/compatFixtures.ts';

const SAMPLE = join(REPO, 'scenes', 'sample-house');

function writeModels(root: string, models: [string, number][]): void {
  for (const [model, seed] of models) {
    for (const f of generateResults(SAMPLE, seed, { model, broken: false }).files) {
      mkdirSync(dirname(join(root, f.path)), { recursive: true });
      writeFileSync(join(root, f.path), f.text);
    }
  }
}

/**
 * Issue 23 §12: the two figures the paper draws that the Score view lacked — score by frame budget
 * per model (Figure 6, from settings named `…_16f`, `…_32f`, `…_1fps`) and score by task length —
 * drawn from the same figures the command line writes. Issue 27 §5: the same by input variant, from
 * settings named as run-model names them (`gpt-4o_16f_with-depth+graph`).
 */
describe('score by frame budget and by path length', () => {
  const { profile, url } = studio();
  const tmp = mkdtempSync(join(tmpdir(), 'traversa-studies-'));
  let page: Page;

  beforeAll(() => {
    writeModels(join(tmp, 'one'), [['solo', 5]]);
    writeModels(join(tmp, 'budgets'), [
      ['gem_16f', 11],
      ['gem_32f', 12],
      ['gem_1fps', 13],
      ['qwen_16f', 14],
      ['qwen_64f', 15],
      ['solo', 5],
    ]);
    writeModels(join(tmp, 'variants'), [
      ['gpt-4o_16f_with-depth+graph', 21],
      ['gpt-4o_16f', 22],
      ['gpt-4o_16f_with-map', 23],
      ['gpt-4o_16f_with-depth', 24],
      ['gpt-4o_32f', 25],
      ['gpt-4o_32f_with-depth', 26],
      ['solo', 5],
    ]);
  });

  const score = async (folder: string) => {
    await page.getByTestId('load-predictions').setInputFiles(join(tmp, folder));
    await expect.poll(() => page.getByTestId('prediction-files').textContent()).toMatch(new RegExp(`files from ${folder}`));
    await page.getByTestId('run-score').click();
    await page.locator('[data-testid=score-table] tr[data-model=solo]').waitFor({ timeout: 60_000 });
  };
  const bar = (chart: string, row: string, series: string) => page.locator(`[data-testid=${chart}] [data-row="${row}"] [data-series="${series}"]`);
  const attrs = (chart: string, sel: string, attr: string) =>
    page.locator(`[data-testid=${chart}] ${sel}`).evaluateAll((xs, a) => xs.map((x) => x.getAttribute(a)), attr);
  const tableScore = (setting: string) => page.locator(`[data-testid=score-table] tr[data-model="${setting}"] td[data-col=capnav] .v`).textContent();

  it('without runs at two budgets, says how to name them; the length chart is there', async () => {
    page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, SAMPLE);
    await page.keyboard.press('4');
    await score('one');
    expect(await page.getByTestId('chart-budget').count()).toBe(0);
    expect(await page.getByTestId('chart-budget-empty').textContent()).toContain('_16f');
    expect(await page.getByTestId('chart-length').count()).toBe(1);
    expect(await page.getByTestId('chart-variant').count()).toBe(0);
    expect(await page.getByTestId('chart-variant-empty').textContent()).toContain('eval-inputs --with depth,map,graph');
  });

  it("draws each model's budgets in order, and the task-length buckets, with the command line's figures", async () => {
    await score('budgets');
    const chart = page.getByTestId('chart-budget');
    await chart.waitFor();
    expect(await chart.locator('[data-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')))).toEqual(['gem', 'qwen']);
    expect(await chart.locator('[data-row=gem] [data-series]').evaluateAll((b) => b.map((x) => x.getAttribute('data-series')))).toEqual([
      '16 frames',
      '32 frames',
      '64 frames',
      '1 fps',
    ]);
    expect(await bar('chart-budget', 'gem', '64 frames').locator('title').textContent()).toContain('not run');

    const out = join(tmp, 'scored');
    const cli = await traversa('score', '--gt', SAMPLE, '--pred', join(tmp, 'budgets'), '--out', out, '--json', '--table2');
    expect(cli.code, cli.stderr).toBe(0);
    const models = JSON.parse(readFileSync(join(out, 'scored_summary.json'), 'utf8')).models;
    for (const [setting, model, budget] of [
      ['gem_16f', 'gem', '16 frames'],
      ['gem_1fps', 'gem', '1 fps'],
      ['qwen_64f', 'qwen', '64 frames'],
    ]) {
      const v = Number(await bar('chart-budget', model!, budget!).getAttribute('data-value'));
      expect(v, setting).toBeCloseTo(models[setting!].headline.capnav, 6);
      // The score table shows the same figure for that setting.
      expect(await page.locator(`[data-testid=score-table] tr[data-model="${setting}"] td[data-col=capnav] .v`).textContent()).toBe(v.toFixed(2));
    }

    const buckets: { label: string; metrics: { capnav: number; n: { records: number } } }[] = models.solo.byPathLength;
    expect(buckets.length).toBeGreaterThan(1);
    expect(buckets.reduce((n, b) => n + b.metrics.n.records, 0)).toBe(models.solo.counts.records);
    for (const b of buckets) expect(Number(await bar('chart-length', b.label, 'solo').getAttribute('data-value'))).toBeCloseTo(b.metrics.capnav, 6);

    // Table 2 from the studio is the command line's, byte for byte (CSV and LaTeX).
    for (const ext of ['csv', 'tex']) {
      const file = page.waitForEvent('download');
      await page.getByTestId(`export-table2-${ext}`).click();
      expect(readFileSync((await (await file).path())!, 'utf8'), `table2.${ext}`).toBe(readFileSync(join(out, `table2.${ext}`), 'utf8'));
    }

    const svg = page.waitForEvent('download');
    await page.getByTestId('chart-budget-svg').click();
    const text = readFileSync((await (await svg).path())!, 'utf8');
    expect(text).toContain('gem_16f');
    expect(text).toContain('CapNav by frame budget');
    await chart.screenshot({ path: join(tmp, 'budget.png') });
    await page.getByTestId('chart-length').screenshot({ path: join(tmp, 'length.png') });
    console.log(`screenshots: ${tmp}`);
  });

  it('draws each model and budget by input variant, and the budget chart per variant, with the figures of the table', async () => {
    await score('variants');
    const chart = page.getByTestId('chart-variant');
    await chart.waitFor();
    expect(await attrs('chart-variant', '[data-row]', 'data-row')).toEqual(['gpt-4o · 16 frames', 'gpt-4o · 32 frames']);
    // Frames only first, then by the number of inputs, then depth, map, graph.
    expect(await attrs('chart-variant', '[data-row="gpt-4o · 16 frames"] [data-series]', 'data-series')).toEqual([
      'frames only',
      '+depth',
      '+map',
      '+depth +graph',
    ]);
    expect(await bar('chart-variant', 'gpt-4o · 32 frames', '+map').locator('title').textContent()).toContain('not run');
    for (const [setting, row, variant] of [
      ['gpt-4o_16f', 'gpt-4o · 16 frames', 'frames only'],
      ['gpt-4o_16f_with-depth', 'gpt-4o · 16 frames', '+depth'],
      ['gpt-4o_16f_with-map', 'gpt-4o · 16 frames', '+map'],
      ['gpt-4o_16f_with-depth+graph', 'gpt-4o · 16 frames', '+depth +graph'],
      ['gpt-4o_32f', 'gpt-4o · 32 frames', 'frames only'],
      ['gpt-4o_32f_with-depth', 'gpt-4o · 32 frames', '+depth'],
    ]) {
      const v = Number(await bar('chart-variant', row!, variant!).getAttribute('data-value'));
      expect(await tableScore(setting!), setting).toBe(v.toFixed(2));
    }

    // Figure 6 compares a model's budgets with the same inputs: one row per variant run at two budgets.
    expect(await attrs('chart-budget', '[data-row]', 'data-row')).toEqual(['gpt-4o', 'gpt-4o +depth']);
    for (const [setting, row, budget] of [
      ['gpt-4o_16f', 'gpt-4o', '16 frames'],
      ['gpt-4o_32f', 'gpt-4o', '32 frames'],
      ['gpt-4o_16f_with-depth', 'gpt-4o +depth', '16 frames'],
      ['gpt-4o_32f_with-depth', 'gpt-4o +depth', '32 frames'],
    ]) {
      const v = Number(await bar('chart-budget', row!, budget!).getAttribute('data-value'));
      expect(await tableScore(setting!), setting).toBe(v.toFixed(2));
    }

    // The table names each setting's budget and inputs.
    const row = page.locator('[data-testid=score-table] tr[data-model="gpt-4o_16f_with-depth+graph"]');
    expect([await row.locator('td[data-col=budget]').textContent(), await row.locator('td[data-col=inputs]').textContent()]).toEqual([
      '16 frames',
      '+depth +graph',
    ]);
    expect(await page.locator('[data-testid=score-table] tr[data-model=solo] td[data-col=inputs]').textContent()).toBe('frames only');

    const svg = page.waitForEvent('download');
    await page.getByTestId('chart-variant-svg').click();
    const text = readFileSync((await (await svg).path())!, 'utf8');
    expect(text).toContain('CapNav by input variant');
    expect(text).toContain('gpt-4o_16f_with-depth+graph');
    await chart.screenshot({ path: join(tmp, 'variant.png') });
    await page.getByTestId('chart-budget').screenshot({ path: join(tmp, 'budget-variant.png') });
  });
});
