import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { studio, nameAnnotator } from '../support/browser.ts';
import { REPO } from '../support/cli.ts';

/** Step the queue with '.' until it shows this agent on this segment (walked either way unless `exact`). */
async function goToItem(page: Page, agent: string, segment: string, exact = true): Promise<string> {
  const [a, b] = segment.split('|');
  const wanted = exact ? [segment] : [segment, `${b}|${a}`];
  await page.keyboard.press('Home');
  for (let i = 0; i < 400; i++) {
    const el = page.getByTestId('queue-item');
    const seg = await el.getAttribute('data-segment');
    if ((await el.getAttribute('data-agent')) === agent && seg && wanted.includes(seg)) return seg;
    await page.keyboard.press('.');
  }
  throw new Error(`the queue never showed ${agent} on ${segment}`);
}

/** The label view, the scan loaded, an annotator named, the queue showing. */
async function labelView(page: Page): Promise<void> {
  // (On a time-out, say what the studio showed instead: the view and the scan's bar.)
  await page
    .getByTestId('mesh-ready')
    .waitFor({ timeout: 60_000 })
    .catch(async (e: Error) => {
      const said = await page
        .evaluate(
          () =>
            `view ${document.querySelector('.views button.active')?.textContent ?? '?'}; scan bar: ${document.querySelector('[data-testid=mesh-bar]')?.textContent ?? 'not shown'}; storage: ${document.querySelector('[data-testid=storage-status]')?.textContent ?? '?'}`,
        )
        .catch(() => 'the page did not answer');
      throw new Error(`${e.message}\n${said}`);
    });
  await page.keyboard.press('3');
  await nameAnnotator(page);
  await page.getByTestId('queue-item').waitFor();
}

/** B, then ↑ until `stopped` shows (at most `steps` keys; with `weave`, a 5° turn left every 25). */
async function driveByHand(page: Page, stopped: string, steps: number, weave = false): Promise<void> {
  await page.keyboard.press('b');
  await page.getByTestId('drive-readouts').waitFor();
  for (let k = 0; k < steps && !(await page.locator(stopped).count()); k++) await page.keyboard.press(weave && k % 25 === 24 ? 'ArrowLeft' : 'ArrowUp');
}

type Pose = { x: number; y: number; z: number; yaw: number };
const agentPose = (page: Page) =>
  page.evaluate(() => (window as unknown as { __traversaViewport: { agentPose(): Pose | null } }).__traversaViewport.agentPose());

/** The sample house's nodes on the plan (its graph file; the scan is Y up in metres, so these are world points). */
const NODE: Record<string, { x: number; z: number }> = Object.fromEntries(
  (
    JSON.parse(readFileSync(join(REPO, 'scenes/sample-house/graphs/sample-house-graph.json'), 'utf8')) as {
      nodes: { id: string; position: { x: number; z: number } }[];
    }
  ).nodes.map((n) => [n.id, { x: n.position.x, z: n.position.z }]),
);
const dist = (p: { x: number; z: number }, q: { x: number; z: number }) => Math.hypot(p.x - q.x, p.z - q.z);

