import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impliedRoute } from '../../src/core/impliedRoute.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { readJsonFiles } from '../../src/cli/files.ts';
import { downloaded, importFolder, nameAnnotator, studio } from '../support/browser.ts';
import { traversaWith } from '../support/cli.ts';
import { promptText, startFakeChat, type ChatBody, type FakeChat, type FakeReply } from '../support/fakeChat.ts';

/**
 * Issue 14's acceptance: a new scene taken from its scan to a scored benchmark scene in one tool,
 * on the sample house, with a fake OpenAI-compatible endpoint on loopback standing in for both the
 * task generator and the model under test: tour → generated tasks (one malformed, reported) →
 * review by keyboard → a label → release export with the video → `run-model` → `score` → the
 * record's route previewed in 3D; and the exported release imported again brings its video back.
 */

const SCENE = 'sample-house';
const KEY = 'sk-pipeline-e2e-4b1d';
const made: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};

const GENERATED = [
  'Can [Agent] move from the coat hooks in the entrance hall to the cooker in the kitchen?',
  'Can [Agent] move from the desk in the study to the washing machine in the utility room?',
];

/** The generator's reply: two good tasks and one whose end names no room of the house. */
function tasksReply(): string {
  const t = (question: string, start: string, end: string, reason: string) => ({
    scene_type: 'home',
    question,
    reason,
    nodes_involved: { start, start_detail: 'by the door', intermediate: [], end, end_detail: 'by the window' },
  });
  return JSON.stringify([
    t(GENERATED[0]!, 'node_1', 'node_3', 'The hall (00:01-00:02) opens to the living room and the kitchen (00:03).'),
    t('Can [Agent] move from the entrance hall to the attic?', 'node_1', 'Attic', 'A ladder at 00:05.'),
    t(GENERATED[1]!, 'node_6', 'node_4', 'The study (00:01) and the utility room (00:04) are on the ground floor.'),
  ]);
}

/** The model under test: for every question it answers yes along the route the question implies (read off the exported release). */
function modelAnswerer(release: string): (body: ChatBody) => FakeReply {
  const project = readRelease(readJsonFiles(release)).project!;
  const scene = project.scenes.find((s) => s.id === SCENE)!;
  return (body) => {
    const text = promptText(body);
    const agent = /Agent Profile \(([^)]+)\)/.exec(text)?.[1] ?? '';
    const q = scene.questions.find((x) => text.includes(x.text.replace('[Agent]', agent)));
    if (!q) return { status: 400, content: 'unexpected prompt' };
    return { content: JSON.stringify({ answer: 'yes', path: impliedRoute(scene.graph, q).nodes, reason: 'The way is open.' }) };
  };
}

