import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { QUADRANT_COLOURS, QUADRANT_SPOTS, writeBasisScan, type Rgb } from '../support/basisScan.ts';
import { newSceneWithScan, studio } from '../support/browser.ts';
import { colourAt, decodePng, shareUnlike, type Pixels } from '../support/pngPixels.ts';
import { MESHES_DIR, sharedAvailable } from '../support/shared.ts';
import { scenePointOnPage } from '../support/viewportProbe.ts';

const haveMeshes = sharedAvailable(MESHES_DIR, 'drawing the real scans in the browser');

/** The workspace's background (Workspace.tsx). */
const BACKGROUND: Rgb = [0xe9, 0xed, 0xf2];
/**
 * A pixel is the scan's when a channel differs from the background by more than this: SwiftShader
 * draws the background exactly, and the palest surface here (the Open3D fragment's lit wall,
 * about 200–215) is 20+ steps away from it.
 */
const PIXEL_TOLERANCE = 12;
/**
 * "Visibly drawn": more than 2 % of the viewport. The camera frames a scan's bounds when it
 * appears, so a drawn scan covers far more (the smallest here, the fragment, about 10 %); a scan
 * that draws nothing leaves 0 % (before double-siding, the fragment left a few stray pixels).
 */
const DRAWN = 0.02;
/** Below this share the scan "draws almost nothing" (the app's own threshold, meshManager.ts). */
const NOTHING = 0.005;

const shots = mkdtempSync(join(tmpdir(), 'traversa-scan-visibility-'));
console.info(`scan visibility screenshots: ${shots}`);

/**
 * The viewport as the user sees it, once it has stopped changing (two screenshots in a row are the
 * same): the canvas draws on demand, so a settled picture is the scan as drawn. Saved for a look.
 */
async function settledViewport(page: Page, name: string): Promise<{ img: Pixels; left: number; top: number }> {
  const viewport = page.getByTestId('viewport');
  let last = await viewport.screenshot();
  for (let k = 0; k < 40; k++) {
    await page.waitForTimeout(150);
    const now = await viewport.screenshot();
    if (now.equals(last)) {
      writeFileSync(join(shots, `${name}.png`), now);
      const box = (await viewport.boundingBox())!;
      return { img: decodePng(now), left: box.x, top: box.y };
    }
    last = now;
  }
  throw new Error(`the view kept changing (${name})`);
}

/** The camera mode is kept per session, so each test says which view it looks from. */
async function orbitView(page: Page) {
  await page.keyboard.press('o');
  await expect.poll(() => page.getByTestId('workspace').getAttribute('data-camera')).toBe('orbit');
}
async function topView(page: Page) {
  await page.keyboard.press('t');
  await expect.poll(() => page.getByTestId('workspace').getAttribute('data-camera')).toBe('top');
}

const status = (page: Page) =>
  page
    .getByTestId('mesh-ready')
    .textContent()
    .then((t) => t ?? '');

/** Each quadrant of the Basis scan's picture, sampled where its centre is drawn. */
async function quadrantColours(page: Page, shot: { img: Pixels; left: number; top: number }) {
  const out: Record<string, Rgb> = {};
  for (const spot of QUADRANT_SPOTS) {
    const p = await scenePointOnPage(page, spot.at);
    out[spot.name] = colourAt(shot.img, p.x - shot.left, p.y - shot.top);
  }
  return out;
}

/** Within 20 steps a channel of the encoded colour: ETC1S and the GPU format round a little, and it is drawn unlit. */
const expectEncoded = (got: Record<string, Rgb>) => {
  console.info(
    `Basis scan quadrants as drawn: ${Object.entries(got)
      .map(([k, v]) => `${k} ${v.join(',')}`)
      .join('; ')}`,
  );
  for (const [name, want] of Object.entries(QUADRANT_COLOURS)) {
    expect(
      got[name]!.map((c, k) => Math.abs(c - want[k]!)).every((d) => d <= 20),
      `${name}: drawn ${got[name]}, encoded ${want}`,
    ).toBe(true);
  }
};

