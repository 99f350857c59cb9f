import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { soupToGlb } from '../../scenes/generate.ts';
import { undirectedKey } from '../../src/core/graph.ts';
import { SAMPLE_HOUSE } from '../../src/core/sample/houseSpec.ts';
import { scanLikeHouse, SCAN_VARIANTS } from '../../src/core/sample/scanLike/index.ts';
import { nameAnnotator, studio } from '../support/browser.ts';
import { REPO, traversa } from '../support/cli.ts';
import { decodePng, shareLike, type Pixels } from '../support/pngPixels.ts';
import { MATRIX_DENSITY_M } from '../support/scanMatrix.ts';

// The studio's G, on every agent × edge of the sample house, answers what `cli drive` answers on the
// same scan — the stairs included, which G once failed on every time (the browser asked from the
// stair foot, the command line from the landing) — and the same on the house rewritten as a
// reconstruction looks (every defect of src/core/sample/scanLike/ at once). The label queue walks every
// agent × edge of the sample house (330 items); the drive of each pair is read from the panel.

const GRAPH = join(REPO, 'scenes/sample-house/graphs/sample-house-graph.json');
const AGENTS = join(REPO, 'scenes/sample-house/agent_profile.json');
const TMP = mkdtempSync(join(tmpdir(), 'traversa-drive-every-'));
/** The drive overlay's colours (viewport/AgentOverlay.tsx): reached, stopped. */
const TEAL: [number, number, number] = [0x2a, 0x9d, 0x8f];
const RED: [number, number, number] = [0xe6, 0x39, 0x46];

type Verdict = { reached: boolean; reason: string | null };
type DriveJson = { agents: Record<string, Record<string, Verdict & { note: string }>> };

