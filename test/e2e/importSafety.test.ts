import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importFolder, studio } from '../support/browser.ts';
import { houseScene, releaseFiles, writeReleaseDir } from '../support/releaseBuilder.ts';
import { poses } from '../support/tourFiles.ts';

/** Runs without the shared data: a synthetic release stands in for a user's project. */
describe('a broken import never touches the stored project', () => {
  const { profile, url } = studio();

  const scenesCell = (page: Page) => page.locator('[data-testid=stats-summary] tr[data-stat=scenes] td').textContent();

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
    // The stored rows were read and inflated by the bucket-read worker, not on the page's thread.
    expect(
      await page.evaluate(() =>
        performance
          .getEntriesByType('mark')
          .map((m) => m.name)
          .filter((n) => /^load:(worker-ready|reading-here)$/.test(n)),
      ),
    ).toEqual(['load:worker-ready']);
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

  it('a release with problems in many files lists those with errors first, open, at most 40 files until asked; a closed file shows its problems when opened', async () => {
    // 45 scenes without a labels file (a warning each, on the graph file) and 2 with a reference to no room (an error).
    const scenes = Array.from({ length: 47 }, (_, i) => houseScene(`HM3D${String(100 + i).padStart(5, '0')}`));
    for (const s of scenes.slice(45)) (s.qa[0] as { nodes_involved: { end: string } }).nodes_involved.end = 'the attic';
    const noLabels = new Set(scenes.slice(0, 45).map((s) => `traverse/${s.id}-traverse.json`));
    const dir = writeReleaseDir(releaseFiles(scenes, { root: 'many' }).filter((f) => !noLabels.has(f.path.replace(/^many\//, ''))));
    const page = await profile.page(url());
    await importFolder(page, join(dir, 'many'));
    const list = page.getByTestId('import-problems');
    const files = () => list.locator('details > summary code').allTextContents();
    expect((await files()).slice(0, 2)).toEqual(['qa/HM3D00145_QA.json', 'qa/HM3D00146_QA.json']);
    expect(await files()).toHaveLength(40);
    expect(await list.locator('details[open]').count()).toBe(2);
    expect(await list.locator('li.problem').count()).toBe(2);
    expect(await list.locator('li.problem').first().textContent()).toContain('the attic');
    const more = page.getByTestId('problems-show-all');
    expect(await more.textContent()).toBe('Show all 47 files (7 more, 7 warnings)');
    await more.click();
    expect(await files()).toHaveLength(47);
    expect(await more.count()).toBe(0);
    const closed = list.locator('details', { hasText: 'graphs/HM3D00144-graph.json' });
    expect(await closed.locator('li').count()).toBe(0);
    await closed.locator('summary').click();
    await expect.poll(() => closed.locator('li').textContent()).toContain('has no HM3D00144-traverse.json');
  });
});

describe('touring videos checked at import (issue 25 §8)', () => {
  const { profile, url } = studio();

  it("an HTML page saved as the scene's MP4 is a warning naming the file; the release comes in without that video", async () => {
    const dir = writeReleaseDir(releaseFiles([houseScene('HM3D00025')], { root: 'with-video' }));
    mkdirSync(join(dir, 'with-video', 'videos'), { recursive: true });
    writeFileSync(join(dir, 'with-video', 'videos', 'HM3D00025.mp4'), '<!doctype html><title>404 Not Found</title>');
    writeFileSync(join(dir, 'with-video', 'videos', 'HM3D00025.poses.json'), JSON.stringify(poses));
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    await importFolder(page, join(dir, 'with-video'));
    const report = page.getByTestId('import-report');
    await expect.poll(() => report.textContent()).toContain('with-video/videos/HM3D00025.mp4 1 warning');
    const entry = page.getByTestId('import-problems').locator('details', { hasText: 'videos/HM3D00025.mp4' });
    await entry.locator('summary').click();
    await expect.poll(() => entry.locator('li').textContent()).toContain('is not an MP4 video (it does not start with an ftyp box)');
    await report.screenshot({ path: resolve(import.meta.dirname, '../../tmp/import-refused-video.png') });
    await page.locator('[data-scene=HM3D00025]').waitFor();
  });
});
