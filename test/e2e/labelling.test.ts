import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nameAnnotator, storedLabels, studio } from '../support/browser.ts';

const SAMPLE = resolve(import.meta.dirname, '../../scenes/sample-house');
const truth = JSON.parse(readFileSync(resolve(SAMPLE, 'traverse/sample-house-traverse.json'), 'utf8')) as Record<
  string,
  Record<string, { traversable: boolean; note: string }>
>;
const KEY_OF_NOTE: [RegExp, string][] = [
  [/^Stairs/, 's'],
  [/^Lift/, 'e'],
  [/^Closed door/, 'd'],
  [/^Sill/, 'p'],
  [/^Narrow/, 'w'],
  [/^Turning/, 'r'],
];

/** The recorded ground truth of a segment for an agent (either direction; the humanoid is filed as ROBOT). */
function expected(agent: string, segment: string) {
  const table = truth[agent === 'HUMANOID' ? 'ROBOT' : agent]!;
  const [a, b] = segment.split('|');
  return table[`${a}|${b}`] ?? table[`${b}|${a}`]!;
}

async function currentItem(page: Page) {
  const el = page.getByTestId('queue-item');
  return { agent: (await el.getAttribute('data-agent'))!, segment: (await el.getAttribute('data-segment'))! };
}

describe('labelling a sample question for all five agents with the keyboard alone', () => {
  const { profile, url } = studio();

  it('walks the first question segment by segment, agent by agent, and the feasibility follows', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    await page.keyboard.press('3'); // the labelling queue
    await nameAnnotator(page);
    await page.getByTestId('queue-item').waitFor();
    const total = Number(/\d+ \/ (\d+)/.exec((await page.getByTestId('progress-scene').textContent())!)?.[1] ?? 0);
    expect(total).toBeGreaterThan(0);
    // The unrestricted human is auto-approved, as in the original tool: the queue starts at the wheelchair.
    await expect.poll(async () => (await currentItem(page)).agent).toBe('WHEELCHAIR');

    const decided: string[] = [];
    for (let guard = 0; guard < 60; guard++) {
      const q = (await page.locator('.queue-question .q-index').textContent())!;
      if (q !== '#0') break;
      const item = await currentItem(page);
      const gt = expected(item.agent, item.segment);
      if (gt.traversable) await page.keyboard.press('y');
      else {
        await page.keyboard.press(KEY_OF_NOTE.find(([re]) => re.test(gt.note))![1]);
        await page.keyboard.press('x');
      }
      decided.push(`${item.agent} ${item.segment}`);
      await expect.poll(async () => JSON.stringify(await currentItem(page)), { timeout: 10_000 }).not.toBe(JSON.stringify(item));
    }
    expect(decided.length).toBeGreaterThan(4);
    // Hall → Bedroom 2: the human and the quadruped by the stairs, the humanoid by the lift; the
    // wheelchair and the sweeper are stopped by the 5 cm sill.
    // The queue has moved on to the next question; the scene's question list shows the first one.
    await page.keyboard.press('2');
    await page.getByRole('tab', { name: /Questions/ }).click();
    const feas = page.locator('[data-question="0"] .feasibility');
    const shown = async (agent: string) => (await feas.locator(`[title^="${agent}:"]`).getAttribute('class'))!.includes('yes');
    expect({
      HUMAN: await shown('HUMAN'),
      WHEELCHAIR: await shown('WHEELCHAIR'),
      HUMANOID: await shown('HUMANOID'),
      QUADRUPEDAL: await shown('QUADRUPEDAL'),
      SWEEPER: await shown('SWEEPER'),
    }).toEqual({ HUMAN: true, WHEELCHAIR: false, HUMANOID: true, QUADRUPEDAL: true, SWEEPER: false });
  });
});

describe('labelling faster than the labels are stored (issue 25 §11)', () => {
  const { profile, url } = studio();

  it('ten presses of Y 20 ms apart label ten segments, each once, none skipped', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    await page.keyboard.press('3');
    await nameAnnotator(page);
    await page.getByTestId('queue-item').waitFor();
    // Every label by hand (no auto-approved human): the count says what the keys did.
    await page.getByTestId('auto-approve').uncheck();
    // This annotator's label records, read from the browser's database once every change is stored.
    const saved = async () => {
      await expect.poll(() => page.getByTestId('storage-status').textContent()).toBe('Saved in this browser');
      return (await storedLabels(page)).filter((l) => l.endsWith(' tester'));
    };
    const before = await saved();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('y');
      await page.waitForTimeout(20);
    }
    // Every press is taken, one after the other: ten new records, ten segments.
    await expect.poll(async () => (await saved()).length, { timeout: 20_000 }).toBe(before.length + 10);
    await page.waitForTimeout(1000);
    const after = await saved();
    expect(after.length).toBe(before.length + 10);
    expect(new Set(after).size).toBe(after.length);
    expect(
      await page
        .getByTestId('studio-notice')
        .textContent({ timeout: 100 })
        .catch(() => ''),
    ).not.toMatch(/not applied/);
  });
});

describe('suggestions computed in the browser', () => {
  const { profile, url } = studio();

  it('measures the scan in a worker and suggests, for each queued segment, what the ground truth says', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
    await page.keyboard.press('3');
    await nameAnnotator(page);
    await page.getByTestId('queue-item').waitFor();
    await page.getByTestId('compute-suggestions').click();
    await page.getByTestId('suggestion').waitFor({ timeout: 90_000 });
    await page.getByTestId('agreement').waitFor();
    const seen = new Set<string>();
    for (let k = 0; k < 8; k++) {
      const item = await currentItem(page);
      seen.add(`${item.agent} ${item.segment}`);
      const suggested = (await page.getByTestId('suggestion').getAttribute('class'))!.includes('yes');
      expect(suggested, `${item.agent} ${item.segment}`).toBe(expected(item.agent, item.segment).traversable);
      await page.keyboard.press('.');
      await expect.poll(async () => JSON.stringify(await currentItem(page))).not.toBe(JSON.stringify(item));
    }
    expect(seen.size).toBe(8);
  });
});
