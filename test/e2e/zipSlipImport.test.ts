import { unzipSync } from 'fflate';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT } from '../../src/formats/bundle.ts';
import { studio } from '../support/browser.ts';
import { scoringHouse } from '../support/scoreSupport.ts';

const SLIP = '../../../../tmp/zipslip';

describe('a bundle whose scene id is a path out of the folder', () => {
  const { open } = studio();
  const dir = mkdtempSync(join(tmpdir(), 'traversa-zipslip-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused at import, naming the file and where; the open project stays as it was and exports only safe names', async () => {
    const project = scoringHouse();
    project.scenes[0] = { ...project.scenes[0]!, id: SLIP };
    const file = join(dir, 'evil.traversa.json');
    writeFileSync(file, JSON.stringify({ format: BUNDLE_FORMAT, version: 1, exportedAt: '2026-05-01T10:00:00.000Z', project }));

    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    const before = await page.getByTestId('project-name').textContent();
    await page.getByTestId('import-files').setInputFiles(file);
    const report = page.getByTestId('import-report');
    await expect.poll(() => report.textContent()).toContain('nothing was changed');
    expect(await report.textContent()).toContain('evil.traversa.json');
    expect(await report.textContent()).toContain(`damaged at scenes.0.id: a scene id becomes part of file names; "${SLIP}" contains a folder separator`);
    expect(await page.getByTestId('project-name').textContent()).toBe(before);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export release' }).click()]);
    const names = Object.keys(unzipSync(new Uint8Array(readFileSync((await download.path())!))));
    // The export is said where the user is (this view has no notice of its own).
    await expect.poll(() => page.getByTestId('studio-notice').textContent()).toBe(`Exported ${download.suggestedFilename()}.×`);
    const base = resolve('/extract/here');
    expect(names.length).toBeGreaterThan(1);
    expect(names.filter((n) => !resolve(base, n).startsWith(base + sep) || n.includes('\\') || n.startsWith('/'))).toEqual([]);
  });
});
