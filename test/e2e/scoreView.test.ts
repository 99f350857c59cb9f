import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { randomWalkBaseline, oracleBaseline } from '../../src/core/scoring/baselines.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { toPredictionJsonl } from '../../src/formats/predictions/jsonl.ts';
import { readJsonFiles } from '../../src/cli/files.ts';
import { importFolder, studio } from '../support/browser.ts';
import { REPO } from '../support/cli.ts';
import { decodePng } from '../support/pngPixels.ts';

const SAMPLE = join(REPO, 'scenes', 'sample-house');
const project = readRelease(readJsonFiles(SAMPLE)).project!;
const oracle = oracleBaseline(project);

/** The sample house with a media room no doorway reaches, and a question that starts there (as HM3D00005 question 2 of the shared release). */
function houseWithIsolatedRoom(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'traversa-isolated-')), 'release');
  for (const sub of ['graphs', 'qa', 'traverse']) mkdirSync(join(dir, sub), { recursive: true });
  const graph = JSON.parse(readFileSync(join(SAMPLE, 'graphs/sample-house-graph.json'), 'utf8'));
  graph.nodes.push({ id: 'node_15', name: 'Media room', description: 'behind a wall', position: { x: 9, y: 0.02, z: 6 } });
  const qa = JSON.parse(readFileSync(join(SAMPLE, 'qa/sample-house_QA.json'), 'utf8'));
  qa.push({
    scene_type: 'home',
    question: 'Can [Agent] move from the media room to the kitchen?',
    reason: '',
    nodes_involved: { start: 'node_15', start_detail: '', intermediate: [], end: 'node_3', end_detail: '' },
  });
  writeFileSync(join(dir, 'graphs/sample-house-graph.json'), JSON.stringify(graph));
  writeFileSync(join(dir, 'qa/sample-house_QA.json'), JSON.stringify(qa));
  for (const f of ['agent_profile.json', 'traverse/sample-house-traverse.json']) writeFileSync(join(dir, f), readFileSync(join(SAMPLE, f)));
  return dir;
}

async function scoreBaselines(page: Page, bootstrap = 0): Promise<void> {
  await page.locator('[data-scene=sample-house]').waitFor();
  await page.keyboard.press('4');
  await page.getByTestId('score-controls').waitFor();
  await page.getByRole('button', { name: '+ Random-walk baseline' }).click();
  await page.getByRole('button', { name: '+ Oracle' }).click();
  if (bootstrap) await page.getByTestId('score-controls').getByLabel('Bootstrap resamples').fill(String(bootstrap));
  await page.getByTestId('run-score').click();
  await page.locator('[data-testid=score-table] tr[data-model=oracle]').waitFor({ timeout: 60_000 });
}

const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim() ?? '';

