import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';
import { measureClearWidthAt, settledPointOnPage } from '../support/viewportProbe.ts';

const features = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../scenes/sample-house/features.json'), 'utf8')) as {
  edges: Record<string, { clearWidthM: number; at: { x: number; y: number; z: number } }>;
};

async function openQa(page: Page): Promise<void> {
  await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
  await page.locator('[data-view=qa]').click();
  await page.getByTestId('qa-list').waitFor();
  await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
}

/** Type into a field that commits when it is left. */
async function commit(page: Page, testId: string, text: string): Promise<void> {
  const field = page.getByTestId(testId);
  await field.fill(text);
  await field.evaluate((el) => (el as HTMLElement).blur());
}

const storedAll = (page: Page) => expect.poll(() => page.getByTestId('storage-status').textContent()).toBe('Saved in this browser');

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'traversa-qa-')), name);
  writeFileSync(path, text);
  return path;
}

describe('writing question-answer ground truth in the sample house', () => {
  const { profile, url } = studio();

  it('writes a multiple-choice and a measured numeric item with a three-step trail, and finds everything after a reload', async () => {
    const page = await profile.page(url());
    await openQa(page);
    await expect.poll(() => page.getByTestId('qa-empty').isVisible()).toBe(true);
    await page.getByTestId('qa-annotator').fill('Ana');

    // Multiple choice: which room is upstairs.
    await page.getByTestId('new-item').click();
    await commit(page, 'item-question', 'Which of these rooms is on the upper floor?');
    await page.getByTestId('item-kind').selectOption('mcq');
    await page.getByTestId('add-option').click();
    await commit(page, 'option-A', 'Kitchen');
    await commit(page, 'option-B', 'Bedroom 1');
    await commit(page, 'option-C', 'Study');
    await page.getByLabel('Correct: B').check();
    await page.getByTestId('item-capability').selectOption('spatial');
    await storedAll(page);

    // Numeric: the clear width of Bedroom 1's door, filled from the measuring tool.
    await page.getByTestId('new-item').click();
    await commit(page, 'item-question', 'How wide is the doorway into Bedroom 1, in metres?');
    await page.getByTestId('item-kind').selectOption('numeric');
    await page.getByTestId('item-capability').selectOption('physical');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    // The door is upstairs: slice at the upper floor so the pick cannot land on the lintel above it.
    await page.keyboard.press('PageUp');
    await page.keyboard.press('PageUp');
    await expect.poll(() => page.getByTestId('slice-height').textContent()).toBe('4.40 m');
    const door = features.edges['node_11|node_13']!;
    await measureClearWidthAt(page, door.at, () => page.getByTestId('fill-width').isVisible());
    await page.getByTestId('fill-width').click();
    const filled = Number(await page.getByTestId('numeric-value').inputValue());
    expect(Math.abs(filled - door.clearWidthM)).toBeLessThan(0.015);
    await expect.poll(() => page.getByTestId('measurement-evidence').textContent()).toMatch(/measured width/);

    // A numbered mark on the doorway, Set-of-Mark style, named.
    await page.getByTestId('mark-tool').click();
    const onDoor = await settledPointOnPage(page, door.at);
    await page.mouse.click(onDoor.x, onDoor.y);
    await commit(page, 'mark-label-1', 'door');
    await expect.poll(() => page.locator('[data-mark="1"]').textContent()).toBe('1 door');
    await page.getByTestId('mark-tool').click();

    // A three-step trail: the first step linked to a node, the second to a saved viewpoint.
    await page.getByTestId('save-viewpoint').click();
    await page.locator('[data-viewpoint] img').waitFor();
    for (let k = 0; k < 3; k++) await page.getByTestId('add-step').click();
    const steps = [
      ['Find the door', 'The door joins the upper hall and Bedroom 1.'],
      ['Measure it', 'From above, the clear opening between the jambs.'],
      ['Answer', 'The doorway is about 0.7 m wide.'],
    ];
    for (const [k, [title, text]] of steps.entries()) {
      await commit(page, `step-title-${k}`, title!);
      await commit(page, `step-text-${k}`, text!);
    }
    await page.getByLabel('Step 1: link a node').selectOption('node_13');
    await page.getByLabel('Step 2: link a viewpoint').selectOption({ label: 'View 1' });
    await expect.poll(() => page.locator('[data-step="0"] [data-link="nodes:node_13"]').textContent()).toContain('Bedroom 1');
    await storedAll(page);

    await page.reload();
    await openQa(page);
    await page.getByTestId('qa-filter').selectOption('all');
    expect(await page.locator('[data-item-row]').count()).toBe(2);
    await page.locator('[data-item-row=qa_1]').click();
    expect(await page.getByTestId('item-question').inputValue()).toBe('Which of these rooms is on the upper floor?');
    expect(await page.getByTestId('option-B').inputValue()).toBe('Bedroom 1');
    expect(await page.getByLabel('Correct: B').isChecked()).toBe(true);
    expect(await page.getByTestId('item-capability').inputValue()).toBe('spatial');

    await page.locator('[data-item-row=qa_2]').click();
    expect(Number(await page.getByTestId('numeric-value').inputValue())).toBe(filled);
    expect(await page.getByTestId('measurement-evidence').textContent()).toMatch(/measured width/);
    expect(await page.locator('[data-viewpoint] img').count()).toBe(1);
    expect(await page.locator('[data-step]').count()).toBe(3);
    expect(await page.getByTestId('step-title-2').inputValue()).toBe('Answer');
    expect(await page.getByTestId('step-text-1').inputValue()).toBe('From above, the clear opening between the jambs.');
    expect(await page.locator('[data-step="0"] [data-link="nodes:node_13"]').count()).toBe(1);
    expect(await page.locator('[data-step="1"] [data-link^="viewpoints:"]').textContent()).toContain('View 1');
    expect(await page.getByTestId('mark-label-1').inputValue()).toBe('door');
    await expect.poll(() => page.locator('[data-mark="1"]').textContent()).toBe('1 door');
  });
});

