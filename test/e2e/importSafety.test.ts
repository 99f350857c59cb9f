import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importFolder, studio } from '../support/browser.ts';
import { houseScene, releaseFiles, writeReleaseDir } from '../support/releaseBuilder.ts';

/** Runs without the shared data: a synthetic release stands in for a user's project. */
describe('a broken import never touches the stored project', () => {
  const { profile, url } = studio();

  const scenesCell = (page: Page) =>
    page.locator('[data-testid=stats-summary] tr[data-stat=scenes] td').textContent();

  it('imports a good release, then rejects a broken one naming the file and the line, and keeps the first across a reload', async () => {
    const good = writeReleaseDir(releaseFiles([houseScene('HM3D00025'), houseScene('MP3D00001')], { root: 'my-release' }));
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor(); // first start opens the sample
    await importFolder(page, join(good, 'my-release'));
    await expect.poll(() => scenesCell(page)).toBe('2');
    await expect.poll(() => page.getByTestId('storage-status').textContent()).toBe('Saved in this browser');

    const broken = writeReleaseDir([], 'broken-release-');
    mkdirSync(join(broken, 'broken', 'graphs'), { recursive: true });
    writeFileSync(join(broken, 'broken', 'graphs', 'HM3D99999-graph.json'), '{ "nodes": [ { "id": "node_1", "name": "Hall",, } ], "edges": [] }');
    await page.getByTestId('import-folder').setInputFiles(join(broken, 'broken'));
    const report = page.getByTestId('import-report');
    await expect.poll(() => report.textContent()).toContain('nothing was changed');
    expect(await report.textContent()).toContain('graphs/HM3D99999-graph.json');
    expect(await report.textContent()).toMatch(/line 1, column \d+/);
    expect(await page.getByTestId('project-name').textContent()).toBe('my-release');
    expect(await scenesCell(page)).toBe('2');

    await page.reload();
    await page.getByTestId('stats-summary').waitFor();
    expect(await page.getByTestId('project-name').textContent()).toBe('my-release');
    expect(await scenesCell(page)).toBe('2');
  });

  it('shows names from the files as text, never as markup', async () => {
    const scene = houseScene('HM3D00077');
    (scene.graph.nodes[0] as { name: string }).name = '<img src=x onerror="window.__pwned=1">Front hall';
    const dir = writeReleaseDir(releaseFiles([scene], { root: 'xss' }));
    const page = await profile.page(url());
    await importFolder(page, join(dir, 'xss'));
    await page.locator('[data-scene=HM3D00077]').click();
    await page.getByTestId('workspace').waitFor();
    expect(await page.locator('[data-node-label=node_1]').textContent()).toBe('<img src=x onerror="window.__pwned=1">Front hall');
    expect(await page.locator('[data-node-item=node_1] .name').textContent()).toBe('<img src=x onerror="window.__pwned=1">Front hall');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
  });
});