describe('scans are visibly drawn', () => {
  const { open } = studio();
  const fixtures = mkdtempSync(join(tmpdir(), 'traversa-basis-scan-'));

  it.skipIf(!haveMeshes)('the Open3D fragment, whose faces all point down, is drawn (double-sided), and the scan bar says why', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    const text = await newSceneWithScan(page, [join(MESHES_DIR, 'open3d-frag_115.ply')]);
    expect(text).toContain('open3d-frag_115.ply is drawn double-sided');
    await orbitView(page);
    const orbit = shareUnlike((await settledViewport(page, 'open3d-orbit')).img, BACKGROUND, PIXEL_TOLERANCE);
    await topView(page);
    const top = shareUnlike((await settledViewport(page, 'open3d-top')).img, BACKGROUND, PIXEL_TOLERANCE);
    console.info(`open3d-frag_115.ply covers ${(orbit * 100).toFixed(1)} % of the orbit view, ${(top * 100).toFixed(1)} % from the top`);
    expect(orbit).toBeGreaterThan(DRAWN);
    expect(top).toBeGreaterThan(DRAWN);
    expect(await status(page)).not.toContain('draws almost nothing');
  });

  it.skipIf(!haveMeshes)('both Habitat GLBs are drawn', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    for (const name of ['habitat-simple_room.glb', 'habitat-stage_floor1.glb']) {
      await newSceneWithScan(page, [join(MESHES_DIR, name)]);
      await orbitView(page);
      const share = shareUnlike((await settledViewport(page, name.replace('.glb', ''))).img, BACKGROUND, PIXEL_TOLERANCE);
      console.info(`${name} covers ${(share * 100).toFixed(1)} % of the orbit view`);
      expect(share, name).toBeGreaterThan(DRAWN);
      expect(await status(page)).not.toContain('draws almost nothing');
    }
  });

  it('an HM3D-style GOOGLE_texture_basis scan shows the colours encoded in its texture, each quadrant where it belongs, seen from above', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    const scan = await writeBasisScan(fixtures);
    const started = Date.now();
    const text = await newSceneWithScan(page, scan.files);
    console.info(`floor.basis.glb ready in the browser ${Date.now() - started} ms after it was picked`);
    expect(text).toContain('2 triangles · 1 floor');
    expect(text).not.toContain('warning');
    await topView(page);
    const top = await settledViewport(page, 'basis-top');
    expect(shareUnlike(top.img, BACKGROUND, PIXEL_TOLERANCE)).toBeGreaterThan(DRAWN);
    // The top view looks down with −Z up the screen and +X to the right, so the picture appears as
    // drawn: red top left, green top right, blue bottom left, yellow bottom right. Upside down, red
    // and blue would swap; mirrored, red and green.
    expectEncoded(await quadrantColours(page, top));
  });

  it('changing Up or the unit scale turns or shrinks the scan at once, without reloading it, and one undo brings it back', async () => {
    const page = await open();
    await page.locator('[data-scene=sample-house]').waitFor();
    const scan = await writeBasisScan(join(fixtures, 'frame'));
    await newSceneWithScan(page, scan.files);
    await topView(page);
    const flat = shareUnlike((await settledViewport(page, 'frame-y-up')).img, BACKGROUND, PIXEL_TOLERANCE);
    expect(flat).toBeGreaterThan(DRAWN);
    // Anything that would show a reload: the page starting over, or the loading bar appearing.
    await page.evaluate(() => {
      const w = window as unknown as { __sameLoad?: boolean; __loadingSeen?: boolean };
      w.__sameLoad = true;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid=mesh-progress]')) w.__loadingSeen = true;
      }).observe(document.body, { subtree: true, childList: true });
    });
    const undo = async () => {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Control+z');
    };

    // Z up: the floor quad stands up as a wall, seen edge-on from above; it has no floor any more.
    await page.getByLabel('Up axis').selectOption('z');
    await expect.poll(() => status(page)).toContain('0 floors');
    const standing = shareUnlike((await settledViewport(page, 'frame-z-up')).img, BACKGROUND, PIXEL_TOLERANCE);
    expect(standing).toBeLessThan(NOTHING);
    await expect.poll(() => status(page)).toContain('floor.basis.glb draws almost nothing in this view');

    await undo();
    await expect.poll(() => page.getByLabel('Up axis').inputValue()).toBe('y');
    await expect.poll(() => status(page)).toContain('1 floor');
    const back = await settledViewport(page, 'frame-y-up-again');
    expect(shareUnlike(back.img, BACKGROUND, PIXEL_TOLERANCE)).toBeCloseTo(flat, 2);
    expectEncoded(await quadrantColours(page, back));
    await expect.poll(() => status(page)).not.toContain('draws almost nothing');

    // Centimetres: the 2 m quad becomes 2 cm, a speck in the same framing.
    await page.getByLabel('Unit scale').selectOption('0.01');
    await expect.poll(() => status(page)).toContain('draws almost nothing');
    expect(shareUnlike((await settledViewport(page, 'frame-cm')).img, BACKGROUND, PIXEL_TOLERANCE)).toBeLessThan(NOTHING);
    await undo();
    await expect.poll(() => page.getByLabel('Unit scale').inputValue()).toBe('1');
    expect(shareUnlike((await settledViewport(page, 'frame-m-again')).img, BACKGROUND, PIXEL_TOLERANCE)).toBeCloseTo(flat, 2);

    const seen = await page.evaluate(() => {
      const w = window as unknown as { __sameLoad?: boolean; __loadingSeen?: boolean };
      return { samePage: w.__sameLoad === true, loadingBar: w.__loadingSeen === true };
    });
    expect(seen).toEqual({ samePage: true, loadingBar: false });
  });
});
