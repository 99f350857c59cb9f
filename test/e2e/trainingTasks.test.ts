import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readJsonFiles } from '../../src/cli/files.ts';
import { augment } from '../../src/core/research/augment.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { downloaded, importFolder, studio } from '../support/browser.ts';
import { REPO, traversa } from '../support/cli.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

// Issue 27 §1 in the studio: the Training view (key 7) makes the open project's training tasks as
// `cli augment` does. Its counts are core augment's for the same options, and its tasks.jsonl and
// split are byte for byte what `cli augment` and `cli split` write.

const SAMPLE = join(REPO, 'scenes', 'sample-house');
const MARKUP = '<img src=x onerror="window.__injected=1">';

/** The sample release with markup in every room's name: it must show as the text it is. */
function sampleWithMarkup(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'traversa-training-')), 'release');
  cpSync(SAMPLE, dir, { recursive: true, filter: (src) => !src.endsWith('.glb') });
  const path = join(dir, 'graphs/sample-house-graph.json');
  const graph = JSON.parse(readFileSync(path, 'utf8'));
  for (const n of graph.nodes as { name: string }[]) n.name = `${n.name} ${MARKUP}`;
  writeFileSync(path, JSON.stringify(graph));
  return dir;
}

const cell = (page: Page, table: string, row: string, col: string) =>
  page
    .locator(`[data-testid=${table}] tr[${row}] td[data-col="${col}"]`)
    .textContent()
    .then((t) => Number(t));

describe('the Training view', () => {
  const { open } = studio();

  it('says what to do first; then makes the tasks augment makes, and downloads what the command line writes', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    // The bundled house opens unlabelled.
    await page.keyboard.press('7');
    expect(await page.getByTestId('training-not-ready').textContent()).toContain('Label some segments first');

    const release = sampleWithMarkup();
    await importFolder(page, release);
    await page.keyboard.press('7');
    await page.getByLabel('Budget per scene and agent').fill('6');
    await page.getByLabel('Seed').first().fill('3');
    await page.getByRole('group', { name: 'Balance' }).getByLabel('answers').check();
    await page.getByRole('group', { name: 'Balance' }).getByLabel('obstacle types').check();
    await page.getByTestId('training-generate').click();
    await page.getByTestId('training-report').waitFor();

    // The counts shown are core augment's for the same options on the same files.
    const options = { seed: 3, budget: 6, balance: { answers: true, obstacles: true } };
    const { summary } = augment(readRelease(readJsonFiles(release)).project!, options);
    expect(Number(await page.getByTestId('training-summary').getAttribute('data-tasks'))).toBe(summary.tasks);
    expect(summary.tasks).toBeGreaterThan(0);
    const obstacles: Record<string, number> = {};
    for (const agent of ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER']) {
      const s = summary.byAgent[agent] ?? { tasks: 0, feasible: 0, infeasible: 0 };
      const row = `data-agent="${agent}"`;
      expect(
        [
          await cell(page, 'training-by-agent', row, 'tasks'),
          await cell(page, 'training-by-agent', row, 'yes'),
          await cell(page, 'training-by-agent', row, 'no'),
        ],
        agent,
      ).toEqual([s.tasks, s.feasible, s.infeasible]);
      for (const o of Object.keys(summary.byObstacle)) obstacles[o] = (obstacles[o] ?? 0) + (await cell(page, 'training-by-agent', row, `obstacle:${o}`));
    }
    expect(obstacles).toEqual(summary.byObstacle);
    expect(await cell(page, 'training-by-scene', 'data-scene-row="sample-house"', 'tasks')).toBe(summary.tasks);
    expect(await page.getByTestId('training-cli').textContent()).toBe(
      'npm run -s cli -- augment <release-dir> --out tasks.jsonl --budget 6 --seed 3 --balance answers,obstacles',
    );

    // Examples: user text as text.
    const examples = page.getByTestId('training-examples');
    expect(await examples.locator('tr[data-task]').count()).toBeGreaterThanOrEqual(4);
    expect(await examples.textContent()).toContain(`Bathroom ${MARKUP}`);
    expect(await examples.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __injected?: number }).__injected)).toBeUndefined();

    // tasks.jsonl byte for byte as `cli augment` writes it for the same options.
    const out = mkdtempSync(join(tmpdir(), 'traversa-training-cli-'));
    const cli = await traversa('augment', release, '--out', join(out, 'tasks.jsonl'), '--budget', '6', '--seed', '3', '--balance', 'answers,obstacles');
    expect(cli.code, cli.stderr).toBe(0);
    const file = await downloaded(page, () => page.getByTestId('training-download-tasks').click());
    expect(readFileSync(file).equals(readFileSync(join(out, 'tasks.jsonl')))).toBe(true);

    // The split: one scene, so one split holds it (and the view says the others get none); the files are `cli split`'s.
    await page.getByTestId('training-split-empty').waitFor();
    const zip = unzipSync(readFileSync(await downloaded(page, () => page.getByTestId('training-download-split').click())));
    const split = await traversa('split', join(out, 'tasks.jsonl'), '--out', join(out, 'split'));
    expect(split.code, split.stderr).toBe(0);
    expect(Object.keys(zip).sort()).toEqual(readdirSync(join(out, 'split')).sort());
    for (const name of ['train.jsonl', 'val.jsonl', 'test.jsonl']) expect(strFromU8(zip[name]!), name).toBe(readFileSync(join(out, 'split', name), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(out, 'split', 'manifest.json'), 'utf8'));
    expect(JSON.parse(strFromU8(zip['manifest.json']!))).toEqual({ ...manifest, source: 'tasks.jsonl' });
  });
});