/** `cli drive --json` on a scan, as a user runs it. */
async function cliDrive(mesh: string): Promise<DriveJson> {
  const r = await traversa('drive', '--mesh', mesh, '--graph', GRAPH, '--agents', AGENTS, '--json');
  if (r.code !== 0) throw new Error(`cli drive failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as DriveJson;
}

/**
 * Walk the label queue from its first item with '.', pressing G on the first item of every agent ×
 * undirected edge, and read the verdict the drive panel shows. `shot` names segments to photograph.
 */
async function driveEvery(page: Page, shot: Record<string, string> = {}, shots = new Map<string, Pixels>()): Promise<Map<string, Verdict & { note: string }>> {
  const got = new Map<string, Verdict & { note: string }>();
  // HUMAN's segments are auto-approved and passed over as a question is visited: stop that, so the
  // walk visits them too.
  await page.getByTestId('auto-approve').uncheck();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Home');
  for (let i = 0; i < 400 && got.size < 70; i++) {
    const item = page.getByTestId('queue-item');
    const agent = (await item.getAttribute('data-agent'))!;
    const [a, b] = (await item.getAttribute('data-segment'))!.split('|') as [string, string];
    const key = `${agent} ${undirectedKey(a, b)}`;
    if (!got.has(key)) {
      await page.keyboard.press('g');
      const readouts = page.getByTestId('drive-readouts');
      await expect.poll(() => readouts.getAttribute('data-reached'), { timeout: 90_000 }).toMatch(/yes|no/);
      await expect.poll(async () => (await readouts.getAttribute('data-reached')) === 'yes' || (await readouts.getAttribute('data-reason')) !== '', { timeout: 90_000 }).toBe(true);
      const reached = (await readouts.getAttribute('data-reached')) === 'yes';
      got.set(key, { reached, reason: reached ? null : await readouts.getAttribute('data-reason'), note: (await readouts.textContent()) ?? '' });
      const name = shot[key];
      if (name) {
        // The motion has played (a second or two at walking pace) and the view has settled.
        await page.waitForTimeout(2500);
        const png = await page.getByTestId('workspace').screenshot();
        writeFileSync(join(TMP, `${name}.png`), png);
        shots.set(name, decodePng(png));
      }
    }
    await page.keyboard.press('.');
    await expect.poll(() => page.getByTestId('drive-readouts').count()).toBe(0);
  }
  return got;
}

function compare(got: Map<string, Verdict & { note: string }>, cli: DriveJson): void {
  const differ: string[] = [];
  let n = 0;
  for (const [agent, edges] of Object.entries(cli.agents)) {
    for (const [edge, want] of Object.entries(edges)) {
      n++;
      const g = got.get(`${agent} ${edge}`);
      if (!g) { differ.push(`${agent} ${edge}: not driven in the studio`); continue; }
      if (g.reached !== want.reached || (!want.reached && g.reason !== want.reason)) differ.push(`${agent} ${edge}: studio ${g.reached ? 'reached' : g.reason} (${g.note}), cli ${want.reached ? 'reached' : want.reason} (${want.note})`);
    }
  }
  expect(n).toBe(70);
  expect(differ, 'the studio’s G against cli drive').toEqual([]);
}

describe('G on every agent × edge answers what cli drive answers', () => {
  const { open } = studio();

  it('on the sample house, stairs included', async () => {
    const cli = cliDrive(join(REPO, 'scenes/sample-house/house.glb'));
    const page = await open();
    await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
    await page.keyboard.press('3');
    await nameAnnotator(page);
    await page.getByTestId('queue-item').waitFor();
    const got = await driveEvery(page);
    const want = await cli;
    compare(got, want);
    // The stairs in both directions were decided, and the agents that climb them got up.
    expect(got.get('HUMAN node_10|node_8')).toMatchObject({ reached: true });
    expect(got.get('QUADRUPEDAL node_10|node_8')).toMatchObject({ reached: true });
    expect(got.get('WHEELCHAIR node_10|node_8')).toMatchObject({ reached: false, reason: 'stairs' });
  }, 600_000);

  it('on the sample house rewritten as a reconstruction looks (dense, noisy, holed, wound either way, layered, cluttered)', async () => {
    const { soup } = scanLikeHouse(SAMPLE_HOUSE, { ...SCAN_VARIANTS.all, densityM: MATRIX_DENSITY_M }, 1);
    const glb = join(TMP, 'sample-house-scanlike.glb');
    writeFileSync(glb, await soupToGlb(soup));
    const cli = cliDrive(glb);
    const page = await open();
    await page.locator('[data-scene=sample-house]').click();
    await page.keyboard.press('2');
    await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('load-mesh').setInputFiles([glb]);
    await expect.poll(async () => (await page.getByTestId('mesh-ready').textContent()) ?? '', { timeout: 180_000 }).toMatch(/[0-9,]{7,} triangles/);
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor();
    // A door (the 1.20 m hall–living), a sill (the 5 cm upper-hall–bedroom 2, which stops the wheelchair) and the stairs, photographed.
    const shots = new Map<string, Pixels>();
    const got = await driveEvery(page, { 'HUMAN node_1|node_2': 'scanlike-door', 'WHEELCHAIR node_11|node_14': 'scanlike-sill', 'QUADRUPEDAL node_10|node_8': 'scanlike-stairs' }, shots);
    const want = await cli;
    compare(got, want);
    expect(got.get('WHEELCHAIR node_11|node_14')).toMatchObject({ reached: false, reason: 'step' });
    expect(got.get('QUADRUPEDAL node_10|node_8')).toMatchObject({ reached: true });
    console.log(`scan-like drive screenshots: ${TMP}`);
    // What the user sees (pixels of the viewport within 40 of each colour): a reached drive draws its
    // way in teal and nothing in red; the stopped one draws the agent and its way up to the stop in red
    // and nothing in teal (viewport/AgentOverlay.tsx). Measured: the door 319 teal pixels, the stairs
    // 468, the sill 157 red.
    const pixels = (name: string, colour: [number, number, number]) => { const img = shots.get(name)!; return Math.round(shareLike(img, colour, 40) * img.width * img.height); };
    for (const name of ['scanlike-door', 'scanlike-stairs']) {
      expect(pixels(name, TEAL), `${name}: the way drawn as reached`).toBeGreaterThan(100);
      expect(pixels(name, RED), `${name}: nothing drawn as stopped`).toBeLessThan(5);
    }
    expect(pixels('scanlike-sill', RED), 'the sill: the agent and its way up to the stop drawn as stopped').toBeGreaterThan(60);
    expect(pixels('scanlike-sill', TEAL), 'the sill: nothing drawn as reached').toBeLessThan(5);
  }, 900_000);
});
