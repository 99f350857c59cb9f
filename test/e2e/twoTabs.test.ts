import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nameAnnotator, storedLabels, studio } from '../support/browser.ts';

/**
 * Two tabs of one browser on one project, labelling different agents of one scene at the same
 * time: each confirmed label is stored as its own record, so neither tab's writes can replace the
 * other's, and after a reload every confirmed label of both is there.
 */
async function current(page: Page): Promise<{ agent: string; segment: string }> {
  const el = page.getByTestId('queue-item');
  return { agent: (await el.getAttribute('data-agent'))!, segment: (await el.getAttribute('data-segment'))! };
}

/** Label `n` segments for `agent` (moving to that agent on each segment with A), each until "Saved:". */
async function labelAs(page: Page, agent: string, n: number): Promise<string[]> {
  const done: string[] = [];
  for (let k = 0; k < n; k++) {
    for (let guard = 0; guard < 6 && (await current(page)).agent !== agent; guard++) {
      const before = await current(page);
      await page.keyboard.press('a');
      await expect.poll(async () => JSON.stringify(await current(page))).not.toBe(JSON.stringify(before));
    }
    const item = await current(page);
    expect(item.agent).toBe(agent);
    await page.keyboard.press('y');
    await page.waitForFunction(
      (seg) => (document.querySelector('[data-testid=queue-notice]')?.textContent ?? '').startsWith(`Saved: ${seg}`),
      `${item.agent} ${item.segment.replace('|', ' → ')}`,
    );
    done.push(item.segment);
  }
  return done;
}

describe('two tabs label one scene at once', () => {
  const { profile, url } = studio();

  it('each labels its own agent; after reload every confirmed label of both is there', { timeout: 180_000 }, async () => {
    const a = await profile.page(url());
    await a.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    const b = await profile.context!.newPage();
    await b.goto(url());
    await b.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    for (const [page, name] of [
      [a, 'tab-a'],
      [b, 'tab-b'],
    ] as const) {
      await page.keyboard.press('3');
      await nameAnnotator(page, name);
      await page.getByTestId('queue-item').waitFor();
    }
    // Both at once, as two annotators sharing a browser would.
    const [byA, byB] = await Promise.all([labelAs(a, 'WHEELCHAIR', 4), labelAs(b, 'SWEEPER', 4)]);
    const expected = [...byA.map((s) => `WHEELCHAIR ${s} tab-a`), ...byB.map((s) => `SWEEPER ${s} tab-b`)].sort();
    expect(new Set(expected).size).toBe(8);

    await Promise.all([a.reload(), b.reload()]);
    await a.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    const stored = await storedLabels(a);
    for (const label of expected) expect(stored).toContain(label);
    await b.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    expect(await b.getByTestId('storage-status').textContent()).toBe('Saved in this browser');
  });
});
