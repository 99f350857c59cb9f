import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';

/** Step the queue with '.' until it shows this agent on this segment. */
async function goToItem(page: Page, agent: string, segment: string) {
  await page.keyboard.press('Home');
  for (let i = 0; i < 400; i++) {
    const el = page.getByTestId('queue-item');
    if ((await el.getAttribute('data-agent')) === agent && (await el.getAttribute('data-segment')) === segment) return;
    await page.keyboard.press('.');
  }
  throw new Error(`the queue never showed ${agent} on ${segment}`);
}

describe('driving the wheelchair into the narrowest door and labelling what stopped it', () => {
  const { profile, url } = studio();

  it('is stopped at the 0.70 m door, labels it with the measured width, survives a killed browser, and exports it', async () => {
    let page = await profile.page(url());
    await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor();
    await goToItem(page, 'WHEELCHAIR', 'node_11|node_13'); // Upper hall → Bedroom 1

    await page.keyboard.press('g');
    await page.getByTestId('drive-contact').waitFor({ timeout: 60_000 });
    const readouts = (await page.getByTestId('drive-readouts').textContent())!;
    expect(readouts).toMatch(/stopped/);
    const width = Number(/clear width (\d\.\d{3}) m/.exec(readouts)![1]);
    expect(Math.abs(width - 0.7)).toBeLessThan(0.01);

    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('queue-notice').textContent()).toMatch(/Saved: WHEELCHAIR node_11 → node_13 not traversable \(Narrow passage: clear width 0\.70 m/);

    // Kill the browser outright, as a crash or a power cut would: no unload, no flush.
    // (The bracket keeps pkill from matching its own command line.)
    execSync(`pkill -9 -f -- "[${profile.dir[0]}]${profile.dir.slice(1)}"`);
    profile.context = null;
    await new Promise((r) => setTimeout(r, 500));

    page = await profile.page(url());
    await page.getByTestId('project-name').filter({ hasText: 'Sample house' }).waitFor();
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor();
    await goToItem(page, 'WHEELCHAIR', 'node_11|node_13');
    expect(await page.getByTestId('existing-label').textContent()).toMatch(/not traversable: Narrow passage: clear width 0\.70 m < 0\.74 m needed/);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export release' }).click()]);
    const zip = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    const traverse = JSON.parse(strFromU8(Object.entries(zip).find(([p]) => p.endsWith('traverse/sample-house-traverse.json'))![1])) as Record<string, Record<string, { traversable: boolean; note: string; question?: string }>>;
    const label = traverse.WHEELCHAIR!['node_11|node_13']!;
    expect(label.traversable).toBe(false);
    expect(label.note).toMatch(/clear width 0\.70 m/);
    expect(label.question).toMatch(/first bedroom/);
  });
});
