import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';
import { writeBasisScan } from '../support/basisScan.ts';
import { writeCorruptGlb, writeDracoGlb, writeGltfWithSides, writeKtx2Glb, writeMeshoptGlb, writeObjWithMtl } from '../support/meshFixtures.ts';
import { MESHES_DIR, sharedAvailable } from '../support/shared.ts';

const haveMeshes = sharedAvailable(MESHES_DIR, 'loading the real scans in the browser');

async function newSceneWithScan(page: Page, files: string[]) {
  await page.getByTestId('new-scene').click();
  await page.getByTestId('workspace').waitFor();
  await page.getByTestId('load-mesh').setInputFiles(files);
}
const ready = async (page: Page) => {
  await page.getByTestId('mesh-ready').waitFor({ timeout: 60_000 });
  return (await page.getByTestId('mesh-ready').textContent()) ?? '';
};

describe('loading scans in the browser', () => {
  const { profile, url } = studio();
  const fixtures = mkdtempSync(join(tmpdir(), 'traversa-meshes-'));

  it.skipIf(!haveMeshes)('loads the real Z-up PLY scan fragment, and a reload brings it back from storage without asking for the file', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    await newSceneWithScan(page, [join(MESHES_DIR, 'open3d-frag_115.ply')]);
    expect(await ready(page)).toContain('127,229 triangles');
    expect(await page.getByLabel('Up axis').inputValue()).toBe('z');
    await expect.poll(() => page.getByTestId('storage-status').textContent()).toBe('Saved in this browser');
    await page.reload();
    await page.locator('[data-scene=SCENE001]').click();
    expect(await ready(page)).toContain('127,229 triangles');
  });

  it.skipIf(!haveMeshes)(
    'loads the Habitat GLBs the right way up: simple_room.glb is Z up inside its glTF, and turning it wrong offers the turn back in one click',
    async () => {
      const page = await profile.page(url());
      await page.locator('[data-scene=sample-house]').waitFor();
      await newSceneWithScan(page, [join(MESHES_DIR, 'habitat-simple_room.glb')]);
      expect(await ready(page)).toContain('84 triangles');
      // A .glb is Y up by convention; its own level surfaces (90 % across Z) say otherwise, and win.
      expect(await page.getByLabel('Up axis').inputValue()).toBe('z');
      expect(await page.getByTestId('up-hint').count()).toBe(0);
      await page.getByLabel('Up axis').selectOption('y');
      await expect
        .poll(() => page.getByTestId('up-hint').textContent())
        .toMatch(/^This scan looks Z up: 90 % of its surface lies level across Z, 5 % across Y/);
      await page.getByTestId('up-fix').click();
      await expect.poll(() => page.getByLabel('Up axis').inputValue()).toBe('z');
      await expect.poll(() => page.getByTestId('up-hint').count()).toBe(0);
      // The correction is one edit: undone, the scan is Y up again and the hint is back.
      await page.keyboard.press('Control+z');
      await expect.poll(() => page.getByLabel('Up axis').inputValue()).toBe('y');
      await page.getByTestId('up-hint').waitFor();
      await newSceneWithScan(page, [join(MESHES_DIR, 'habitat-stage_floor1.glb')]);
      expect(await ready(page)).toContain('2,048 triangles · 1 floor');
    },
  );

  it('decodes Draco, meshopt and Basis (KTX2) glTF, a .gltf with its .bin and texture, and an OBJ with its MTL', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').waitFor();
    const draco = await writeDracoGlb(fixtures);
    const meshopt = await writeMeshoptGlb(fixtures);
    const ktx2 = await writeKtx2Glb(fixtures);
    const gltf = await writeGltfWithSides(fixtures);
    const obj = writeObjWithMtl(fixtures);
    for (const files of [[draco.glb], [meshopt.glb], [ktx2.glb], [gltf.gltf, gltf.bin, gltf.png], [obj.obj, obj.mtl, obj.png]]) {
      await newSceneWithScan(page, files);
      const text = await ready(page);
      expect(text, files[0]).toContain('34 triangles');
      expect(text, files[0]).not.toContain('warning');
    }
  });

  it('a corrupt scan shows its file and reason and changes nothing', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').click();
    const before = await ready(page);
    const bad = writeCorruptGlb(fixtures);
    await page.getByTestId('load-mesh').setInputFiles([bad.glb]);
    await page.getByTestId('mesh-error').waitFor();
    expect(await page.getByTestId('mesh-error').textContent()).toMatch(/corrupt\.glb|\.glb/);
    expect(await page.getByTestId('mesh-ready').textContent()).toContain(before.split(' · ')[0]!);
    await expect.poll(() => page.locator('.mesh-name').textContent()).toBe('house.glb');
    // Turning the kept scan (it is measured and drawn again) leaves the message where it was.
    await page.getByLabel('Up axis').selectOption('z');
    await page.getByLabel('Up axis').selectOption('y');
    expect(await page.getByTestId('mesh-error').textContent({ timeout: 5000 })).toContain('corrupt.glb');
  });

  it('a scan whose Basis image is damaged names the file and the image, and the scene keeps its scan', async () => {
    const page = await profile.page(url());
    await page.locator('[data-scene=sample-house]').click();
    const before = await ready(page);
    const bad = await writeBasisScan(join(fixtures, 'damaged-basis'), { corrupt: true });
    await page.getByTestId('load-mesh').setInputFiles(bad.files);
    await page.getByTestId('mesh-error').waitFor();
    expect(await page.getByTestId('mesh-error').textContent()).toContain(
      'floor-corrupt.basis.glb: image 0 (quadrants) could not be decoded: its data is damaged',
    );
    expect(await page.getByTestId('mesh-ready').textContent()).toContain(before.split(' · ')[0]!);
    await expect.poll(() => page.locator('.mesh-name').textContent()).toBe('house.glb');
  });
});
