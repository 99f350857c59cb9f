import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_VERSION } from '../../src/core/taskgen/guideline.ts';
import { downloaded, studio } from '../support/browser.ts';
import { requestImages, requestText, startFakeChat, type FakeChat } from '../support/fakeChat.ts';
import { deleteTestVideo, storeTestVideo } from '../support/storedVideo.ts';

const KEY = 'sk-taskgen-e2e-9c1b77de';
const MODEL = 'fake-vlm';
const SHOTS = join(import.meta.dirname, '../../tmp');

/** Five tasks for the sample house; the third names a node the house does not have; the second quotes the request's credentials back. */
function tasksFor(auth: string): string {
  const t = (question: string, reason: string, start: string, startDetail: string, intermediate: string[], end: string, endDetail: string) => ({
    scene_type: 'home',
    question,
    reason,
    nodes_involved: { start, start_detail: startDetail, intermediate, end, end_detail: endDetail },
  });
  return (
    '```json\n' +
    JSON.stringify(
      [
        t(
          'Can [Agent] move from the coat hooks in the entrance hall to the cooker in the kitchen?',
          'The coat hooks are seen in the entrance hall (00:01-00:02); the living room opens to the kitchen, whose cooker shows at 00:03-00:05.',
          'node_1',
          'coat hooks',
          ['node_2'],
          'node_3',
          'cooker',
        ),
        t(
          'Can [Agent] move from the sofa in the living room to the bed in Bedroom 2?',
          `The stair foot is off the living room (00:02-00:03) and the stairs rise to the landing (00:04). Debug: ${auth}`,
          'Living room',
          'sofa',
          ['node_8', 'node_10', 'node_11'],
          'node_14',
          'bed',
        ),
        t(
          'Can [Agent] move from the entrance hall to the skylight in the attic?',
          'A ladder is seen at 00:05.',
          'node_1',
          'front door',
          [],
          'Attic',
          'skylight',
        ),
        t(
          'Can [Agent] move from the desk in the study to the washing machine in the utility room?',
          'The study (00:01) and the utility room (00:04-00:05) are both on the ground floor.',
          'node_6',
          'desk',
          ['node_5', 'node_1', 'node_2', 'node_3'],
          'node_4',
          'washing machine',
        ),
        t(
          'Can [Agent] move from the lift door in the lift lobby to the wardrobe in Bedroom 1?',
          'The lift lobby (00:00-00:01) and the upper hall (00:03) lead to Bedroom 1 (00:05).',
          'node_9',
          'lift door',
          ['node_12', 'node_11'],
          'node_13',
          'wardrobe',
        ),
      ],
      null,
      2,
    ) +
    '\n```'
  );
}

async function openQa(page: Page): Promise<void> {
  await page.locator('[data-scene=sample-house]').waitFor({ timeout: 60_000 });
  await page.locator('[data-view=qa]').click();
  await page.getByTestId('qa-list').waitFor();
}

const stored = (page: Page) => expect.poll(() => page.getByTestId('storage-status').textContent(), { timeout: 15_000 }).toBe('Saved in this browser');

