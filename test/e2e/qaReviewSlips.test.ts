import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';

// A reviewer working through generated items at 1400×900 with the keyboard: the keys reach the
// reasons, the editor and back; the queue narrows by source and import; a disagreement is decided
// with A, not reviewed a third time; an accepted item that is edited goes back to review with the
// change shown.

async function openQa(page: Page): Promise<void> {
  await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
  await page.locator('[data-view=qa]').click();
  await page.getByTestId('qa-list').waitFor();
}

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'traversa-slips-')), name);
  writeFileSync(path, text);
  return path;
}

const TRAIL = [
  { title: 'Find the rooms', text: 'The kitchen is on the ground floor, reached from the entrance hall through the back hall.', kind: 'perception' },
  { title: 'Follow the hall', text: 'The back hall joins the kitchen and the utility room; the living room opens off the entrance hall.', kind: 'spatial' },
  { title: 'Check the doors', text: 'Every doorway on the way is at least 0.8 m wide and has no threshold higher than 2 cm.', kind: 'physical' },
  { title: 'Look for steps', text: 'There are no steps between the entrance hall and the kitchen; the stairs lead up from the stair foot.', kind: 'safety' },
  { title: 'Answer', text: 'So the kitchen can be reached from the living room without stairs.', kind: 'conclusion' },
];
const record = (n: number, generator: string) =>
  JSON.stringify({
    sceneId: 'sample-house',
    generator,
    category: { capability: 'spatial' },
    trail: TRAIL,
    question: `Item ${n}: can someone walk from the living room to the kitchen without using the stairs, going through the entrance hall and the back hall?`,
    answer: {
      kind: 'mcq',
      options: [
        { key: 'A', text: 'yes, through the back hall' },
        { key: 'B', text: 'no, the stairs are in the way' },
        { key: 'C', text: 'only through the study' },
      ],
      correct: 'A',
    },
  });

const panelItem = (page: Page) => page.getByTestId('review-panel').getAttribute('data-item');
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('data-testid') ?? el?.getAttribute('data-item-row') ?? el?.getAttribute('data-reason') ?? el?.tagName ?? null;
  });
const clickAway = (page: Page) => page.locator('body').click({ position: { x: 5, y: 5 } });

