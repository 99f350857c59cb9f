import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';

const NO_CAPNAV_FILES =
  'The folder you picked has no CapNav files (<SCENE>-graph.json, <SCENE>_QA.json, <SCENE>-traverse.json, agent_profile.json); nothing changed.';

/** Picking a folder with nothing to import says so, instead of nothing visibly happening, and changes nothing. */
describe('importing a folder with no release files', () => {
  const { profile, url } = studio();
  const root = mkdtempSync(join(tmpdir(), 'traversa-empty-import-'));

  const project = async (page: Page) => ({
    name: await page.getByTestId('project-name').textContent(),
    scenes: await page.locator('[data-scene]').count(),
  });

  /** The studio open on its sample project, what the project looks like, and a new folder holding `files`. */
  async function openWithFolder(name: string, files: Record<string, string>) {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    const folder = join(root, name);
    mkdirSync(folder);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
    return { page, folder, before: await project(page) };
  }

  it('a folder holding only notes.txt: the report says it has no CapNav files, names what it holds, and the project is untouched', async () => {
    const { page, folder, before } = await openWithFolder('notes-only', { 'notes.txt': 'graphs go here\n' });

    await page.getByTestId('import-folder').setInputFiles(folder);
    const report = page.getByTestId('import-report');
    await expect.poll(() => report.locator('header strong').textContent()).toBe(NO_CAPNAV_FILES);
    expect(await report.textContent()).toContain('it holds 1 other file: notes-only/notes.txt');
    expect(await project(page)).toEqual(before);
  });

  it('an empty folder: the report says so whenever the browser reports the pick, and the project is untouched', async () => {
    const { page, folder, before } = await openWithFolder('empty', {});

    // Chromium may give no files for an empty folder, and then may not fire `change` at all.
    const changed = page.getByTestId('import-folder').evaluate(
      (el) =>
        new Promise<boolean>((resolve) => {
          el.addEventListener('change', () => resolve(true), { once: true });
          setTimeout(() => resolve(false), 3000);
        }),
    );
    await page.getByTestId('import-folder').setInputFiles(folder);
    if (await changed) {
      const report = page.getByTestId('import-report');
      await expect.poll(() => report.locator('header strong').textContent()).toBe(NO_CAPNAV_FILES);
      expect(await report.textContent()).toContain('the browser gave no files from it (an empty folder)');
    } else {
      console.info('Chromium fired no change event for the empty folder: nothing for the page to answer');
    }
    expect(await project(page)).toEqual(before);
  });
});
