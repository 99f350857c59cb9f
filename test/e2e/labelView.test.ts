import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { studio, nameAnnotator } from '../support/browser.ts';
import { labelShown } from '../support/viewportProbe.ts';

async function currentItem(page: Page) {
  const el = page.getByTestId('queue-item');
  return {
    question: (await page.locator('.queue-question .q-index').textContent())!,
    agent: (await el.getAttribute('data-agent'))!,
    segment: (await el.getAttribute('data-segment'))!,
  };
}
const labelled = async (page: Page) => (await page.getByTestId('progress-scene').textContent())!;
const inLabelView = async (page: Page) =>
  (await page.locator('[data-view=label]').getAttribute('class'))?.includes('active') && (await page.getByTestId('queue-panel').isVisible());

/** Step the queue with '.' from its first item until it shows this agent on this segment. */
async function goToItem(page: Page, agent: string, segment: string) {
  await page.keyboard.press('Home');
  for (let i = 0; i < 400; i++) {
    const now = await currentItem(page);
    if (now.agent === agent && now.segment === segment) return;
    await page.keyboard.press('.');
    await expect.poll(async () => JSON.stringify(await currentItem(page))).not.toBe(JSON.stringify(now));
  }
  throw new Error(`the queue never showed ${agent} on ${segment}`);
}

describe('the label view as an annotator uses it, on the sample house', () => {
  const { profile, url } = studio();

  it('keeps computed suggestions over a reload', async () => {
    const page = await profile.page(url());
    await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
    await page.keyboard.press('3');
    await nameAnnotator(page);
    await page.getByTestId('queue-item').waitFor();
    await page.getByTestId('compute-suggestions').click();
    await page.getByTestId('suggestions-kept').waitFor({ timeout: 90_000 });
    const before = { item: await currentItem(page), suggestion: await page.getByTestId('suggestion').textContent() };

    await page.reload();
    await page.getByTestId('queue-item').waitFor({ timeout: 60_000 });
    // Back where the annotator was, with the suggestion shown and nothing recomputed.
    await page.getByTestId('suggestion').waitFor();
    expect({ item: await currentItem(page), suggestion: await page.getByTestId('suggestion').textContent() }).toEqual(before);
    expect(await page.getByTestId('compute-suggestions').textContent()).toBe('Recompute suggestions');
    expect(await page.getByTestId('suggestions-stale').count()).toBe(0);
  });

  it('] and [ move between questions and A between agents, without leaving the label view', async () => {
    const page = await profile.page(url());
    await page.getByTestId('queue-item').waitFor({ timeout: 60_000 });
    await goToItem(page, 'WHEELCHAIR', 'node_1|node_2');
    const start = await currentItem(page);
    expect(start.question).toBe('#0');

    await page.keyboard.press(']');
    await expect.poll(async () => (await currentItem(page)).question).toBe('#1');
    expect((await currentItem(page)).agent).toBe('WHEELCHAIR');
    expect(await inLabelView(page)).toBe(true);
    await page.keyboard.press('[');
    await expect.poll(async () => (await currentItem(page)).question).toBe('#0');
    expect(await inLabelView(page)).toBe(true);

    const here = await currentItem(page);
    await page.keyboard.press('a');
    await expect.poll(async () => (await currentItem(page)).agent).toBe('HUMANOID');
    expect(await currentItem(page)).toMatchObject({ question: here.question, segment: here.segment });
  });

  it('with the shortcuts list open, keys do nothing behind it; it lists the arrow keys that drive', async () => {
    const page = await profile.page(url());
    await page.getByTestId('queue-item').waitFor({ timeout: 60_000 });
    const item = await currentItem(page),
      progress = await labelled(page);

    await page.keyboard.press('?');
    await page.getByTestId('shortcuts-help').waitFor();
    const labelKeys = (await page.getByTestId('shortcuts-label').textContent())!;
    expect(labelKeys).toContain('Drive the placed agent (B) 5 cm forward / back');
    expect(labelKeys).toContain('Next agent on this segment');
    expect(labelKeys).toContain('Next question of the queue');
    for (const key of ['y', ']', '.', 'a', 'u', 'x']) await page.keyboard.press(key);
    expect(await currentItem(page)).toEqual(item);
    expect(await labelled(page)).toBe(progress);

    await page.keyboard.press('Escape');
    await page.getByTestId('shortcuts-help').waitFor({ state: 'hidden' });
    await page.keyboard.press(']');
    await expect.poll(async () => (await currentItem(page)).question).not.toBe(item.question);
  });

  it('a drive is gone when the queue moves; Ctrl+Z and Ctrl+Y undo and redo a label', async () => {
    const page = await profile.page(url());
    await page.getByTestId('queue-item').waitFor({ timeout: 60_000 });
    // B places the agent once the scan has loaded (the label view shows no loading bar): press until it is there.
    await expect
      .poll(
        async () => {
          await page.keyboard.press('b');
          return page.getByTestId('drive-readouts').isVisible();
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    await page.keyboard.press('.');
    await page.getByTestId('drive-readouts').waitFor({ state: 'hidden' });

    const progress = await labelled(page);
    await page.keyboard.press('y');
    await expect.poll(() => labelled(page)).not.toBe(progress);
    const after = await labelled(page);
    await page.keyboard.press('Control+z');
    await expect.poll(() => labelled(page)).toBe(progress);
    await page.keyboard.press('Control+y');
    await expect.poll(() => labelled(page)).toBe(after);
  });

  it('slices at the current segment’s floor: upstairs the ground floor’s names are hidden, on the stairs both floors show', async () => {
    const page = await profile.page(url());
    await page.getByTestId('queue-item').waitFor({ timeout: 60_000 });

    await goToItem(page, 'WHEELCHAIR', 'node_11|node_13'); // Upper hall → Bedroom 1
    await expect.poll(() => page.getByTestId('slice-height').textContent()).toBe('4.40 m');
    await expect.poll(() => labelShown(page, 'node_1')).toBe(false); // the entrance hall, right under the upper hall
    expect(await labelShown(page, 'node_11')).toBe(true);
    expect(await labelShown(page, 'node_13')).toBe(true);

    await goToItem(page, 'WHEELCHAIR', 'node_1|node_2'); // ground floor
    await expect.poll(() => page.getByTestId('slice-height').textContent()).toBe('1.60 m');
    await expect.poll(() => labelShown(page, 'node_11')).toBe(false);
    await expect.poll(() => labelShown(page, 'node_1')).toBe(true);

    await goToItem(page, 'WHEELCHAIR', 'node_8|node_10'); // the stairs
    await expect.poll(() => page.getByTestId('slice-height').textContent()).toBe('4.40 m');
    await expect.poll(() => labelShown(page, 'node_8')).toBe(true);
    await expect.poll(() => labelShown(page, 'node_10')).toBe(true);
  });
});
