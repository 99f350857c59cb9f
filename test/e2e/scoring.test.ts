import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelFor } from '../../src/core/labels.ts';
import { oracleBaseline, type PredictionRow } from '../../src/core/scoring/baselines.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { readJsonFiles } from '../../src/cli/files.ts';
import { importFolder, studio } from '../support/browser.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

const haveRelease = sharedAvailable(CAPNAV_DIR, 'the scoring browser test');

/** Write predictions in the CapNav runner layout: results/<model>/<SCENE>/predictions.json. */
function writeResults(rows: PredictionRow[], model: string): string {
  const root = join(mkdtempSync(join(tmpdir(), 'traversa-results-')), 'results');
  const byScene = new Map<string, PredictionRow[]>();
  for (const r of rows) byScene.set(r.scene, [...(byScene.get(r.scene) ?? []), r]);
  for (const [scene, list] of byScene) {
    mkdirSync(join(root, model, scene), { recursive: true });
    writeFileSync(
      join(root, model, scene, 'predictions.json'),
      JSON.stringify({
        scene,
        prompt_file: `${scene}.txt`,
        time_sec: 1.5,
        result: list.map((r) => ({ question: r.question, agent: r.agent, result: { answer: r.answer, path: r.path, reason: r.reason } })),
      }),
    );
  }
  return root;
}

const COLOURS = { traversable: 'rgb(31, 138, 76)', blocked: 'rgb(200, 50, 43)' };

describe.skipIf(!haveRelease)('a researcher scores a model in the browser and looks at where a route goes wrong', () => {
  const { profile, url } = studio();

  it('scores a results folder against the imported release and previews a failing record hop by hop', async () => {
    const project = readRelease(readJsonFiles(CAPNAV_DIR)).project!;
    // A model that is right everywhere except that it says "yes" to every infeasible wheelchair
    // task, walking straight through what blocks it.
    const rows = oracleBaseline(project).map((r) =>
      r.agent === 'WHEELCHAIR' && r.answer === 'no' && r.path.length > 1 ? { ...r, answer: 'yes' as const, reason: '' } : r,
    );
    const wrong = rows.find(
      (r) =>
        r.agent === 'WHEELCHAIR' &&
        r.answer === 'yes' &&
        oracleBaseline(project).some((o) => o.scene === r.scene && o.question === r.question && o.agent === 'WHEELCHAIR' && o.answer === 'no'),
    )!;
    const results = writeResults(rows, 'overconfident-vlm');

    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, CAPNAV_DIR);
    await page.keyboard.press('4');
    await page.getByTestId('load-predictions').setInputFiles(results);
    await expect.poll(() => page.getByTestId('prediction-files').textContent()).toMatch(/^\d+ files from results/);
    await page.getByTestId('run-score').click();
    await page.locator('[data-testid=score-table] tr[data-model=overconfident-vlm]').waitFor({ timeout: 60_000 });
    // The oracle's routes are valid wherever the start and the end are connected at all.
    expect(Number(await page.locator('tr[data-model=overconfident-vlm] [data-col=pv] .v').textContent())).toBeGreaterThan(99);
    expect(Number(await page.locator('[data-testid=confusion] [data-cell=fp]').textContent())).toBeGreaterThan(0);

    await page.getByLabel('Filter by agent').selectOption('WHEELCHAIR');
    await page.getByLabel('Filter by outcome').selectOption('FP');
    await page.getByLabel('Search records').fill(wrong.question.slice(20, 70));
    await page.locator('[data-testid=records] tbody tr').first().click();
    await page.getByTestId('hops').waitFor();

    const scene = project.scenes.find((s) => s.id === wrong.scene)!;
    const expected = wrong.path.slice(1).map((to, i) => (labelFor(scene.labels, 'WHEELCHAIR', wrong.path[i]!, to)?.traversable ? 'traversable' : 'blocked'));
    expect(expected).toContain('blocked');
    const hops = page.locator('[data-testid=hops] [data-hop]');
    expect(await hops.count()).toBe(expected.length);
    for (const [i, state] of expected.entries()) {
      const hop = hops.nth(i);
      expect(await hop.getAttribute('data-state')).toBe(state);
      expect(await hop.locator('.sw').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(COLOURS[state as keyof typeof COLOURS]);
    }
    // The 3D preview shows the scene the record is about, with its route.
    await page.getByTestId('workspace').waitFor();
    await page.keyboard.press('.');
    await expect.poll(() => page.getByTestId('record-preview').getAttribute('data-record')).not.toBeNull();
  });
});