describe('from the scan to a scored scene in one tool (issue 14)', () => {
  const { open } = studio();
  let chat: FakeChat;
  let answer: ((body: ChatBody) => FakeReply) | null = null;
  beforeAll(async () => {
    // One endpoint for both roles: a request for tasks (the generator's guideline) or for an answer (the evaluation prompt).
    chat = await startFakeChat({
      reply: (body) =>
        /Give at least \d+ tasks/.test(promptText(body))
          ? { content: '```json\n' + tasksReply() + '\n```' }
          : (answer?.(body) ?? { status: 500, content: 'no model yet' }),
    });
  });
  afterAll(async () => {
    await chat.close();
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });

  it('tour → tasks → review → label → export → run-model → score → route in 3D', async () => {
    const page = await open();
    await page.locator(`[data-scene=${SCENE}]`).waitFor({ timeout: 60_000 });

    // 1. The touring video, automatic, at the CapNav settings (2 fps), a small picture to keep the test short.
    await page.keyboard.press('2');
    await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
    await page.getByTestId('tab-tour').click();
    expect(await page.getByTestId('tour-fps').inputValue()).toBe('2');
    await page.getByTestId('tour-size').fill('320×240');
    await page.getByTestId('tour-size').evaluate((el) => (el as HTMLElement).blur());
    await page.getByTestId('tour-record').click();
    await page.getByTestId('tour-stored').waitFor({ timeout: 300_000 });
    expect(await page.getByTestId('tour-message').textContent()).toMatch(/^Recorded \d+ frames/);

    // 2. Tasks generated from the video's frames and the node list; the malformed one is reported.
    await page.locator('[data-view=qa]').click();
    await page.getByTestId('qa-list').waitFor();
    await page.getByTestId('qa-annotator').fill('Rita');
    await page.getByTestId('qa-annotator').evaluate((el) => (el as HTMLElement).blur());
    await page.getByTestId('taskgen-open').click();
    await page.getByTestId('taskgen-video').waitFor();
    await page.getByLabel('Task endpoint').fill(chat.url);
    await page.getByLabel('Task model').fill('fake-vlm');
    await page.getByLabel('Task API key').fill(KEY);
    await page.getByLabel('Tasks to ask for').fill('2');
    await page.getByTestId('taskgen-run').click();
    await page.getByTestId('taskgen-report').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('taskgen-refused').locator('li').allTextContents()).toEqual(['task 2: end node "Attic" is not in the graph']);
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]!.body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((p) => p.type === 'image_url'))).length).toBe(
      16,
    );

    // 3. Review by keyboard: both generated tasks accepted with A.
    await page.getByTestId('taskgen-review').click();
    for (const question of GENERATED) {
      await expect.poll(() => page.getByTestId('review-question').textContent()).toBe(question);
      await page.keyboard.press('a');
    }
    await expect.poll(() => page.getByTestId('qa-notice').textContent()).toMatch(/accepted/);

    // 4. A label, by keyboard, in the labelling queue.
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor();
    await nameAnnotator(page, 'Rita');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('y');
    await expect.poll(() => page.getByTestId('queue-notice').textContent(), { timeout: 15_000 }).toMatch(/Saved: \w+ node_\d+ → node_\d+ traversable\./);

    // 5. The release, exported with its video, poses and frame sets.
    const zip = unzipSync(new Uint8Array(readFileSync(await downloaded(page, () => page.getByRole('button', { name: 'Export release' }).click()))));
    const release = temp('traversa-pipeline-release-');
    for (const [path, bytes] of Object.entries(zip)) {
      const rel = path.split('/').slice(1).join('/');
      if (!rel || path.endsWith('/')) continue;
      mkdirSync(dirname(join(release, rel)), { recursive: true });
      writeFileSync(join(release, rel), bytes);
    }
    const files = Object.keys(zip).map((p) => p.split('/').slice(1).join('/'));
    expect(files.some((p) => new RegExp(`^videos/${SCENE}\\.(mp4|webm)$`).test(p))).toBe(true);
    expect(files).toContain(`videos/${SCENE}.poses.json`);
    expect(files.filter((p) => p.startsWith(`frames/${SCENE}/16/`) && p.endsWith('.jpg'))).toHaveLength(16);
    const qa = readFileSync(join(release, 'qa', `${SCENE}_QA.json`), 'utf8');
    for (const question of GENERATED) expect(qa).toContain(question);
    expect(readFileSync(join(release, 'traverse', `${SCENE}-traverse.json`), 'utf8')).toContain('"Rita"');

    // 6. The model under test answers every question × agent through run-model; 7. score scores it.
    answer = modelAnswerer(release);
    const results = temp('traversa-pipeline-results-');
    const run = await traversaWith(
      { limitMs: 180_000, env: { TRAVERSA_VLM_KEY: KEY } },
      'run-model',
      '--gt',
      release,
      '--endpoint',
      chat.url,
      '--model',
      'fake-vlm',
      '--frames',
      '16',
      '--out',
      results,
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const project = readRelease(readJsonFiles(release)).project!;
    const asked = project.scenes[0]!.questions.length * 5;
    expect(chat.requests.length - 1).toBe(asked);
    const scored = await traversaWith(
      { limitMs: 120_000 },
      'score',
      '--gt',
      release,
      '--pred',
      results,
      '--out',
      temp('traversa-pipeline-scored-'),
      '--judge',
      'none',
      '--json',
    );
    expect(scored.code).toBe(0);
    expect(scored.stdout).toContain('fake-vlm');
    for (const f of Object.values(zip)) expect(Buffer.from(f).includes(Buffer.from(KEY))).toBe(false);

    // 8. In the studio: the model's predictions scored, and a generated task's record previewed in 3D.
    await page.keyboard.press('4');
    await page.getByTestId('load-predictions').setInputFiles(results);
    await page.getByTestId('run-score').click();
    await page.locator('[data-testid=score-table] tr[data-model^=fake-vlm]').waitFor({ timeout: 60_000 });
    await page.getByLabel('Filter by agent').selectOption('HUMAN');
    await page.getByLabel('Search records').fill('coat hooks');
    await page.locator('[data-testid=records] tbody tr').first().click();
    await expect.poll(() => page.locator('[data-testid=record-preview] .q-text').textContent()).toBe(GENERATED[0]);
    const id = await page.getByTestId('record-preview').getAttribute('data-record');
    await expect
      .poll(async () => (await page.locator('[data-testid=record-preview] [data-testid=workspace]').getAttribute('data-route')) ?? '')
      .toMatch(new RegExp(`^${id!.replace(/[|\\]/g, '\\$&')}\\|`));
    await page.screenshot({ path: join(import.meta.dirname, '../../tmp/pipeline-route.png') });

    // 9. The exported release, imported again as a new project, brings its touring video along.
    // (The route viewer, still open, steps aside for the import's question.)
    expect(await importFolder(page, release)).toMatch(/^Imported /);
    await page.locator('[data-view=scene]').click();
    await page.getByTestId('tab-tour').click();
    await expect
      .poll(() => page.getByTestId('tour-summary').textContent(), { timeout: 15_000 })
      .toMatch(/^\d+ frames at 2 fps \(.*\), 320×240, 75° field of view, eye 1\.5 m · video\/(mp4|webm)$/);
    await page.locator('[data-view=qa]').click();
    await page.getByTestId('taskgen-open').click();
    await expect.poll(() => page.getByTestId('taskgen-video').textContent()).toMatch(/^From the touring video/);
  });
});