describe('review slips at 1400×900', () => {
  const { profile, url } = studio();

  it('R brings the reasons on screen with the first focused; E puts the cursor in the question and Esc gives the keys back to the queue', async () => {
    const page = await profile.page(url());
    await openQa(page);
    // Twelve items from one model (a long list, five-step trails), four from another, as two imports.
    await page.getByTestId('import-items-input').setInputFiles(tempFile('gpt.jsonl', Array.from({ length: 12 }, (_, i) => record(i + 1, 'gpt-4o')).join('\n')));
    await expect.poll(() => page.locator('[data-item-row]').count()).toBe(12);
    await page
      .getByTestId('import-items-input')
      .setInputFiles(tempFile('qwen.jsonl', Array.from({ length: 4 }, (_, i) => record(i + 13, 'qwen-vl')).join('\n')));
    await expect.poll(() => page.locator('[data-item-row]').count()).toBe(16);
    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('mode-review').click();
    await page.locator('[data-item-row=qa_1]').click();
    await expect.poll(() => panelItem(page)).toBe('qa_1');
    await page.screenshot({ path: 'tmp/slips-review.png' });

    await clickAway(page);
    await page.keyboard.press('r');
    const reasons = page.getByTestId('reject-reasons');
    await reasons.waitFor();
    await page.screenshot({ path: 'tmp/slips-reject.png' });
    const box = (await reasons.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    expect(await focused(page)).toBe('hallucinated');
    // A comment written while the reject waits for its reason: Esc leaves the field, the reject stays pending.
    await page.getByTestId('qa-comment').click();
    await page.keyboard.type('no such piano');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).not.toBe('qa-comment');
    expect(await reasons.count()).toBe(1);
    // Esc on the queue cancels the reject.
    await page.keyboard.press('Escape');
    await expect.poll(() => reasons.count()).toBe(0);

    await page.keyboard.press('e');
    await expect.poll(() => focused(page)).toBe('item-question');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('qa_1');
    await expect.poll(() => page.getByTestId('item-editor').count()).toBe(0);
    // The keys act on the queue again: A accepts qa_1 and moves on.
    await page.keyboard.press('a');
    await expect.poll(() => panelItem(page)).toBe('qa_2');
  });

  it('the queue narrows by source and by import, reached with Tab, and says what to do when nothing matches', async () => {
    const page = await profile.page(url());
    await openQa(page);
    await page.getByTestId('mode-review').click();
    await expect.poll(() => panelItem(page)).toBe('qa_2');

    await page.getByTestId('qa-filter').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('qa-filter-scene');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('qa-filter-source');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('qa-filter-batch');

    await page.getByTestId('qa-filter-source').selectOption({ label: 'Generated by qwen-vl (4)' });
    await page.getByTestId('qa-filter').selectOption('to-review');
    await expect
      .poll(() => page.locator('[data-item-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-item-row'))))
      .toEqual(['qa_13', 'qa_14', 'qa_15', 'qa_16']);
    // The open item was left out by the filter: review moved to the first qwen-vl item.
    await expect.poll(() => panelItem(page)).toBe('qa_13');
    expect(await page.getByTestId('mode-review').textContent()).toBe('Review (4 waiting)');

    const batches = await page.getByTestId('qa-filter-batch').locator('option').allTextContents();
    expect(batches.some((b) => /^gpt\.jsonl · \d{4}-\d\d-\d\d \d\d:\d\d UTC \(12\)$/.test(b))).toBe(true);
    await page.getByTestId('qa-filter-batch').selectOption({ label: batches.find((b) => b.startsWith('gpt.jsonl'))! });
    await expect
      .poll(() => page.getByTestId('qa-no-match').textContent())
      .toMatch(/No item of “My review queue” matches the filters \(Generated by qwen-vl · import gpt\.jsonl/);
    expect(await page.getByTestId('review-empty').textContent()).toMatch(
      /Nothing in your review queue matches the filters.*15 items wait for you outside them/,
    );
    await page.screenshot({ path: 'tmp/slips-filtered-empty.png' });

    await page.getByTestId('qa-no-match-clear').click();
    await expect.poll(() => page.locator('[data-item-row]').count()).toBe(15);
    expect(await page.getByTestId('qa-filter-source').inputValue()).toBe('');
  });

  it('an accepted item edited afterwards goes back to review, the change shown against what was accepted (and, once reviewed again, no longer said to need review); undo restores text and status', async () => {
    const page = await profile.page(url());
    await openQa(page);
    await page.getByTestId('qa-annotator').fill('Ana');
    await page.getByTestId('mode-write').click();
    await page.getByTestId('qa-filter').selectOption('all');
    await page.locator('[data-item-row=qa_1]').click();
    expect(await page.getByTestId('item-status').textContent()).toBe('accepted');
    expect(await page.getByTestId('edit-reopens').isVisible()).toBe(true);
    const question = page.getByTestId('item-question');
    const before = await question.inputValue();
    await question.fill(before.replace('the back hall', 'the study'));
    await question.evaluate((el) => (el as HTMLElement).blur());
    await expect.poll(() => page.getByTestId('item-status').textContent()).toBe('pending');

    // Rita's verdict no longer holds: qa_1 is back in her queue, with the change against what she accepted.
    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('mode-review').click();
    await expect.poll(() => panelItem(page)).toBe('qa_1');
    const change = page.getByTestId('reviewed-change');
    expect(await change.textContent()).toContain('Changed since it was accepted (Rita: accept)');
    expect(await change.locator('[data-change=question] del').allTextContents()).toContain('back hall');
    expect(await change.locator('[data-change=question] ins').allTextContents()).toContain('study');
    expect(await change.textContent()).toContain('Those verdicts no longer count: it needs review again.');
    await page.screenshot({ path: 'tmp/slips-changed.png' });

    // Reviewed again (accepted): the change is still shown, but no longer says it needs review.
    await clickAway(page);
    await page.keyboard.press('a');
    await page.getByTestId('qa-filter').selectOption('all');
    await page.locator('[data-item-row=qa_1]').click();
    await expect.poll(() => page.getByTestId('item-status').textContent()).toBe('accepted');
    expect(await page.getByTestId('reviewed-change').textContent()).toContain('It has been reviewed again since.');
    expect(await page.getByTestId('reviewed-change').textContent()).not.toContain('needs review again');

    await clickAway(page);
    await page.keyboard.press('Control+z'); // the second acceptance
    await page.keyboard.press('Control+z'); // the edit
    await page.getByTestId('qa-filter').selectOption('all');
    await expect.poll(() => page.locator('[data-item-row=qa_1] .badge').textContent()).toBe('accepted');
    await page.getByTestId('mode-write').click();
    await page.locator('[data-item-row=qa_1]').click();
    expect(await page.getByTestId('item-question').inputValue()).toBe(before);
  });

  it('A on an item awaiting adjudication decides it; the shortcuts list and the buttons name the keys', async () => {
    const page = await profile.page(url());
    await openQa(page);
    await page.getByTestId('import-reviews').fill('2');
    await page.getByTestId('import-items-input').setInputFiles(tempFile('pair.jsonl', record(17, 'pair-model')));
    await page.getByTestId('qa-filter-source').selectOption({ label: 'Generated by pair-model (1)' });
    const reviewAs = async (name: string, keys: string[]) => {
      await page.getByTestId('qa-annotator').fill(name);
      await page.getByTestId('mode-write').click();
      await page.getByTestId('mode-review').click();
      await expect.poll(() => panelItem(page)).toBe('qa_17');
      await clickAway(page);
      for (const k of keys) await page.keyboard.press(k);
      await expect.poll(() => page.getByTestId('review-empty').count()).toBe(1);
    };
    await reviewAs('Rita', ['a']);
    await reviewAs('Omar', ['r', 't']);

    await page.getByTestId('qa-annotator').fill('Lee');
    await page.getByTestId('qa-filter').selectOption('adjudicate');
    await page.locator('[data-item-row=qa_17]').click();
    const decide = page.getByTestId('adjudicate');
    expect(await decide.getByTestId('adjudicate-accept').textContent()).toBe('Decide: accept A');
    expect(await decide.getByTestId('adjudicate-reject').textContent()).toBe('Decide: reject R');
    expect(await decide.textContent()).toContain('Omar: reject');
    await page.screenshot({ path: 'tmp/slips-adjudicate.png' });

    await clickAway(page);
    await page.keyboard.press('?');
    const help = page.getByTestId('shortcuts-qa');
    expect(await help.locator('[data-command="qa.adjudicate.accept"]').textContent()).toMatch(/^AAdjudicate/);
    expect(await help.locator('[data-command="qa.adjudicate.reject"]').textContent()).toMatch(/^RAdjudicate/);
    await page.keyboard.press('?');

    await page.keyboard.press('a');
    await page.getByTestId('qa-filter').selectOption('all');
    await expect.poll(() => page.locator('[data-item-row=qa_17] .badge').textContent()).toBe('accepted');
    await expect.poll(() => page.getByTestId('qa-notice').textContent()).toContain('Adjudicated: qa_17 accepted');
    // Still the two reviews, and the decision is Lee's.
    await page.getByTestId('mode-write').click();
    await page.locator('[data-item-row=qa_17]').click();
    await page.getByTestId('mode-review').click();
    expect(await page.getByTestId('review-panel').textContent()).toContain('2/2 reviews');
  });
});