const generated = (over: Record<string, unknown>) =>
  JSON.stringify({
    sceneId: 'sample-house',
    category: { capability: 'spatial' },
    generator: 'test-generator v1',
    trail: [{ title: 'Look', text: 'The rooms are connected.', kind: 'perception' }],
    ...over,
  });

describe('reviewing generated items with the keyboard', () => {
  const { profile, url } = studio();

  it('imports generated items, accepts one, edits one, rejects one as hallucinated, and exports exactly the accepted two', async () => {
    const file = tempFile(
      'generated.jsonl',
      [
        generated({ question: 'Is the kitchen next to the living room?', answer: { kind: 'yesno', correct: true }, anchors: { nodes: ['node_2', 'node_3'] } }),
        generated({
          question: 'How many bedrums are upstairs?',
          answer: { kind: 'numeric', value: 2, unit: '', tolerance: 0 },
          category: { capability: 'spatial', subcategory: 'CT' },
        }),
        generated({
          question: 'Is there a <img src=x onerror="window.__pwned=1"> swimming pool behind the garage, as seen from the hall?',
          answer: { kind: 'yesno', correct: true },
        }),
      ].join('\n') + '\n',
    );
    const page = await profile.page(url());
    await openQa(page);
    await page.getByTestId('import-items-input').setInputFiles(file);
    // Into the open project, and said so (not "as a new project").
    await expect
      .poll(() => page.getByTestId('import-report').textContent())
      .toMatch(/^Imported 3 items from generated\.jsonl into “[^”]+”\. Undo takes them out again\./);
    expect(await page.getByTestId('import-report').textContent()).not.toContain('new project');
    expect(await page.locator('[data-item-row]').count()).toBe(3);

    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('mode-review').click();
    await expect.poll(() => page.getByTestId('review-panel').getAttribute('data-item')).toBe('qa_1');
    // The referenced rooms are highlighted in 3D.
    await expect.poll(() => page.locator('[data-node-label=node_3]').getAttribute('class')).toContain('referenced');
    await page.locator('body').click({ position: { x: 5, y: 5 } });

    await page.keyboard.press('a');
    await expect.poll(() => page.getByTestId('review-panel').getAttribute('data-item')).toBe('qa_2');
    await page.keyboard.press('e');
    await page.getByTestId('item-question').fill('How many bedrooms are upstairs?');
    await page.getByTestId('item-question').press('Control+Enter'); // accepts from inside the field, with what was typed
    await expect.poll(() => page.getByTestId('review-panel').getAttribute('data-item')).toBe('qa_3');
    // Generated text is shown as text, never run as markup.
    expect(await page.getByTestId('review-question').textContent()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.getByTestId('qa-comment').fill('There is no pool or garage in this house.');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('r');
    await page.getByTestId('reject-reasons').waitFor();
    await page.keyboard.press('h');
    await expect.poll(() => page.getByTestId('review-empty').isVisible()).toBe(true);
    await storedAll(page);

    await page.getByTestId('qa-filter').selectOption('all');
    const statuses = await page.locator('[data-item-row] .badge').allTextContents();
    expect(statuses).toEqual(['accepted', 'accepted', 'rejected']);
    expect(await page.getByTestId('qa-report').locator('summary').textContent()).toContain('3 decided, 1 removed (33.3 %)');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-qa').click()]);
    const zip = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    const itemsPath = Object.keys(zip).find((p) => p.endsWith('qa/items.json'))!;
    const bundle = JSON.parse(strFromU8(zip[itemsPath]!)) as {
      items: { id: string; question: string; edited: boolean; reviews: { reviewer: string; verdict: string; timeMs: number }[] }[];
    };
    expect(bundle.items.map((i) => i.id)).toEqual(['qa_1', 'qa_2']);
    expect(bundle.items[1]!.question).toBe('How many bedrooms are upstairs?');
    expect(bundle.items[1]!.edited).toBe(true);
    expect(bundle.items.map((i) => i.reviews[0]!.verdict)).toEqual(['accept', 'edit-accept']);
    expect(bundle.items.every((i) => i.reviews[0]!.reviewer === 'Rita' && i.reviews[0]!.timeMs >= 0)).toBe(true);
    const jsonl = strFromU8(zip[itemsPath.replace(/items\.json$/, 'items.jsonl')]!)
      .trim()
      .split('\n');
    expect(jsonl.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['qa_1', 'qa_2']);
    const manifest = JSON.parse(strFromU8(zip[itemsPath.replace(/items\.json$/, 'manifest.json')]!)) as {
      counts: { items: number };
      review: { removal: { rejected: number; byReason: Record<string, number> } };
    };
    expect(manifest.counts.items).toBe(2);
    expect(manifest.review.removal.byReason.hallucinated).toBe(1);
  });

  it('reports every bad record of a malformed file and imports nothing from it', async () => {
    const file = tempFile(
      'broken.json',
      JSON.stringify(
        [
          {
            sceneId: 'sample-house',
            question: 'Fine question?',
            answer: { kind: 'yesno', correct: true },
            category: { capability: 'spatial' },
            trail: [],
            generator: 'g',
          },
          {
            sceneId: 'sample-house',
            question: 'Bad kind?',
            answer: { kind: 'essay', text: 'x' },
            category: { capability: 'spatial' },
            trail: [],
            generator: 'g',
          },
          {
            sceneId: 'no-such-scene',
            question: 'Where?',
            answer: { kind: 'yesno', correct: false },
            category: { capability: 'spatial' },
            trail: [],
            generator: 'g',
          },
          { sceneId: 'sample-house', answer: { kind: 'yesno', correct: false }, category: { capability: 'spatial' }, trail: [], generator: 'g' },
        ],
        null,
        1,
      ),
    );
    const page = await profile.page(url());
    await openQa(page);
    const before = await page.locator('[data-item-row]').count();
    await page.getByTestId('import-items-input').setInputFiles(file);
    const report = page.getByTestId('import-report');
    await expect.poll(() => report.textContent()).toContain('nothing was changed');
    const text = (await report.textContent())!;
    expect(text).toContain('broken.json');
    expect(text).toMatch(/\/1\/answer/);
    expect(text).toMatch(/\/2\/sceneId/);
    expect(text).toMatch(/\/3\/question/);
    expect(text).not.toMatch(/\/0\//);
    expect(await page.locator('[data-item-row]').count()).toBe(before);
  });

  it('reviews the scene’s navigation questions: rejecting one as hallucinated lists it in the scene, and undo takes it off', async () => {
    const page = await profile.page(url());
    await openQa(page);
    await page.getByTestId('mode-write').click();
    await page.getByTestId('review-scene-questions').click();
    await expect.poll(() => page.getByTestId('qa-notice').textContent()).toMatch(/10 navigation questions added for review/);
    await page.getByTestId('qa-annotator').fill('Omar');
    await page.getByTestId('mode-review').click();
    // Omar's queue starts with the first question not yet reviewed by him: the CapNav items follow the three generated ones.
    await page.getByTestId('qa-filter').selectOption('to-review');
    const first = (await page.locator('[data-item-row]').first().getAttribute('data-item-row'))!;
    await page.locator(`[data-item-row=${first}]`).click();
    const question = (await page.getByTestId('review-question').textContent())!;
    // Not a yes/no item answered "yes": the answer is per agent, from the labels — and the studio's
    // sample house starts unlabelled, so nobody has decided it for any agent yet (the unit tests
    // navigationAnswers.test.ts and qaBundle.test.ts hold the labelled side).
    const shown = Object.fromEntries(
      await page
        .locator('[data-testid=navigation-answers] li')
        .evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-agent'), li.getAttribute('data-answer')])),
    );
    expect(shown).toEqual({ HUMAN: 'undecided', WHEELCHAIR: 'undecided', HUMANOID: 'undecided', QUADRUPEDAL: 'undecided', SWEEPER: 'undecided' });
    expect(await page.getByTestId('review-answer').textContent()).not.toContain('Answer: yes');
    await page.getByTestId('review-panel').screenshot({ path: resolve(import.meta.dirname, '../../tmp/review-navigation.png') });
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('r');
    await page.keyboard.press('h');
    await storedAll(page);
    await page.keyboard.press('2');
    await page.getByRole('tab', { name: /Questions/ }).click();
    const row = page.locator('[data-testid=questions] li.hallucinated');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain(question.slice(0, 30));
    await page.keyboard.press('Control+z');
    await expect.poll(() => row.count()).toBe(0);

    // Accepted, it is exported as one yes/no record per agent the labels decide, never as its own "yes".
    await page.locator('[data-view=qa]').click();
    await page.getByTestId('mode-review').click();
    await page.getByTestId('qa-filter').selectOption('all');
    await page.locator(`[data-item-row=${first}]`).click();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('a');
    await expect.poll(() => page.locator(`[data-item-row=${first}] .badge`).textContent()).toBe('accepted');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-qa').click()]);
    const zip = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    const itemsPath = Object.keys(zip).find((p) => p.endsWith('qa/items.json'))!;
    const records = (JSON.parse(strFromU8(zip[itemsPath]!)) as { items: { id: string }[] }).items.filter((r) => r.id === first || r.id.startsWith(`${first}:`));
    expect(records).toEqual([]);
    const manifest = JSON.parse(strFromU8(zip[itemsPath.replace(/items\.json$/, 'manifest.json')]!)) as {
      navigation: { items: number; records: number; undecided: { item: string }[] };
    };
    expect(manifest.navigation).toMatchObject({ items: 1, records: 0 });
    expect(manifest.navigation.undecided.map((u) => u.item)).toEqual(Array(5).fill(first));
    expect(await page.getByTestId('qa-notice').textContent()).toMatch(
      /1 navigation question as 0 per-agent answers from the labels; 5 left out: the labels do not decide them yet/,
    );
  });
});

describe('two reviewers per item', () => {
  const { profile, url } = studio();

  it('items needing two reviews: agreement is reported as Cohen’s kappa, a disagreement goes to adjudication', async () => {
    const file = tempFile(
      'overlap.jsonl',
      [
        generated({ question: 'Is there a lift between the floors?', answer: { kind: 'yesno', correct: true } }),
        generated({ question: 'Is the study larger than the kitchen?', answer: { kind: 'yesno', correct: false } }),
      ].join('\n'),
    );
    const page = await profile.page(url());
    await openQa(page);
    await page.getByTestId('import-reviews').fill('2');
    await page.getByTestId('import-items-input').setInputFiles(file);
    await expect.poll(() => page.locator('[data-item-row]').count()).toBe(2);

    const reviewAs = async (name: string, keys: string[][]) => {
      await page.getByTestId('qa-annotator').fill(name);
      await page.getByTestId('mode-write').click();
      await page.getByTestId('mode-review').click();
      for (const k of keys) {
        const before = await page.getByTestId('review-panel').getAttribute('data-item');
        await page.locator('body').click({ position: { x: 5, y: 5 } });
        for (const key of k) await page.keyboard.press(key);
        await expect
          .poll(
            async () => (await page.getByTestId('review-empty').count()) > 0 || (await page.getByTestId('review-panel').getAttribute('data-item')) !== before,
          )
          .toBe(true);
      }
    };
    await reviewAs('Rita', [['a'], ['a']]);
    // One review of two: both still pending.
    await page.getByTestId('qa-filter').selectOption('pending');
    expect(await page.locator('[data-item-row]').count()).toBe(2);
    // Rita's queue is empty; with Omar's name the panel says what waits for him, not "nothing".
    expect(await page.getByTestId('review-empty').textContent()).toMatch(/^Nothing waits for your review/);
    await page.getByTestId('qa-annotator').fill('Omar');
    await expect.poll(() => page.getByTestId('review-empty').textContent()).toMatch(/^2 items wait for your review as Omar\./);
    await reviewAs('Omar', [['a'], ['r', 't']]);
    await page.getByTestId('qa-filter').selectOption('all');
    expect(await page.locator('[data-item-row] .badge').allTextContents()).toEqual(['accepted', 'adjudicate']);

    // Rita accepted both, Omar one: po = 1/2, pe = 1·1/2 + 0·1/2 = 1/2, κ = 0.
    await page.getByTestId('qa-report').locator('summary').click();
    expect(await page.getByTestId('verdict-agreement').textContent()).toContain('Omar and Rita (2 items): Cohen’s κ = 0.000');

    // Someone who did not review decides the disagreement.
    await page.getByTestId('qa-annotator').fill('Lee');
    await page.locator('[data-item-row=qa_2]').click();
    await page.getByTestId('adjudicate-reject').click();
    await page.getByTestId('reject-reasons').locator('[data-reason=trivial]').click();
    await expect.poll(() => page.locator('[data-item-row=qa_2] .badge').textContent()).toBe('rejected');
    expect(await page.getByTestId('removal-rate').textContent()).toBe('1 (50.0 %)');
  });
});

/** Issue 25 §12: a 20 MB question froze the page for 31 s, 20,000 items for 19 s and drew 20,000 rows. */
describe('imports of generated items at their limits', () => {
  const { profile, url } = studio();

  // 2,000 items here (the list's paging is the same at 20,000); 20,000 are timed by `npm run bench -- qa-import`.
  it('a 20 MB question is refused by line and place with nothing imported; 2,000 items come in, are listed 200 at a time, and survive a reload', async () => {
    const page = await profile.page(url());
    await openQa(page);
    const huge = tempFile(
      'huge.jsonl',
      [
        generated({ question: 'Is the hall lit?', answer: { kind: 'yesno', correct: true } }),
        generated({ question: `Is it ${'x'.repeat(20_000_000)}?`, answer: { kind: 'yesno', correct: true } }),
      ].join('\n') + '\n',
    );
    await page.getByTestId('import-items-input').setInputFiles(huge);
    const report = page.getByTestId('import-report');
    await expect.poll(() => report.textContent()).toContain('nothing was changed');
    expect(await report.textContent()).toContain('line 2 /question 20,000,007 characters; a question holds at most 4,000');
    expect(await page.locator('[data-item-row]').count()).toBe(0);

    const many = tempFile(
      'many.jsonl',
      Array.from({ length: 2_000 }, (_, i) =>
        generated({ question: `Is room ${i + 1} next to the hall?`, answer: { kind: 'yesno', correct: i % 2 === 0 } }),
      ).join('\n') + '\n',
    );
    await page.getByTestId('import-items-input').setInputFiles(many);
    await expect.poll(() => report.textContent(), { timeout: 60_000 }).toMatch(/^Imported 2000 items from many\.jsonl/);
    await storedAll(page);
    // The page of the open item (the first imported), not 2,000 rows.
    expect(await page.getByTestId('qa-page').textContent()).toBe('1–200 of 2,000');
    expect(await page.locator('[data-item-row]').count()).toBe(200);
    await page.getByTestId('qa-page-next').click();
    expect(await page.getByTestId('qa-page').textContent()).toBe('201–400 of 2,000');
    expect(await page.locator('[data-item-row]').first().getAttribute('data-item-row')).toBe('qa_201');
    // Opening an item on another page turns the list to it.
    await page.locator('[data-item-row=qa_250]').click();
    await page.getByTestId('qa-page-previous').click();
    expect(await page.getByTestId('qa-page').textContent()).toBe('1–200 of 2,000');

    await page.reload();
    await openQa(page);
    await expect.poll(() => page.getByTestId('qa-page').textContent(), { timeout: 60_000 }).toMatch(/ of 2,000$/);
    expect(await page.locator('[data-item-row]').count()).toBe(200);
  });
});

/** Issue 25 §11: review keys pressed faster than verdicts are stored each take their turn. */
describe('reviewing faster than the verdicts are stored', () => {
  const { profile, url } = studio();

  it('ten presses of A 20 ms apart accept ten items, each once, in queue order', async () => {
    const page = await profile.page(url());
    await openQa(page);
    const file = tempFile(
      'ten.jsonl',
      Array.from({ length: 12 }, (_, i) => generated({ question: `Is room ${i + 1} next to the hall?`, answer: { kind: 'yesno', correct: true } })).join('\n') +
        '\n',
    );
    await page.getByTestId('import-items-input').setInputFiles(file);
    await expect.poll(() => page.getByTestId('import-report').textContent()).toMatch(/^Imported 12 items/);
    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('mode-review').click();
    await expect.poll(() => page.getByTestId('review-panel').getAttribute('data-item')).toBe('qa_1');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('a');
      await page.waitForTimeout(20);
    }
    await expect.poll(() => page.getByTestId('review-panel').getAttribute('data-item'), { timeout: 20_000 }).toBe('qa_11');
    await storedAll(page);
    await page.getByTestId('qa-filter').selectOption('all');
    expect(await page.locator('[data-item-row] .badge').allTextContents()).toEqual([...Array(10).fill('accepted'), 'pending', 'pending']);
    // Each accepted once, by Rita: ten reviews in all.
    await page.getByTestId('qa-report').locator('summary').click();
    await expect.poll(() => page.getByTestId('qa-report').locator('summary').textContent()).toContain('10 decided, 0 removed');
    expect(
      await page
        .getByTestId('studio-notice')
        .textContent({ timeout: 100 })
        .catch(() => ''),
    ).not.toMatch(/not applied/);
  });
});
