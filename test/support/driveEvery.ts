import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { undirectedKey } from '../../src/core/graph.ts';
import { nameAnnotator } from './browser.ts';
import { REPO, traversa } from './cli.ts';
import { decodePng, type Pixels } from './pngPixels.ts';

// The studio's G on every agent × edge against `cli drive` on the same scan (test/scans/driveEverySegment.test.ts
// on the sample house, test/scans/driveScanLike.test.ts on its scan-like rewrite, test/e2e/driveStairs.test.ts
// on its stairs). The label queue walks
// every agent × edge of the sample house (330 items); the drive of each pair is read from the panel.

export const GRAPH = join(REPO, 'scenes/sample-house/graphs/sample-house-graph.json');
export const AGENTS = join(REPO, 'scenes/sample-house/agent_profile.json');
export const TMP = mkdtempSync(join(tmpdir(), 'traversa-drive-every-'));
/** The drive overlay's colours (viewport/AgentOverlay.tsx): reached, stopped. */
export const TEAL: [number, number, number] = [0x2a, 0x9d, 0x8f];
export const RED: [number, number, number] = [0xe6, 0x39, 0x46];

export type Verdict = { reached: boolean; reason: string | null };
export type DriveJson = { agents: Record<string, Record<string, Verdict & { note: string }>> };

/** `cli drive --json` on a scan, as a user runs it. */
export async function cliDrive(mesh: string): Promise<DriveJson> {
  const r = await traversa('drive', '--mesh', mesh, '--graph', GRAPH, '--agents', AGENTS, '--json');
  if (r.code !== 0) throw new Error(`cli drive failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as DriveJson;
}

/**
 * Walk the label queue from its first item with '.', pressing G on the first item of every agent ×
 * undirected edge (or of those `only` names, as `AGENT a|b`), and read the verdict the drive panel
 * shows. `shot` names segments to photograph.
 */
export async function driveEvery(
  page: Page,
  shot: Record<string, string> = {},
  shots = new Map<string, Pixels>(),
  only: ReadonlySet<string> | null = null,
): Promise<Map<string, Verdict & { note: string }>> {
  const wanted = only?.size ?? 70;
  const got = new Map<string, Verdict & { note: string }>();
  // HUMAN's segments are auto-approved and passed over as a question is visited: stop that, so the
  // walk visits them too.
  await page.getByTestId('auto-approve').uncheck();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Home');
  for (let i = 0; i < 400 && got.size < wanted; i++) {
    const item = page.getByTestId('queue-item');
    const agent = (await item.getAttribute('data-agent'))!;
    const [a, b] = (await item.getAttribute('data-segment'))!.split('|') as [string, string];
    const key = `${agent} ${undirectedKey(a, b)}`;
    if (!got.has(key) && (!only || only.has(key))) {
      await page.keyboard.press('g');
      const readouts = page.getByTestId('drive-readouts');
      await expect.poll(() => readouts.getAttribute('data-reached'), { timeout: 90_000 }).toMatch(/yes|no/);
      await expect
        .poll(async () => (await readouts.getAttribute('data-reached')) === 'yes' || (await readouts.getAttribute('data-reason')) !== '', { timeout: 90_000 })
        .toBe(true);
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

export function compare(got: Map<string, Verdict & { note: string }>, cli: DriveJson, only: ReadonlySet<string> | null = null): void {
  const differ: string[] = [];
  let n = 0;
  for (const [agent, edges] of Object.entries(cli.agents)) {
    for (const [edge, want] of Object.entries(edges)) {
      if (only && !only.has(`${agent} ${edge}`)) continue;
      n++;
      const g = got.get(`${agent} ${edge}`);
      if (!g) {
        differ.push(`${agent} ${edge}: not driven in the studio`);
        continue;
      }
      if (g.reached !== want.reached || (!want.reached && g.reason !== want.reason))
        differ.push(`${agent} ${edge}: studio ${g.reached ? 'reached' : g.reason} (${g.note}), cli ${want.reached ? 'reached' : want.reason} (${want.note})`);
    }
  }
  expect(n).toBe(only?.size ?? 70);
  expect(differ, 'the studio’s G against cli drive').toEqual([]);
}

/**
 * On the bundled sample house as the studio opens it: G on every agent × edge (or those `only`
 * names) from the label queue, held to `cli drive` on the same scan; the verdicts G gave.
 */
export async function driveSampleHouse(page: Page, only: ReadonlySet<string> | null = null): Promise<Map<string, Verdict & { note: string }>> {
  const cli = cliDrive(join(REPO, 'scenes/sample-house/house.glb'));
  await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
  await page.keyboard.press('3');
  await nameAnnotator(page);
  await page.getByTestId('queue-item').waitFor();
  const got = await driveEvery(page, {}, new Map(), only);
  compare(got, await cli, only);
  return got;
}
