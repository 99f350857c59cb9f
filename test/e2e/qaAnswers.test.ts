import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'traversa-qa-answers-')), name);
  writeFileSync(path, text);
  return path;
}

const generated = (question: string, answer: unknown, capability: string) =>
  JSON.stringify({
    sceneId: 'sample-house',
    question,
    answer,
    category: { capability },
    generator: 'test-generator v1',
    trail: [{ title: 'Look', text: 'Seen in the scan.', kind: 'perception' }],
  });

const cell = (page: Page, model: string, col: string) =>
  page.locator(`[data-testid=qa-answers-table] tr[data-model="${model}"] [data-col=${col}]`).textContent();

describe("a researcher scores a model's answers to the accepted QA items of the sample house", () => {
  const { profile, url } = studio();

  it("accepts four items, loads the answers, and reads the capability table, every item and the file's problems", async () => {
    const items = tempFile(
      'generated.jsonl',
      [
        generated(
          'Which room is on the upper floor? <b>pick one</b>',
          {
            kind: 'mcq',
            options: [
              { key: 'A', text: 'Kitchen' },
              { key: 'B', text: 'Bedroom 1' },
              { key: 'C', text: 'Study' },
            ],
            correct: 'B',
          },
          'semantic',
        ),
        generated('Is the kitchen next to the living room?', { kind: 'yesno', correct: true }, 'spatial'),
        generated('How wide is the doorway into Bedroom 1?', { kind: 'numeric', value: 0.8, unit: 'm', tolerance: 0.1 }, 'physical'),
        generated('Which room does one walk through from the front door to the stairs?', { kind: 'freetext', reference: 'The hall.' }, 'temporal'),
      ].join('\n') + '\n',
    );
    // SEM right (100), SPA wrong (0), PHY 0.76 for 0.8 m at τ 0.1 (50), TEM judged 80; line 5 is broken, qa_99 is no item.
    const answers = tempFile(
      'vlm.jsonl',
      [
        '{"id": "qa_1", "answer": "B"}',
        '{"id": "qa_2", "answer": "No, it is not possible"}',
        '{"id": "qa_3", "answer": "About 0.76 m"}',
        '{"id": "qa_4", "answer": "Through the hall.", "judgeScore": 80}',
        '{"id": "qa_4", "answer": ',
        '{"id": "qa_99", "answer": "yes"}',
      ].join('\n') + '\n',
    );

    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });

    // Before any item is accepted the section says what it needs.
    await page.locator('[data-view=score]').click();
    expect(await page.getByTestId('qa-answers-empty').textContent()).toContain('No accepted QA items');

    await page.locator('[data-view=qa]').click();
    await page.getByTestId('qa-list').waitFor();
    await page.getByTestId('import-items-input').setInputFiles(items);
    await expect.poll(() => page.getByTestId('import-report').textContent()).toContain('Imported 4 items from generated.jsonl into');
    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('mode-review').click();
    for (const id of ['qa_1', 'qa_2', 'qa_3', 'qa_4']) {
      await expect.poll(() => page.getByTestId('review-panel').getAttribute('data-item')).toBe(id);
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('a');
    }
    await expect.poll(() => page.getByTestId('review-empty').isVisible()).toBe(true);

    await page.locator('[data-view=score]').click();
    const empty = await page.getByTestId('qa-answers-empty').textContent();
    expect(empty).toContain('4 accepted items');
    expect(empty).toContain('{"id": "qa_3", "answer": "B", "model": "gpt-4o"}');

    await page.getByTestId('qa-answers-input').setInputFiles(answers);
    await page.locator('[data-testid=qa-answers-table] tr[data-model=vlm]').waitFor();
    const row = async () =>
      Object.fromEntries(
        await Promise.all(
          ['sem', 'spa', 'tem', 'phy', 'vqa', 'gen', 'mcq-acc', 'yn-acc', 'numeric', 'free', 'missing', 'unmatched'].map(async (c) => [
            c,
            await cell(page, 'vlm', c),
          ]),
        ),
      );
    expect(await row()).toEqual({
      sem: '100.00',
      spa: '0.00',
      tem: '80.00',
      phy: '50.00',
      vqa: '57.50',
      gen: '–',
      'mcq-acc': '100.00',
      'yn-acc': '0.00',
      numeric: '50.00',
      free: '1/1',
      missing: '0',
      unmatched: '1',
    });

    // Every item, its question shown as text.
    const first = page.locator('[data-testid=qa-answers-items] tr[data-item=qa_1]');
    expect(await first.locator('[data-col=question]').textContent()).toBe('Which room is on the upper floor? <b>pick one</b>');
    expect(await first.locator('[data-col=question] b').count()).toBe(0);
    expect(await first.locator('[data-col=truth]').textContent()).toBe('B (Bedroom 1)');
    const second = page.locator('[data-testid=qa-answers-items] tr[data-item=qa_2]');
    expect([await second.locator('[data-col=reply]').textContent(), await second.locator('[data-col=score]').textContent()]).toEqual([
      'No, it is not possible',
      '0.00',
    ]);
    expect(await second.locator('[data-col=note]').textContent()).toContain('read no');
    expect(await page.getByTestId('qa-answers-unmatched').textContent()).toContain('qa_99');
    expect(await page.getByTestId('qa-answers-problems').textContent()).toMatch(/vlm\.jsonl line 5, column \d+: error: /);

    // One τ for every numeric item: 0.76 for 0.8 m is beyond 1 %, so PHY drops to 0 and VQA to 45.
    await page.getByTestId('qa-answers-tau').fill('0.01');
    await expect.poll(() => cell(page, 'vlm', 'phy')).toBe('0.00');
    expect(await cell(page, 'vlm', 'vqa')).toBe('45.00');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('qa-answers-export').click()]);
    const report = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      settings: { tau: number };
      models: { model: string; embodied4c: { benchmarks: { qa: { vqa: { mean: number } } } } }[];
      problems: { file: string; location: string }[];
    };
    expect(report.settings.tau).toBe(0.01);
    expect(report.models.map((m) => [m.model, m.embodied4c.benchmarks.qa.vqa.mean])).toEqual([['vlm', 45]]);
    expect(report.problems.map((p) => p.file)).toEqual(['vlm.jsonl']);
  });
});
