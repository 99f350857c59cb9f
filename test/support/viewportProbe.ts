import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The app's read-only viewport probe (see src/viewport/Interaction.tsx): where things are drawn on the page. */
interface Probe {
  nodeOnPage(id: string): { x: number; y: number } | null;
  scenePointOnPage(x: number, y: number, z: number): { x: number; y: number };
}
type Win = { __traversaViewport?: Probe };

/** The probe is installed once the 3D view has mounted, which can be after the scan bar says "ready". */
const probeInstalled = (page: Page) => page.waitForFunction(() => 'nodeOnPage' in ((window as unknown as Win).__traversaViewport ?? {}));

/** Where a node is drawn on the page, or null while the view has not placed it. */
export const nodeOnPage = async (page: Page, id: string) => {
  await probeInstalled(page);
  return page.evaluate((nid) => (window as unknown as Win).__traversaViewport!.nodeOnPage(nid), id);
};

export const scenePointOnPage = async (page: Page, p: { x: number; y: number; z: number }) => {
  await probeInstalled(page);
  return page.evaluate((q) => (window as unknown as Win).__traversaViewport!.scenePointOnPage(q.x, q.y, q.z), p);
};

/** Whether a node's name label is shown (labels above the slice are hidden). */
export const labelShown = (page: Page, id: string) => page.locator(`[data-node-label=${id}]`).evaluate((el) => (el as HTMLElement).style.display !== 'none');

/** Where a scene point is drawn once the view has stopped moving (two readings 150 ms apart agree within a pixel). */
export async function settledPointOnPage(page: Page, at: { x: number; y: number; z: number }): Promise<{ x: number; y: number }> {
  let last = await scenePointOnPage(page, at);
  for (let k = 0; k < 40; k++) {
    await page.waitForTimeout(150);
    const now = await scenePointOnPage(page, at);
    if (Math.abs(now.x - last.x) < 1 && Math.abs(now.y - last.y) < 1) return now;
    last = now;
  }
  throw new Error(`the view kept moving: ${JSON.stringify(at)} never settled on the page`);
}

/**
 * Top-down view, the measuring tool in clear-width mode, and a click at a scene point (e.g. a
 * doorway) until `measured()` says a width was taken. The click waits for the view to settle (the
 * top view frames the scene after it mounts; a click during that lands elsewhere and measures another
 * passage), and the point is projected again before each try.
 */
export async function measureClearWidthAt(page: Page, at: { x: number; y: number; z: number }, measured: () => Promise<boolean>): Promise<void> {
  await page.keyboard.press('t');
  await expect.poll(() => page.getByTestId('workspace').getAttribute('data-camera')).toBe('top');
  await page.keyboard.press('m');
  await page.keyboard.press('w');
  for (let attempt = 0; attempt < 15; attempt++) {
    const p = await settledPointOnPage(page, at);
    await page.mouse.click(p.x, p.y);
    for (let k = 0; k < 10; k++) {
      if (await measured()) return;
      await page.waitForTimeout(100);
    }
  }
  const tool = await page.getByTestId('workspace').getAttribute('data-tool');
  const label = await page
    .getByTestId('measure-label')
    .textContent()
    .catch(() => null);
  throw new Error(`no clear width was measured at ${JSON.stringify(at)} (tool ${tool}, measure label ${label})`);
}
