import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newSceneWithScan, studio } from '../support/browser.ts';
import { CORNER_TRIANGLES, cornerGltf, tattletale, type Tattletale } from '../support/hostileScan.ts';
import { png } from '../support/meshFixtures.ts';
import { decodePng, shareUnlike } from '../support/pngPixels.ts';

/** The workspace's background (Workspace.tsx), and how far a pixel must differ from it to be the scan's. */
const BACKGROUND: [number, number, number] = [0xe9, 0xed, 0xf2];
const PIXEL_TOLERANCE = 12;

/**
 * A scan that names textures at addresses (here a local server that records every request) loads
 * from the picked files alone: the server is asked nothing, the page requests nothing outside the
 * app, the scan bar lists each texture left out, and the scan is drawn.
 */
describe('a hostile scan in the browser', () => {
  const { profile, url } = studio();
  const dir = mkdtempSync(join(tmpdir(), 'traversa-hostile-scan-'));
  let server: Tattletale;
  beforeAll(async () => {
    server = await tattletale();
  });
  afterEach(() => {
    server.requests.length = 0;
  });
  afterAll(() => server.close());

  /** Every request the page makes that is not the app itself or the scan's own bytes. */
  function outsideRequests(page: Page): string[] {
    const seen: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(url()) && !/^(data|blob):/.test(r.url())) seen.push(r.url());
    });
    return seen;
  }

  it('loads a glTF whose textures are at http:// and protocol-relative addresses without requesting them, and says which were left out', async () => {
    const page = await profile.page(url());
    const outside = outsideRequests(page);
    await page.locator('[data-scene=sample-house]').waitFor();
    const gltf = join(dir, 'house.gltf');
    writeFileSync(gltf, cornerGltf({ images: [`${server.origin}/x.png`, `//${server.host}/normal.png`] }).gltf);

    const status = await newSceneWithScan(page, [gltf]);
    expect(server.requests).toEqual([]);
    expect(outside).toEqual([]);
    expect(status).toContain(`${CORNER_TRIANGLES} triangles`);
    const warnings = await page.getByTestId('mesh-warnings').textContent();
    expect(warnings).toContain(
      `house.gltf: images[0].uri "${server.origin}/x.png" is not a file you picked; scans never fetch from the network (loaded without that texture)`,
    );
    expect(warnings).toContain(
      `house.gltf: images[1].uri "//${server.host}/normal.png" is not a file you picked; scans never fetch from the network (loaded without that texture)`,
    );
    await expect.poll(async () => shareUnlike(decodePng(await page.getByTestId('viewport').screenshot()), BACKGROUND, PIXEL_TOLERANCE)).toBeGreaterThan(0.02);
    expect(server.requests).toEqual([]);
  });

  it('loads an OBJ whose mtllib and .mtl texture are at addresses without requesting them', async () => {
    const page = await profile.page(url());
    const outside = outsideRequests(page);
    await page.locator('[data-scene]').first().waitFor();
    const obj = join(dir, 'room.obj');
    writeFileSync(
      obj,
      [
        `mtllib ${server.origin}/other.mtl`,
        'mtllib room.mtl',
        'v 0 0 0',
        'v 2 0 0',
        'v 2 0 -2',
        'v 0 0 -2',
        'vt 0 0',
        'vt 1 0',
        'vt 1 1',
        'vt 0 1',
        'usemtl floor',
        'f 1/1 2/2 3/3',
        'f 1/1 3/3 4/4',
        '',
      ].join('\n'),
    );
    const mtl = join(dir, 'room.mtl');
    writeFileSync(mtl, ['newmtl floor', 'Kd 0.6 0.4 0.3', `map_Kd ${server.origin}/wood.png`, ''].join('\n'));
    // A picked file with the address's base name is not what the address names: it is not used either.
    const wood = join(dir, 'wood.png');
    writeFileSync(wood, png(4, 4, new Uint8Array(64).fill(200)));

    const status = await newSceneWithScan(page, [obj, mtl, wood]);
    expect(server.requests).toEqual([]);
    expect(outside).toEqual([]);
    expect(status).toContain('2 triangles');
    const warnings = await page.getByTestId('mesh-warnings').textContent();
    expect(warnings).toContain(
      `room.obj: mtllib "${server.origin}/other.mtl" is not a file you picked; scans never fetch from the network (loaded with default materials)`,
    );
    expect(warnings).toContain(
      `room.mtl: line 3 (map_Kd) "${server.origin}/wood.png" is not a file you picked; scans never fetch from the network (loaded without that texture)`,
    );
  });

  it('a scan with a vertex at NaN or 1e38 is refused naming the file and vertex, and the scene keeps its scan drawn (issue 25 §7)', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').click();
    await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
    const before = (await page.getByTestId('mesh-ready').textContent())!;
    for (const [poison, message] of [
      [NaN, 'nan.gltf: mesh "corner": vertex 2 has y = NaN: coordinates must be finite numbers'],
      [1e38, 'far.gltf: is 1.00e+38 m across in y'],
    ] as const) {
      const name = Number.isNaN(poison) ? 'nan.gltf' : 'far.gltf';
      writeFileSync(join(dir, name), cornerGltf({ poison }).gltf);
      await page.getByTestId('load-mesh').setInputFiles([join(dir, name)]);
      await expect.poll(() => page.getByTestId('mesh-error').textContent(), { timeout: 30_000 }).toContain(message);
      expect(await page.getByTestId('mesh-ready').textContent()).toContain(`${before} · ${name}`);
      expect(await page.getByTestId('mesh-ready').textContent()).toContain('the current scan is unchanged');
      await expect.poll(() => page.locator('.mesh-name').textContent()).toBe('house.glb');
    }
    // Still drawn: the view did not go blank.
    await expect.poll(async () => shareUnlike(decodePng(await page.getByTestId('viewport').screenshot()), BACKGROUND, PIXEL_TOLERANCE)).toBeGreaterThan(0.02);
  });
});