const haveRelease = sharedAvailable(CAPNAV_DIR, 'the Training view on the shared CapNav release');

describe.skipIf(!haveRelease)('the Training view on the shared release (30 scenes, ~31,000 tasks)', () => {
  const { open } = studio();

  it('shows its progress, keeps the page responsive, and downloads what `cli augment` writes', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, CAPNAV_DIR);
    await page.keyboard.press('7');
    // Every frame the page paints notes the progress it shows: a page frozen for the run would paint it once or not at all.
    await page.evaluate(() => {
      const w = window as { __painted?: Set<number> };
      w.__painted = new Set();
      const note = () => {
        const bar = document.querySelector<HTMLProgressElement>('[data-testid=training-progress] progress');
        if (bar) w.__painted!.add(bar.value);
        requestAnimationFrame(note);
      };
      requestAnimationFrame(note);
    });
    const t0 = Date.now();
    await page.getByTestId('training-generate').click();
    await page.getByTestId('training-progress').waitFor();
    await page.getByTestId('training-report').waitFor({ timeout: 120_000 });
    const ms = Date.now() - t0;
    const painted = await page.evaluate(() => [...(window as { __painted?: Set<number> }).__painted!]);
    const expected = augment(readRelease(readJsonFiles(CAPNAV_DIR)).project!).summary;
    console.log(`Training view, shared release: ${expected.tasks} tasks in ${ms} ms; ${painted.length} progress states painted`);
    expect(Number(await page.getByTestId('training-summary').getAttribute('data-tasks'))).toBe(expected.tasks);
    // The work goes a scene × agent at a time with the page painting between: states of the bar between empty and full were on screen.
    expect(painted.length).toBeGreaterThan(2);
    const out = mkdtempSync(join(tmpdir(), 'traversa-training-shared-'));
    const cli = await traversa('augment', CAPNAV_DIR, '--out', join(out, 'tasks.jsonl'));
    expect(cli.code, cli.stderr).toBe(0);
    const file = await downloaded(page, () => page.getByTestId('training-download-tasks').click());
    expect(readFileSync(file).equals(readFileSync(join(out, 'tasks.jsonl')))).toBe(true);
  });
});
