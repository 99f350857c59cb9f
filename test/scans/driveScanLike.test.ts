import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { soupToGlb } from '../../scenes/generate.ts';
import { SAMPLE_HOUSE } from '../../src/core/sample/houseSpec.ts';
import { scanLikeHouse, SCAN_VARIANTS } from '../../src/core/sample/scanLike/index.ts';
import { nameAnnotator, studio } from '../support/browser.ts';
import { cliDrive, compare, driveEvery, RED, TEAL, TMP } from '../support/driveEvery.ts';
import { shareLike, type Pixels } from '../support/pngPixels.ts';
import { MATRIX_DENSITY_M } from '../support/scanMatrix.ts';

// The studio's G on every agent × edge of the sample house rewritten as a reconstruction looks (every
// defect of src/core/sample/scanLike/ at once, 10 cm, ~0.8 M triangles, loaded through Load scan…)
// answers what `cli drive` answers on the same file; a door, a sill and the stairs photographed and
// the pictures checked. Part of `npm run test:scans` (the scan-realism suite).

describe('G on every agent × edge answers what cli drive answers, on a reconstruction', () => {
  const { open } = studio();

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
    await nameAnnotator(page);
    await page.getByTestId('queue-item').waitFor();
    // A door (the 1.20 m hall–living), a sill (the 5 cm upper-hall–bedroom 2, which stops the wheelchair) and the stairs, photographed.
    const shots = new Map<string, Pixels>();
    const got = await driveEvery(
      page,
      { 'HUMAN node_1|node_2': 'scanlike-door', 'WHEELCHAIR node_11|node_14': 'scanlike-sill', 'QUADRUPEDAL node_10|node_8': 'scanlike-stairs' },
      shots,
    );
    const want = await cli;
    compare(got, want);
    expect(got.get('WHEELCHAIR node_11|node_14')).toMatchObject({ reached: false, reason: 'step' });
    expect(got.get('QUADRUPEDAL node_10|node_8')).toMatchObject({ reached: true });
    console.log(`scan-like drive screenshots: ${TMP}`);
    // What the user sees (pixels of the viewport within 40 of each colour): a reached drive draws its
    // way in teal and nothing in red; the stopped one draws the agent and its way up to the stop in red
    // and nothing in teal (viewport/AgentOverlay.tsx). Measured: the door 319 teal pixels, the stairs
    // 468, the sill 157 red.
    const pixels = (name: string, colour: [number, number, number]) => {
      const img = shots.get(name)!;
      return Math.round(shareLike(img, colour, 40) * img.width * img.height);
    };
    for (const name of ['scanlike-door', 'scanlike-stairs']) {
      expect(pixels(name, TEAL), `${name}: the way drawn as reached`).toBeGreaterThan(100);
      expect(pixels(name, RED), `${name}: nothing drawn as stopped`).toBeLessThan(5);
    }
    expect(pixels('scanlike-sill', RED), 'the sill: the agent and its way up to the stop drawn as stopped').toBeGreaterThan(60);
    expect(pixels('scanlike-sill', TEAL), 'the sill: nothing drawn as reached').toBeLessThan(5);
  }, 900_000);
});
