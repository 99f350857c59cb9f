import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { importFolder, nameAnnotator, studio } from '../support/browser.ts';
import { houseScene, releaseFiles, writeReleaseDir } from '../support/releaseBuilder.ts';

/**
 * A label decision redraws the graph's edges; it must not rebuild their shaders. drei's Line used
 * to drop its material whenever it was given a new points array, so every label recompiled the
 * line shader two or three times (50–100 ms each in software GL): the stall an annotator felt on
 * every key. Counted here by wrapping linkProgram, which three calls once per new shader program,
 * on a release without a scan (with a scan, the label view's slice changes the clipping planes
 * between floors, and three compiles a program per clipping-plane count: a separate matter).
 */
const COUNT_LINKS = `(() => {
  window.__links = 0;
  for (const C of [WebGL2RenderingContext, WebGLRenderingContext]) {
    const link = C.prototype.linkProgram;
    C.prototype.linkProgram = function (p) { window.__links++; return link.call(this, p); };
  }
})();`;

describe('labelling redraws without recompiling', () => {
  const { profile, url } = studio();

  it('after the first label, labelling and moving along the queue link no new shader program', async () => {
    const context = await profile.open();
    await context.addInitScript({ content: COUNT_LINKS });
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    const dir = writeReleaseDir(releaseFiles([houseScene('HM3D00025')], { root: 'house' }));
    await importFolder(page, join(dir, 'house'));
    await page.keyboard.press('3');
    await page.getByTestId('queue-item').waitFor();
    await nameAnnotator(page);
    const label = async (key: string) => {
      const before = await page.getByTestId('queue-item').getAttribute('data-segment');
      await page.keyboard.press(key);
      await page.getByTestId('queue-notice').filter({ hasText: 'Saved' }).waitFor();
      await page.keyboard.press('.');
      await page.waitForFunction((b) => document.querySelector('[data-testid=queue-item]')?.getAttribute('data-segment') !== b, before);
    };
    await label('y'); // the first label may bring new materials on screen (a coloured edge)
    await page.waitForTimeout(300);
    const links = await page.evaluate(() => (window as unknown as { __links: number }).__links);
    expect(links).toBeGreaterThan(0); // the counter sees the programs the view did build
    await label('y');
    await label('y');
    await label('y');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __links: number }).__links)).toBe(links);
  });
});
