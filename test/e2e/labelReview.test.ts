import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/cli.ts';
import { importFolder, nameAnnotator, studio } from '../support/browser.ts';

// Issue 23 §4–5: a fully labelled scene is reviewed without overwriting one segment again and
// again, and undo never takes back what the user did not do without saying so.

const item = async (page: Page) => {
  const el = page.getByTestId('queue-item');
  return `${await el.getAttribute('data-agent')} ${await el.getAttribute('data-segment')}`;
};
const notice = (page: Page) => page.getByTestId('queue-notice').textContent();

/** The sample house's release with its labels' annotator names taken off, in a folder of its own. */
function unsignedRelease(): string {
  const dir = mkdtempSync(join(tmpdir(), 'traversa-review-'));
  cpSync(join(REPO, 'scenes/sample-house'), dir, { recursive: true });
  rmSync(join(dir, 'house.glb'));
  const file = join(dir, 'traverse/sample-house-traverse.json');
  const traverse = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, { annotator?: string }> | string[]>;
  for (const [agent, table] of Object.entries(traverse))
    if (!agent.startsWith('_')) for (const label of Object.values(table)) delete (label as { annotator?: string }).annotator;
  writeFileSync(file, JSON.stringify(traverse));
  return dir;
}

describe('labelling a scene whose every segment is labelled: review mode', () => {
  const { open } = studio();

  it('each decision lands on its own segment and says what it changed; the queue walks on', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    // The sample house's release, labels and all (its ground truth), as a release's labels come:
    // unsigned. Every segment is labelled.
    expect(await importFolder(page, unsignedRelease())).toMatch(/^Imported /);
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor({ timeout: 60_000 });
    await nameAnnotator(page, 'Rita');
    const progress = (await page.getByTestId('progress-scene').textContent())!;
    const [done, total] = progress.match(/\d+/g)!.map(Number) as [number, number];
    expect(done).toBe(total);
    await page.keyboard.press('Home');
    const first = await item(page);

    await page.setViewportSize({ width: 1280, height: 720 });
    await page.keyboard.press('y');
    await expect.poll(() => item(page)).not.toBe(first);
    const second = await item(page);
    // The confirmation is on screen at 1280×720.
    const box = (await page.getByTestId('queue-notice').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(720);
    await page.screenshot({ path: join(REPO, 'tmp/review-mode-720.png') });
    expect(await notice(page)).toMatch(
      new RegExp(
        `^Saved: ${first.replace('|', ' → ').replace(/[.*+?^${}()[\]\\]/g, '\\$&')} traversable\\. (Unchanged|Changed|Note changed): it was .*Review: every segment is labelled; on to segment 2 of ${total}\\.$`,
      ),
    );

    // W X on the second: the reason and the label go to the second segment, and the queue moves on again.
    await page.keyboard.press('w');
    await page.keyboard.press('x');
    await expect.poll(() => item(page)).not.toBe(second);
    expect(await notice(page)).toContain(`Saved: ${second.replace('|', ' → ')} not traversable`);
    expect(await notice(page)).toContain(`on to segment 3 of ${total}`);
    // Back on the first two segments: what each decision wrote, each on its own segment.
    await page.keyboard.press('Home');
    expect(await item(page)).toBe(first);
    expect(await page.getByTestId('existing-label').textContent()).toMatch(/^Labelled traversable/);
    await page.keyboard.press('.');
    await expect.poll(() => item(page)).toBe(second);
    expect(await page.getByTestId('existing-label').textContent()).toMatch(/^Labelled not traversable/);
  });
});

describe('undo says what it undid, and an auto-approval is its own step', () => {
  const { open } = studio();

  it("visiting a question auto-approves the human and says so; Ctrl+Z takes back the annotator's label first, naming it, then the approval, naming it", async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor({ timeout: 60_000 });
    await nameAnnotator(page, 'Omar');
    // Question 1's human segments were approved when the queue reached it; the queue stands on the next agent's.
    await page.keyboard.press(']');
    await expect
      .poll(() => notice(page))
      .toMatch(/^Auto-approved HUMAN on \d+ segments? of question 2 \(the able-bodied human; a separate undo step — Ctrl\+Z takes it back\)\.$/);
    const mine = await item(page);
    expect(mine.startsWith('HUMAN')).toBe(false);
    await page.keyboard.press('y');
    await expect.poll(() => notice(page)).toMatch(/^Saved: /);
    await page.keyboard.press('Control+z');
    await expect.poll(() => notice(page)).toBe(`Undone: Label traversable: ${mine.replace('|', ' → ')}.`);
    await page.keyboard.press('Control+z');
    await expect.poll(() => notice(page)).toMatch(/^Undone: Auto-approve human: \d+ segments? of question 2\.$/);
    await page.getByTestId('queue-panel').screenshot({ path: join(REPO, 'tmp/undo-auto-approval.png') });
  });
});