describe('the planner decides three segments with G, and the annotator watches the agent drive them', () => {
  const { open } = studio();

  it('the wheelchair drives the 0.80 m corridor it fits; round the L-corner it cannot turn and says so; the quadruped turns it', async () => {
    const page = await open();
    await labelView(page);

    // A passage it must pass: 0.80 m for a 0.74 m footprint (3 cm a side).
    const corridor = await goToItem(page, 'WHEELCHAIR', 'node_1|node_5', false);
    const [from, to] = corridor.split('|') as [string, string];
    await page.keyboard.press('g');
    const readouts = page.getByTestId('drive-readouts');
    await expect.poll(() => readouts.getAttribute('data-reached'), { timeout: 60_000 }).toBe('yes');
    expect(await readouts.textContent()).toMatch(/reached the next node.*planned at 2 cm, 5°.*clear width 0\.80\d m/);
    // The footprint travels the motion: seen near the start, then at the end node.
    const seen: Pose[] = [];
    for (let k = 0; k < 100 && !(seen.length && dist(seen[seen.length - 1]!, NODE[to]!) < 0.3); k++) {
      const p = await agentPose(page);
      if (p) seen.push(p);
      await page.waitForTimeout(200);
    }
    expect(seen.length).toBeGreaterThan(2);
    expect(Math.min(...seen.map((p) => dist(p, NODE[from]!)))).toBeLessThan(dist(NODE[from]!, NODE[to]!) - 1);
    expect(dist(seen[seen.length - 1]!, NODE[to]!)).toBeLessThan(0.3);

    // The L-corner both ways: the wheelchair is stopped for turning space, which becomes the draft and the label.
    await goToItem(page, 'WHEELCHAIR', 'node_3|node_4', false);
    await expect.poll(() => page.getByTestId('drive-readouts').count()).toBe(0);
    await page.keyboard.press('g');
    await expect.poll(() => readouts.getAttribute('data-reason'), { timeout: 60_000 }).toBe('turning');
    expect(await page.getByTestId('drive-contact').textContent()).toMatch(/Turning space: a 0\.70 × 1\.00 m footprint cannot turn the 0\.80 m corner/);
    expect(await page.locator('[data-reason="turning"].chip').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('queue-notice').textContent()).toMatch(/Saved: WHEELCHAIR .* not traversable \(Turning space/);

    const turn = await goToItem(page, 'QUADRUPEDAL', 'node_3|node_4', false);
    await page.keyboard.press('g');
    await expect.poll(() => readouts.getAttribute('data-reached'), { timeout: 90_000 }).toBe('yes');
    const end = NODE[turn.split('|')[1]!]!;
    await expect
      .poll(
        async () => {
          const p = await agentPose(page);
          return p ? dist(p, end) : 99;
        },
        { timeout: 20_000 },
      )
      .toBeLessThan(0.3);
  });
});

describe('driving the wheelchair into the narrowest door and labelling what stopped it', () => {
  const { profile, url } = studio();

  it('is stopped at the 0.70 m door, labels it with the measured width, survives a killed browser, and exports it', async () => {
    let page = await profile.page(url());
    await labelView(page);
    await goToItem(page, 'WHEELCHAIR', 'node_11|node_13'); // Upper hall → Bedroom 1

    await page.keyboard.press('g');
    await page.getByTestId('drive-contact').waitFor({ timeout: 60_000 });
    const readouts = (await page.getByTestId('drive-readouts').textContent())!;
    expect(readouts).toMatch(/stopped/);
    const width = Number(/clear width (\d\.\d{3}) m/.exec(readouts)![1]);
    expect(Math.abs(width - 0.7)).toBeLessThan(0.01);

    await page.keyboard.press('x');
    await expect
      .poll(() => page.getByTestId('queue-notice').textContent())
      .toMatch(/Saved: WHEELCHAIR node_11 → node_13 not traversable \(Narrow passage: clear width 0\.70 m/);

    // Kill the browser outright, as a crash or a power cut would: no unload, no flush.
    // (The bracket keeps pkill from matching its own command line.)
    execSync(`pkill -9 -f -- "[${profile.dir[0]}]${profile.dir.slice(1)}"`);
    profile.context = null;
    await new Promise((r) => setTimeout(r, 500));

    page = await profile.page(url());
    await page.getByTestId('project-name').filter({ hasText: 'Sample house' }).waitFor();
    await page.keyboard.press('3');
    await nameAnnotator(page);
    await page.getByTestId('queue-item').waitFor();
    await goToItem(page, 'WHEELCHAIR', 'node_11|node_13');
    expect(await page.getByTestId('existing-label').textContent()).toMatch(/not traversable: Narrow passage: clear width 0\.70 m < 0\.74 m needed/);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export release' }).click()]);
    const zip = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    const traverse = JSON.parse(strFromU8(Object.entries(zip).find(([p]) => p.endsWith('traverse/sample-house-traverse.json'))![1])) as Record<
      string,
      Record<string, { traversable: boolean; note: string; question?: string }>
    >;
    const label = traverse.WHEELCHAIR!['node_11|node_13']!;
    expect(label.traversable).toBe(false);
    expect(label.note).toMatch(/clear width 0\.70 m/);
    expect(label.question).toMatch(/first bedroom/);
  });

  it('driving by hand (B, then ↑) the sweeper stops at the 5 cm sill, and that contact is the draft', async () => {
    const page = await profile.page(url());
    // The studio reopens on the view it was left in; the scan's status is shown in the Scene view.
    await page.getByTestId('project-name').filter({ hasText: 'Sample house' }).waitFor();
    await page.keyboard.press('2');
    await labelView(page);
    await goToItem(page, 'SWEEPER', 'node_11|node_14', false);
    await driveByHand(page, '[data-testid=drive-contact]', 120);
    expect(await page.getByTestId('drive-contact').textContent()).toMatch(/Sill 0\.05 m higher than the 0\.02 m the agent can cross/);
    expect(await page.locator('[data-reason="step"].chip').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('label-note').inputValue()).toBe('Sill 0.05 m higher than the 0.02 m the agent can cross');
  });
});

describe('driving by hand and watching a stop show what happened (issue 23 §8)', () => {
  const { open } = studio();
  const TMP_SHOTS = mkdtempSync(join(tmpdir(), 'traversa-drive-shots-'));
  let page: Page;

  it('a wall touched by hand at the 0.70 m door is where the driver steered: shown as touching, no draft', async () => {
    page = await open();
    await labelView(page);
    await goToItem(page, 'WHEELCHAIR', 'node_11|node_13', false);
    await driveByHand(page, '[data-testid=drive-touch], [data-testid=drive-contact]', 200, true);
    expect(await page.getByTestId('drive-touch').textContent()).toMatch(/touching — A wall or furniture in the way \(where you steered, not a finding/);
    expect(await page.getByTestId('drive-contact').count()).toBe(0);
    expect(await page.getByTestId('label-note').inputValue()).toBe('');
    expect(await page.locator('.chip[aria-pressed=true]').count()).toBe(0);
  });

  it('placed where a wall stands between the start and the end node, the agent faces a way it can go', async () => {
    // Segments where, walked this way, a wall stands 0.75–0.9 m along the bearing of the end node; the first the queue has.
    let seg: string | null = null;
    for (const s of ['node_11|node_14', 'node_4|node_3', 'node_1|node_7', 'node_9|node_1', 'node_12|node_11']) {
      seg = await goToItem(page, 'WHEELCHAIR', s).catch(() => null);
      if (seg) break;
    }
    const [from, to] = seg!.split('|') as [string, string];
    await page.keyboard.press('b');
    await page.getByTestId('drive-readouts').waitFor();
    const start = (await agentPose(page))!;
    const bearing = Math.atan2(NODE[to]!.x - NODE[from]!.x, NODE[to]!.z - NODE[from]!.z);
    const off = (Math.abs(Math.atan2(Math.sin(start.yaw - bearing), Math.cos(start.yaw - bearing))) * 180) / Math.PI;
    // The agent is turned off the bearing, and says so.
    expect(off).toBeGreaterThan(5);
    expect(await page.getByTestId('queue-notice').textContent()).toMatch(
      new RegExp(`WHEELCHAIR faces \\d+° (left|right) of ${to}: straight towards it a wall or furniture is in the way`),
    );
    // A metre straight ahead without touching anything.
    for (let k = 0; k < 19; k++) await page.keyboard.press('ArrowUp'); // 5 cm each
    expect(await page.locator('[data-testid=drive-touch], [data-testid=drive-contact]').count()).toBe(0);
    expect(dist((await agentPose(page))!, start)).toBeGreaterThan(0.9);
  });

  it('the playback of a stop met early ends against it, where the stop mark is', async () => {
    await goToItem(page, 'WHEELCHAIR', 'node_5|node_6', false);
    await page.keyboard.press('g');
    const readouts = page.getByTestId('drive-readouts');
    await expect.poll(() => readouts.getAttribute('data-reason'), { timeout: 60_000 }).toBe('step');
    const [sx, , sz] = (await readouts.getAttribute('data-stop'))!.split(',').map(Number) as [number, number, number];
    // Wait for the playback to end (the pose stops changing), then measure from the agent's front.
    let last: Pose | null = null;
    for (let k = 0; k < 60; k++) {
      await page.waitForTimeout(250);
      const p = await agentPose(page);
      if (last && p && dist(p, last) < 1e-4 && k > 4) break;
      last = p;
    }
    const front = dist(last!, { x: sx, z: sz }) - 0.5; // half the wheelchair's 1.0 m depth
    expect(front).toBeLessThan(0.35);
    await page.screenshot({ path: join(TMP_SHOTS, 'sill-stop.png') });
  });

  it('on a system that asks for reduced motion, the agent stands where its motion ends as soon as the drive is decided', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const seg = await goToItem(page, 'HUMAN', 'node_1|node_2', false);
    await page.keyboard.press('g');
    const readouts = page.getByTestId('drive-readouts');
    await expect.poll(() => readouts.getAttribute('data-reached'), { timeout: 60_000 }).toBe('yes');
    // Played back, it would start 4 m away at the first node and take seconds to get here.
    expect(dist((await agentPose(page))!, NODE[seg.split('|')[1]!]!)).toBeLessThan(0.3);
    await page.screenshot({ path: join(TMP_SHOTS, 'reduced-motion-end.png') });
    // Replay is asked for, with the view idle (the canvas draws on demand): it plays even so, from the first node.
    await page.waitForTimeout(500);
    await page.keyboard.press('Shift+G');
    await expect.poll(async () => dist((await agentPose(page))!, NODE[seg.split('|')[1]!]!), { timeout: 5_000 }).toBeGreaterThan(1);
    await page.screenshot({ path: join(TMP_SHOTS, 'reduced-motion-replay.png') });
  });
});
