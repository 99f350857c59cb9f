import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';
import { settledPointOnPage } from '../support/viewportProbe.ts';

const STUDY = { x: 7.3, y: 0.02, z: 2.75 }; // node_6, ground floor, under Bedroom 1

/**
 * Issue 23 §7: Set-of-Mark marks land on the floor the user sees. An item about a ground-floor room
 * shows that floor (the slice follows the nodes it references), a mark clicked there lands there; a
 * mark that lands on another floor's slab is flagged; numbers stay readable off the sliced floors.
 */
describe('Set-of-Mark marks on the floor the item is about', () => {
  const { profile, url } = studio();

  it('slices at the item\'s floor, places the mark on it, and flags one placed on the slab above', async () => {
    const page = await profile.page(url());
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
    await page.screenshot({ path: join(mkdtempSync(join(tmpdir(), 'traversa-marks-')), 'marks.png') });
  });
});
