import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { decodePng, shareLike, shareUnlike } from '../support/pngPixels.ts';
import { downloaded, studio } from '../support/browser.ts';
import { settledPointOnPage } from '../support/viewportProbe.ts';

const STUDY = { x: 7.3, y: 0.02, z: 2.75 }; // node_6, ground floor, under Bedroom 1

/**
 * Issue 23 §7: Set-of-Mark marks land on the floor the user sees. An item about a ground-floor room
 * shows that floor (the slice follows the nodes it references), a mark clicked there lands there; a
 * mark that lands on another floor's slab is flagged; numbers stay readable off the sliced floors.
 */
describe('Set-of-Mark marks on the floor the item is about', () => {
  const { profile, url } = studio();
  const SHOTS = mkdtempSync(join(tmpdir(), 'traversa-marks-'));
  let page: Page;

  it("slices at the item's floor, places the mark on it, and flags one placed on the slab above", async () => {
    page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    await page.locator('[data-view=qa]').click();
    await page.getByTestId('qa-list').waitFor();
    await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
    await page.getByTestId('new-item').click();
    await page.getByTestId('item-question').fill('What stands in the study?');
    await page.getByTestId('item-question').evaluate((el) => (el as HTMLElement).blur());
    await page.getByLabel('Add a node reference').selectOption('node_6');
    // The item is about the study: the view is sliced at the ground floor.
    expect(await page.getByTestId('slice-follows').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.getByTestId('slice-height').textContent()).toBe('1.60 m');

    await page.keyboard.press('t');
    await page.getByTestId('mark-tool').click();
    let at = await settledPointOnPage(page, STUDY);
    await page.mouse.click(at.x, at.y);
    await page.locator('[data-mark-item="1"]').waitFor();
    expect(await page.getByTestId('mark-floor-1').count()).toBe(0);

    // Sliced by hand at the upper floor, the same spot is Bedroom 1's floor: that mark is flagged.
    await page.locator('[data-floor="1"]').click();
    await expect.poll(() => page.getByTestId('slice-height').textContent()).toBe('4.40 m');
    at = await settledPointOnPage(page, STUDY);
    await page.mouse.click(at.x, at.y);
    await page.locator('[data-mark-item="2"]').waitFor();
    expect(await page.getByTestId('mark-floor-2').textContent()).toContain('on floor 2; the item’s nodes are on floor 1');

    // Back on the item's floor, both numbers show; the one above the slice is dimmed, not dropped.
    await page.getByTestId('slice-follows').click();
    await expect.poll(() => page.getByTestId('slice-height').textContent()).toBe('1.60 m');
    await page.getByTestId('mark-tool').click();
    await expect.poll(() => page.locator('[data-mark="2"]').isVisible()).toBe(true);
    expect(await page.locator('[data-mark="2"]').getAttribute('data-off-slice')).toBe('yes');
    expect(await page.locator('[data-mark="1"]').isVisible()).toBe(true);
    expect(await page.locator('[data-mark="1"]').getAttribute('data-off-slice')).toBeNull();
    await page.screenshot({ path: join(SHOTS, 'marks.png') });
  });

  it('exports the item with its viewpoint rendered as a Set-of-Mark picture: the scan from that camera, the numbered marks drawn on', async () => {
    await page.getByTestId('save-viewpoint').click();
    await page.locator('[data-viewpoint] img').waitFor();
    await page.getByLabel('Reference answer').fill('A desk and a chair.');
    await page.getByLabel('Reference answer').evaluate((el) => (el as HTMLElement).blur());
    await page.getByTestId('item-capability').selectOption('semantic');
    await page.getByTestId('qa-annotator').fill('Ana');
    await page.getByTestId('submit-item').click();
    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('mode-review').click();
    await expect.poll(() => page.getByTestId('review-panel').getAttribute('data-item')).toBe('qa_1');
    // In review the marks keep their numbers.
    await expect.poll(() => page.locator('[data-mark="1"]').isVisible()).toBe(true);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('a');
    await expect.poll(() => page.getByTestId('review-empty').isVisible()).toBe(true);

    const zip = unzipSync(new Uint8Array(readFileSync(await downloaded(page, () => page.getByTestId('export-qa').click()))));
    const find = (end: string) => Object.keys(zip).find((p) => p.endsWith(end));
    const items = JSON.parse(strFromU8(zip[find('qa/items.json')!]!)) as {
      items: { id: string; anchors: { viewpoints: { id: string; slice?: { height: number } }[] }; setOfMark?: { viewpoint: string; image: string }[] }[];
    };
    const item = items.items.find((i) => i.id === 'qa_1')!;
    expect(item.setOfMark).toEqual([{ viewpoint: item.anchors.viewpoints[0]!.id, image: 'set-of-mark/qa_1-1.png' }]);
    expect(item.anchors.viewpoints[0]!.slice?.height).toBeCloseTo(1.6, 2); // saved with the slice it showed
    const png = zip[find('qa/set-of-mark/qa_1-1.png')!]!;
    const manifest = JSON.parse(strFromU8(zip[find('qa/manifest.json')!]!)) as { files: { path: string; bytes: number }[] };
    expect(manifest.files.find((f) => f.path === 'qa/set-of-mark/qa_1-1.png')?.bytes).toBe(png.length);
    writeFileSync(join(SHOTS, 'set-of-mark.png'), png);
    const img = decodePng(png);
    expect(img.width).toBe(1280);
    // The scan is drawn (not the empty background), and the marks' pink discs are on it.
    expect(shareUnlike(img, [0xe9, 0xed, 0xf2], 30)).toBeGreaterThan(0.2);
    expect(shareLike(img, [0xf7, 0x25, 0x85], 40)).toBeGreaterThan(0.0002); // a disc of ~16 px radius
    await expect.poll(() => page.getByTestId('qa-notice').textContent()).toContain('with 1 Set-of-Mark picture (qa/set-of-mark/)');
    console.log(`pictures: ${SHOTS}`);
  });
});