describe('generating navigation tasks from the touring video, then reviewing them with the evidence', () => {
  const { open } = studio();
  let chat: FakeChat, elsewhere: FakeChat;
  // The model "silent" never answers (to cancel it), "moved" is redirected elsewhere; any other gets the five tasks.
  beforeAll(async () => {
    elsewhere = await startFakeChat({ reply: (_body, req) => ({ content: tasksFor(String(req.headers.authorization)) }) });
    chat = await startFakeChat({
      reply: (body, req) =>
        body?.model === 'silent'
          ? new Promise(() => {})
          : body?.model === 'moved'
            ? { status: 307, content: 'moved', location: `${elsewhere.url}/chat/completions` }
            : { content: tasksFor(String(req.headers.authorization)), usage: { prompt_tokens: 9000, completion_tokens: 700 } },
    });
  });
  afterAll(async () => {
    await chat.close();
    await elsewhere.close();
  });

  it('asks the endpoint with the frames, reports the refused task, queues the others with their provenance, and plays what a reason cites', async () => {
    const page = await open();
    await openQa(page);
    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('qa-annotator').evaluate((el) => (el as HTMLElement).blur());

    // Without a video there is nothing to generate from, and the panel says what to do.
    await page.getByTestId('taskgen-open').click();
    await expect.poll(() => page.getByTestId('taskgen-no-video').textContent()).toBe('Record the scene’s touring video first (Tour panel).');
    expect(await page.getByTestId('taskgen-run').isDisabled()).toBe(true);

    const { projectId, times } = await storeTestVideo(page, 'sample-house', { seconds: 6, frames: 16 });
    await page.getByTestId('taskgen-open').click();
    await page.getByTestId('taskgen-open').click();
    await expect.poll(() => page.getByTestId('taskgen-video').textContent()).toMatch(/^From the touring video \(00:06\) and the scene’s 14 nodes\.$/);
    await page.getByLabel('Task endpoint').fill(chat.url);
    await page.getByLabel('Task model').fill(MODEL);
    await page.getByLabel('Task API key').fill(KEY);
    await page.getByLabel('Tasks to ask for').fill('5');
    expect(await page.getByLabel('Frame budget').inputValue()).toBe('16');
    await page.screenshot({ path: join(SHOTS, 'taskgen-settings.png') });
    await page.getByTestId('taskgen-run').click();
    await page.getByTestId('taskgen-report').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, 'taskgen-report.png') });

    // The request: the guideline, the node list, the 16 frames as JPEG images with their times, the key as a bearer token.
    expect(chat.requests).toHaveLength(1);
    const req = chat.requests[0]!;
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body!.model).toBe(MODEL);
    const images = requestImages(req);
    expect(images).toHaveLength(16);
    expect(images.every((u) => /^data:image\/jpeg;base64,[A-Za-z0-9+/]+=*$/.test(u))).toBe(true);
    expect(new Set(images).size).toBe(16);
    const text = requestText(req);
    expect(text).toContain('Give at least 5 tasks.');
    expect(text).toContain('node_1: Entrance hall — Ground floor hub');
    expect(text).toContain('node_14: Bedroom 2 — Upper floor');
    expect(text).toContain('Frame 16/16 at 00:05');
    expect(text).toContain('Keep "[Agent]" exactly as written');

    // The report: the malformed task by its number and reason; the other four queued (one undo step).
    expect(await page.getByTestId('taskgen-summary').textContent()).toMatch(
      /^fake-vlm: 5 tasks in the reply from 16 frames; 4 added to the review queue, 1 refused\. Ctrl\+Z takes them all out again\.$/,
    );
    expect(await page.getByTestId('taskgen-refused').locator('li').allTextContents()).toEqual(['task 3: end node "Attic" is not in the graph']);
    await stored(page);
    const sourceOptions = await page.getByTestId('qa-filter-source').locator('option').allTextContents();
    expect(sourceOptions).toContain('Generated by fake-vlm (4)');
    const batchOptions = await page.getByTestId('qa-filter-batch').locator('option').allTextContents();
    expect(batchOptions.some((o) => o.startsWith(`tasks generated by fake-vlm (${PROMPT_VERSION}) · `) && o.endsWith('(4)'))).toBe(true);

    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.getByTestId('qa-filter-source').locator('option').allTextContents()).not.toContain('Generated by fake-vlm (4)');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => page.getByTestId('qa-filter-source').locator('option').allTextContents()).toContain('Generated by fake-vlm (4)');

    // (Entering the label view auto-approves the human: an undo step of its own, after the tasks.)
    // Waiting for review, the tasks are marked in the scene's questions and kept out of the label queue.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('2');
    await page.getByRole('tab', { name: /Questions/ }).click();
    await expect.poll(() => page.getByTestId('task-unreviewed').count()).toBe(4);
    expect(await page.getByTestId('task-unreviewed').first().textContent()).toMatch(/^generated · awaiting review \(qa_\d+\) · not in the label queue$/);
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor();
    expect(await page.getByTestId('progress-scene').textContent()).toMatch(/\/ 330$/); // the sample house's own questions only
    await page.locator('[data-view=qa]').click();

    // Review the run, narrowed by its model and its import: the first task, with its evidence.
    await page.getByTestId('taskgen-review').click();
    await expect
      .poll(() => page.getByTestId('review-question').textContent())
      .toBe('Can [Agent] move from the coat hooks in the entrance hall to the cooker in the kitchen?');
    expect(await page.getByTestId('qa-filter-source').inputValue()).toBe(`generated:${MODEL}`);
    await expect
      .poll(() => page.getByTestId('implied-route').locator('.route-line').textContent())
      .toBe('Route it implies: 1 Entrance hall → 2 Living room → 3 Kitchen');
    expect(await page.getByTestId('workspace').getAttribute('data-implied-route')).toBe('node_1 node_2 node_3');
    await page.getByTestId('evidence-video').waitFor();
    expect(await page.getByTestId('cite').allTextContents()).toEqual(['▶ 00:01–00:02', '▶ 00:03–00:05']);

    // By keyboard: accept; the queue moves to the second task, whose quoted credentials were redacted.
    await page.keyboard.press('a');
    await expect
      .poll(() => page.getByTestId('review-question').textContent())
      .toBe('Can [Agent] move from the sofa in the living room to the bed in Bedroom 2?');
    await expect.poll(() => page.getByTestId('qa-notice').textContent()).toMatch(/^Saved: qa_\d+ accepted\./);

    const panelText = (await page.getByTestId('review-panel').textContent())!;
    expect(panelText).toContain('Debug: Bearer ***');
    expect(panelText).not.toContain(KEY);
    await expect.poll(() => page.getByTestId('workspace').getAttribute('data-implied-route')).toBe('node_2 node_8 node_10 node_11 node_14');
    expect(await page.getByTestId('taskgen').count()).toBe(0); // the panel gave its place to the review
    await page.screenshot({ path: join(SHOTS, 'taskgen-review-start.png') });

    // Play a cited time: the video plays that stretch and pauses at its end.
    const cite = page.getByTestId('cite').first();
    expect(await cite.textContent()).toBe('▶ 00:02–00:03');
    await page
      .getByTestId('evidence-video')
      .evaluate(
        (v: HTMLVideoElement) => new Promise((r) => (v.readyState >= 1 ? r(null) : v.addEventListener('loadedmetadata', () => r(null), { once: true }))),
      );
    await cite.click();
    await expect
      .poll(() => page.getByTestId('evidence-video').evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime >= 2 && v.currentTime < 3), {
        timeout: 10_000,
        interval: 50,
      })
      .toBe(true);
    await expect.poll(() => page.getByTestId('evidence-video').evaluate((v: HTMLVideoElement) => v.paused), { timeout: 10_000 }).toBe(true);
    const at = await page.getByTestId('evidence-video').evaluate((v: HTMLVideoElement) => v.currentTime);
    expect(at).toBeGreaterThanOrEqual(2);
    expect(at).toBeLessThanOrEqual(3);
    await page.screenshot({ path: join(SHOTS, 'taskgen-review.png') });

    // Accepted, the first task joins the label queue and loses its mark; the other three still wait.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor();
    await expect.poll(async () => Number(/\/ (\d+)$/.exec((await page.getByTestId('progress-scene').textContent())!)?.[1])).toBeGreaterThan(330);
    // Its question, the scene's eleventh (#10), is in the queue: reaching it, the human's segments
    // there are approved (those the entrance hall's questions share were already).
    for (let i = 0; i < 12 && (await page.locator('.queue-question .q-index').textContent()) !== '#10'; i++) await page.keyboard.press(']');
    expect(await page.locator('.queue-question .q-index').textContent()).toBe('#10');
    await page.keyboard.press('2');
    await page.getByRole('tab', { name: /Questions/ }).click();
    await expect.poll(() => page.getByTestId('task-unreviewed').count()).toBe(3);
    await page.locator('[data-view=qa]').click();

    // Asking the same again is answered from this browser's cache, and every task now repeats a scene question.
    await page.getByTestId('mode-write').click();
    await page.getByTestId('taskgen-open').click();
    await page.getByTestId('taskgen-run').click();
    await expect
      .poll(() => page.getByTestId('taskgen-summary').textContent(), { timeout: 15_000 })
      .toMatch(/answered before: the reply came from this browser’s cache\); 0 added to the review queue, 5 refused\./);
    expect(chat.requests).toHaveLength(1);
    expect(await page.getByTestId('taskgen-refused').locator('li').first().textContent()).toMatch(
      /^task 1: repeats the scene's question q\d+ \(the same question\)$/,
    );

    // A request the endpoint does not answer shows its stage until it is cancelled; nothing is added.
    await page.getByLabel('Task model').fill('silent');
    await page.getByTestId('taskgen-run').click();
    await expect
      .poll(() => page.getByTestId('taskgen-progress').textContent())
      .toMatch(/^Asking silent at 127\.0\.0\.1:\d+: 16 frames, at least 5 tasks… \d+ s$/);
    await expect.poll(() => chat.requests.length).toBe(2);
    await page.getByTestId('taskgen-cancel').click();
    await expect.poll(() => page.getByTestId('taskgen-error').textContent(), { timeout: 5_000 }).toBe('Cancelled: no tasks were added.');
    // A redirect is not followed: the frames and the key are not sent again where it points (issue 25 §4).
    await page.getByLabel('Task model').fill('moved');
    await page.getByTestId('taskgen-run').click();
    await expect
      .poll(() => page.getByTestId('taskgen-error').textContent(), { timeout: 15_000 })
      .toContain('endpoint answered with a redirect (the browser hides where to); Traversa follows no redirect');
    expect(chat.requests.at(-1)?.body.model).toBe('moved');
    expect(elsewhere.requests).toHaveLength(0);
    expect(await page.getByTestId('qa-filter-source').locator('option').allTextContents()).toContain('Generated by fake-vlm (4)');

    // Exports: the accepted task with its provenance; the key in no file.
    const qaZip = unzipSync(new Uint8Array(readFileSync(await downloaded(page, () => page.getByTestId('export-qa').click()))));
    const files = Object.fromEntries(Object.entries(qaZip).map(([k, v]) => [k.split('/').slice(1).join('/'), strFromU8(v)]));
    const items = (JSON.parse(files['qa/items.json']!) as { items: { question: string; source: string; provenance?: unknown }[] }).items;
    // A navigation task: one record per agent its labels decide — here the auto-approved human only.
    expect(items.filter((i) => i.source === 'generated').map((i) => i.question)).toEqual([
      'Can HUMAN move from the coat hooks in the entrance hall to the cooker in the kitchen?',
    ]);
    const accepted = items.find((i) => i.source === 'generated')!;
    expect(accepted.provenance).toEqual({
      model: MODEL,
      promptVersion: PROMPT_VERSION,
      endpoint: new URL(chat.url).host,
      frames: { budget: '16', times },
      generatedAt: expect.any(String),
    });
    expect(files['capnav/sample-house_QA.json']).toContain('coat hooks');
    // The release (a benchmark) carries the accepted task, not the three still waiting for a reviewer, and says so.
    const releaseFiles = unzipSync(new Uint8Array(readFileSync(await downloaded(page, () => page.getByRole('button', { name: 'Export release' }).click()))));
    const releaseQa = strFromU8(Object.entries(releaseFiles).find(([k]) => k.endsWith('qa/sample-house_QA.json'))![1]);
    expect(releaseQa).toContain('coat hooks');
    expect(releaseQa).not.toContain('sofa in the living room');
    await expect
      .poll(() => page.getByTestId('qa-notice').textContent())
      .toMatch(/^Exported .+\.zip, without 3 generated tasks no reviewer has accepted yet \(sample-house\); accept them in the QA view to include them\.$/);
    const bundle = readFileSync(await downloaded(page, () => page.getByTestId('export-bundle').click()), 'utf8');
    expect(bundle).toContain('Debug: Bearer ***');
    for (const text of [...Object.values(files), bundle]) expect(text).not.toContain(KEY);

    // Without the video, the cited times cannot play, and say why.
    await deleteTestVideo(page, projectId, 'sample-house');
    await page.reload();
    await openQa(page);
    await page.getByTestId('mode-review').click();
    await page.getByTestId('evidence').waitFor();
    await expect
      .poll(() => page.getByTestId('evidence-no-video').textContent())
      .toBe('No touring video for this scene: Record the scene’s touring video first (Tour panel).');
    expect(await page.getByTestId('cite').first().isDisabled()).toBe(true);
    expect(await page.getByTestId('cite').first().getAttribute('title')).toBe(
      'No touring video for this scene: Record the scene’s touring video first (Tour panel).',
    );
  });
});
