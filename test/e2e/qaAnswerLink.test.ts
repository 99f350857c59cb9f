import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'traversa-qa-link-')), name);
  writeFileSync(path, text);
  return path;
}

const item = (question: string) =>
  JSON.stringify({
    sceneId: 'sample-house',
    question,
    answer: { kind: 'yesno', correct: true },
    category: { capability: 'spatial' },
    generator: 'test-generator v1',
    trail: [{ title: 'Look', text: 'Seen in the scan.', kind: 'perception' }],
  });

describe('a scored QA answer links to its item (issue 13)', () => {
  const { open } = studio();

  it("clicking an answer's item id opens that item in the QA view", async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
    await page.locator('[data-view=qa]').click();
    await page
      .getByTestId('import-items-input')
      .setInputFiles(tempFile('generated.jsonl', `${item('Is the kitchen next to the living room?')}\n${item('Is the study on the ground floor?')}\n`));
    await expect.poll(() => page.getByTestId('import-report').textContent()).toContain('Imported 2 items from generated.jsonl into');
    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('mode-review').click();
    for (const id of ['qa_1', 'qa_2']) {
      await expect.poll(() => page.getByTestId('review-panel').getAttribute('data-item')).toBe(id);
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('a');
    }
    await expect.poll(() => page.getByTestId('review-empty').isVisible()).toBe(true);

    await page.locator('[data-view=score]').click();
    await page.getByTestId('qa-answers-input').setInputFiles(tempFile('vlm.jsonl', '{"id": "qa_1", "answer": "yes"}\n{"id": "qa_2", "answer": "no"}\n'));
    await page.locator('[data-testid=qa-answers-items] tr[data-item=qa_2]').waitFor();
    await page.locator('[data-testid=qa-answers-items] tr[data-item=qa_2] [data-testid=open-qa-item]').click();
    await expect.poll(() => page.locator('[data-view=qa]').getAttribute('class')).toContain('active');
    await expect.poll(() => page.getByTestId('item-editor').getAttribute('data-item')).toBe('qa_2');
    expect(await page.getByTestId('item-editor').textContent()).toContain('Is the study on the ground floor?');
  });
});