describe('the Score view reads at a glance (issue 13)', () => {
  const { open } = studio();

  it('the sample house as it opens, unlabelled, is said to be so before anything is scored, with the way to label it; a labelled release is not', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    await page.keyboard.press('4');
    const notice = page.getByTestId('score-unlabelled');
    await notice.waitFor();
    expect(await page.getByTestId('unlabelled-scene').evaluateAll((els) => els.map((e) => [e.getAttribute('data-scene-id'), e.textContent]))).toEqual([
      ['sample-house', 'sample-house has no labels for HUMAN, WHEELCHAIR, HUMANOID, QUADRUPEDAL, SWEEPER'],
    ]);
    expect(await notice.textContent()).toContain('counts as not traversable');
    await page.getByTestId('label-unlabelled').click();
    await page.getByTestId('queue-item').waitFor();
    expect(await page.locator('[aria-current=page]').first().textContent()).toMatch(/^Label/);
    // The release with its traverse files: nothing to say.
    await importFolder(page, SAMPLE);
    await page.keyboard.press('4');
    await page.getByTestId('score-controls').waitFor();
    expect(await page.getByTestId('score-unlabelled').count()).toBe(0);
  });

  it('a baseline file and the baseline button for the same model: the repeats are counted, their files named, and one can be left out', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor(); // the bundled sample has opened: the import is not overtaken by it
    await importFolder(page, SAMPLE);
    const dir = mkdtempSync(join(tmpdir(), 'traversa-rand-'));
    writeFileSync(join(dir, 'rand.jsonl'), toPredictionJsonl(randomWalkBaseline(project, { seed: 1 })));
    await page.keyboard.press('4');
    await page.getByTestId('load-prediction-files').setInputFiles(join(dir, 'rand.jsonl'));
    await page.getByRole('button', { name: '+ Random-walk baseline' }).click();
    await page.getByTestId('run-score').click();
    await page.locator('[data-testid=score-table] tr[data-model=random-walk]').waitFor({ timeout: 60_000 });

    const notice = page.getByTestId('score-duplicates');
    await notice.waitFor();
    expect(await text(page, '[data-testid=duplicate-tasks]')).toBe('50');
    expect(await text(page, '[data-testid=duplicate-source]')).toBe('50 by rand.jsonl and random-walk.jsonl');
    expect(await notice.textContent()).toContain('Every prediction is scored, as the released scorer does');
    expect(await text(page, 'tr[data-model=random-walk] [data-col=records] .dup')).toBe('50 twice+');

    await page.getByRole('button', { name: 'Score again without rand.jsonl' }).click();
    await expect.poll(() => text(page, 'tr[data-model=random-walk] [data-col=records]'), { timeout: 60_000 }).toBe('50');
    expect(await page.getByTestId('score-duplicates').count()).toBe(0);
  });

  it('two models: every figure carries its n, the per-agent figures are charted side by side, and the view fits 1400×900', async () => {
    const page = await open();
    await page.reload();
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, SAMPLE);
    await scoreBaselines(page, 200);
    // n beside every headline component…
    const headline = { records: oracle.length, rta: oracle.filter((r) => r.answer === 'yes').length, rv: oracle.filter((r) => r.answer === 'no').length };
    expect(await text(page, 'tr[data-model=oracle] [data-col=f1] .n')).toBe(`n ${headline.records}`);
    expect(await text(page, 'tr[data-model=oracle] [data-col=pv] .n')).toBe(`n ${headline.records}`);
    expect(await text(page, 'tr[data-model=oracle] [data-col=rta] .n')).toBe(`n ${headline.rta}`);
    expect(await text(page, 'tr[data-model=oracle] [data-col=rv] .n')).toBe(`n ${headline.rv}`);
    expect(await text(page, 'tr[data-model=oracle] [data-col=rv] .ci')).toMatch(/^\[\d+\.\d, \d+\.\d\]$/);
    // …and beside every per-agent figure, in the table and in the charts.
    for (const agent of ['HUMAN', 'WHEELCHAIR', 'SWEEPER']) {
      const rows = oracle.filter((r) => r.agent === agent);
      const yes = rows.filter((r) => r.answer === 'yes').length,
        no = rows.length - yes;
      const perAgent = `[data-testid=model-detail][data-model=oracle] tr[data-agent=${agent}]`;
      expect(await text(page, `${perAgent} [data-col=rta] .n`)).toBe(`n ${yes}`);
      expect(await text(page, `${perAgent} [data-col=rv] .n`)).toBe(`n ${no}`);
      expect(await text(page, `tr[data-model=oracle] [data-col=agent-${agent}] .n`)).toBe(`n ${rows.length}`);
      expect(await text(page, `[data-testid=chart-rv] [data-row=${agent}] [data-series=oracle] .bar-text`)).toBe(no ? `100.0 · n ${no}` : '– · n 0');
    }
    // Both models in every chart, in their colours; one confusion matrix each.
    expect(await page.locator('[data-testid=chart-legend] [data-model]').evaluateAll((els) => els.map((e) => e.getAttribute('data-model')))).toEqual([
      'oracle',
      'random-walk',
    ]);
    for (const chart of ['chart-f1', 'chart-pv', 'chart-rta', 'chart-rv', 'chart-capnav', 'chart-failures']) {
      for (const model of ['oracle', 'random-walk'])
        expect(await page.locator(`[data-testid=${chart}] [data-series=${model}] rect`).count()).toBeGreaterThan(0);
    }
    // The random walk's intervals are drawn as whiskers on its bars (the oracle's are all [100, 100] or absent).
    expect(await page.locator('[data-testid=chart-f1] [data-series=random-walk] line.whisker').count()).toBeGreaterThan(0);
    expect(await page.locator('svg[data-testid=confusion]').count()).toBe(2);
    expect(await text(page, 'svg[data-testid=confusion][data-model=oracle] [data-cell=fp]')).toBe('0');
    // Nothing runs off to the side at 1400×900.
    expect(await page.evaluate(() => [innerWidth, innerHeight])).toEqual([1400, 900]);
    const widths = await page.evaluate(() => {
      const el = (sel: string) => document.querySelector(sel)!;
      return {
        doc: document.documentElement.scrollWidth,
        inner: innerWidth,
        main: el('.main').scrollWidth,
        mainClient: el('.main').clientWidth,
        table: el('.score-table').scrollWidth,
        tableClient: el('.score-table').clientWidth,
      };
    });
    expect(widths.doc).toBeLessThanOrEqual(widths.inner);
    expect(widths.main).toBeLessThanOrEqual(widths.mainClient);
    expect(widths.table).toBeLessThanOrEqual(widths.tableClient); // the model table too, intervals and n included
    // The record table says whose records it lists.
    expect(await page.getByTestId('record-table').getAttribute('data-model')).toBe('oracle');
    expect(await text(page, '[data-testid=records-count]')).toBe(`${oracle.length} of oracle's records`);

    // Every chart exports as SVG (standalone, its figures as text, captioned) and PNG (twice its size) that open in Chromium.
    const saved = async (testId: string) => {
      const download = page.waitForEvent('download');
      await page.getByTestId(testId).click();
      const d = await download;
      return { name: d.suggestedFilename(), bytes: readFileSync((await d.path())!) };
    };
    const svg = await saved('chart-capnav-svg');
    expect(svg.name).toMatch(/-chart-capnav\.svg$/);
    const svgText = svg.bytes.toString('utf8');
    expect(svgText).toMatch(/^<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svgText).toContain('CapNav per agent (%)');
    expect(svgText).toMatch(/; models oracle, random-walk; paper mode, micro, judge /);
    expect(svgText).toContain(`· n ${oracle.filter((r) => r.agent === 'HUMAN').length}`);
    const png = await saved('chart-capnav-png');
    expect(png.name).toMatch(/-chart-capnav\.png$/);
    const pixels = decodePng(new Uint8Array(png.bytes));
    const box = (await page.getByTestId('chart-capnav').boundingBox())!;
    expect(pixels.width).toBe(Math.round(box.width * 2));
    // Opened in Chromium, both draw: the SVG at its size, the PNG decoded.
    const opened = await page.evaluate(
      async ([s, p]) => {
        const load = async (src: string) => {
          const img = new Image();
          img.src = src;
          await img.decode();
          return [img.naturalWidth, img.naturalHeight];
        };
        return [await load(`data:image/svg+xml;base64,${s}`), await load(`data:image/png;base64,${p}`)];
      },
      [svg.bytes.toString('base64'), png.bytes.toString('base64')] as const,
    );
    expect(opened[0]![0]).toBe(Math.round(box.width));
    expect(opened[1]).toEqual([pixels.width, pixels.height]);
  });

  it("the records table pages through all of a model's records, 200 at a time", async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, SAMPLE);
    const dir = mkdtempSync(join(tmpdir(), 'traversa-many-'));
    // Five runs of one model over the house: 250 records, every one scored (repeats are scored, and said).
    writeFileSync(
      join(dir, 'many.jsonl'),
      toPredictionJsonl(
        Array.from({ length: 5 }, (_, k) => randomWalkBaseline(project, { seed: k + 1 }))
          .flat()
          .map((r) => ({ ...r, model: 'many' })),
      ),
    );
    await page.keyboard.press('4');
    await page.getByTestId('load-prediction-files').setInputFiles(join(dir, 'many.jsonl'));
    await page.getByTestId('run-score').click();
    await page.locator('[data-testid=score-table] tr[data-model=many]').waitFor({ timeout: 60_000 });
    expect(await text(page, '[data-testid=records-count]')).toBe("250 of many's records");
    expect(await text(page, '[data-testid=records-page]')).toBe('1–200 (page 1 of 2)');
    expect(await page.locator('[data-testid=records] tbody tr').count()).toBe(200);
    expect(await page.getByTestId('records-previous').isDisabled()).toBe(true);
    const first = await page.locator('[data-testid=records] tbody tr').first().getAttribute('data-record');
    await page.getByTestId('records-next').click();
    expect(await text(page, '[data-testid=records-page]')).toBe('201–250 (page 2 of 2)');
    expect(await page.locator('[data-testid=records] tbody tr').count()).toBe(50);
    expect(await page.locator('[data-testid=records] tbody tr').first().getAttribute('data-record')).not.toBe(first);
    // A filter starts again at the first page.
    await page.getByLabel('Filter by agent').selectOption('HUMAN');
    expect(await text(page, '[data-testid=records-count]')).toBe("50 of many's records");
    expect(await page.getByTestId('records-pager').count()).toBe(0);
  });

  it('more models than the charts have colours: eight are charted and the rest are named, each one a click away', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, SAMPLE);
    const dir = mkdtempSync(join(tmpdir(), 'traversa-ten-'));
    const models = Array.from({ length: 10 }, (_, k) => `m${String(k + 1).padStart(2, '0')}`);
    writeFileSync(
      join(dir, 'ten.jsonl'),
      toPredictionJsonl(models.flatMap((model, k) => randomWalkBaseline(project, { seed: k + 1 }).map((r) => ({ ...r, model })))),
    );
    await page.keyboard.press('4');
    await page.getByTestId('load-prediction-files').setInputFiles(join(dir, 'ten.jsonl'));
    await page.getByTestId('run-score').click();
    await page.locator('[data-testid=score-table] tr[data-model=m10]').waitFor({ timeout: 60_000 });
    const legend = () => page.locator('[data-testid=chart-legend] [data-model]').evaluateAll((els) => els.map((e) => e.getAttribute('data-model')));
    expect(await legend()).toEqual(models.slice(0, 8));
    expect(await text(page, '[data-testid=charts-hidden]')).toBe('· not charted (2): m09, m10 — select or compare a model in the table to chart it');
    await page.locator('[data-testid=score-table] tr[data-model=m10]').click();
    await expect.poll(legend).toContain('m10');
    expect(await text(page, '[data-testid=charts-hidden]')).toContain('m08, m09');
  });

  it("an agent's RV resting on one record is explained: the record, and that its start node has no edges", async () => {
    const page = await open();
    await page.reload();
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, houseWithIsolatedRoom());
    await page.keyboard.press('6');
    await page.getByTestId('project-problems').locator('summary', { hasText: 'graphs/sample-house-graph.json' }).click();
    await expect.poll(() => page.getByTestId('project-problems').textContent()).toContain('node node_15 ("Media room") has no edges');
    await scoreBaselines(page);
    const note = page.locator('[data-notes-for=oracle] li[data-agent=HUMAN][data-metric=rv]');
    expect(await note.textContent()).toBe(
      'RV for HUMAN rests on n = 1: sample-house #10 — its start node “Media room” (node_15) has no edges, so the task is infeasible for every agent and a “no” has no route to judge (RV 0)',
    );
    expect(await text(page, 'tr[data-model=oracle] [data-col=agent-HUMAN] .thin-mark')).toContain('RV n 1');
    await note.getByTestId('thin-record').click();
    await expect.poll(() => page.getByTestId('record-preview').getAttribute('data-record')).toMatch(/./);
    await expect.poll(() => page.locator('[data-testid=record-preview] .q-text').textContent()).toBe('Can [Agent] move from the media room to the kitchen?');
  });
});
