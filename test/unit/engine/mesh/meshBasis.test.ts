import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataTexture, Mesh, MeshBasicMaterial, Raycaster, Vector2, Vector3, type Texture } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMesh, reframeMesh, type LoadedMesh } from '../../../../src/engine/mesh/load.ts';
import { QUADRANT_COLOURS, QUADRANT_SPOTS, TEXTURE_SIZE, writeBasisScan, type Rgb } from '../../../support/basisScan.ts';
import { meshInput } from '../../../support/meshFixtures.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'traversa-mesh-basis-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const Y_UP = { upAxis: 'y', unitScale: 1 } as const;

/** The one mesh of the test scan (a floor quad). */
const floorOf = (m: LoadedMesh) => {
  let found: Mesh | undefined;
  m.object.traverse((o) => {
    if (o instanceof Mesh) found = o;
  });
  return found!;
};

/** The UV the scan's own geometry gives the floor point straight below `at` (three's raycast interpolates the UV attribute). */
function uvAt(mesh: Mesh, at: { x: number; z: number }): Vector2 {
  const hit = new Raycaster(new Vector3(at.x, 5, at.z), new Vector3(0, -1, 0)).intersectObject(mesh)[0];
  if (!hit?.uv) throw new Error(`nothing under ${JSON.stringify(at)}`);
  return hit.uv;
}

/**
 * The texel a shader samples for `uv`: the texture's UV transform first (as three's `mapTransform`),
 * then the level-0 data, whose first row WebGL puts at v = 0 (glTF textures have flipY off).
 */
function texel(t: Texture, uv: Vector2, transform = true): Rgb {
  const p = transform ? uv.clone().applyMatrix3(t.matrix) : uv;
  const { data, width, height } = t.image as { data: Uint8Array; width: number; height: number };
  const wrap = (f: number) => f - Math.floor(f);
  const x = Math.min(width - 1, Math.floor(wrap(p.x) * width));
  const y = Math.min(height - 1, Math.floor(wrap(p.y) * height));
  const i = (y * width + x) * 4;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

/** ETC1S is lossy: flat colours come back within a few steps. */
const close = (got: Rgb, want: Rgb) => got.every((c, k) => Math.abs(c - want[k]!) <= 12);

describe('an HM3D-style scan with GOOGLE_texture_basis textures', () => {
  it('loads with its texture decoded, and every quadrant of the picture lands where the UVs put it, the right way up', async () => {
    const scan = await writeBasisScan(dir);
    const m = await loadMesh(meshInput(...scan.files), Y_UP);
    expect(m.warnings).toEqual([]);
    expect(m.stats).toMatchObject({ triangles: 2, textures: 1, format: 'glb' });
    const floor = floorOf(m);
    // Drawn unlit, as Habitat draws HM3D: the texture's colours are what shows.
    expect(floor.material).toBeInstanceOf(MeshBasicMaterial);
    const map = (floor.material as MeshBasicMaterial).map!;
    // Node has no GPU to ask, so the transcoder's RGBA fallback, with the file's mip levels.
    expect(map).toBeInstanceOf(DataTexture);
    expect(map.image).toMatchObject({ width: TEXTURE_SIZE, height: TEXTURE_SIZE });
    expect(map.mipmaps).toHaveLength(Math.log2(TEXTURE_SIZE) + 1);

    for (const spot of QUADRANT_SPOTS) {
      const uv = uvAt(floor, spot.at);
      const want = QUADRANT_COLOURS[spot.name];
      expect(texel(map, uv), `${spot.name} at ${JSON.stringify(spot.at)}`).toSatisfy((c: Rgb) => close(c, want));
      // The image really is stored bottom row first: read without the flip, the other half of the picture shows.
      const opposite =
        QUADRANT_COLOURS[
          spot.name.startsWith('top') ? (spot.name.replace('top', 'bottom') as 'bottomLeft') : (spot.name.replace('bottom', 'top') as 'topLeft')
        ];
      expect(texel(map, uv, false)).toSatisfy((c: Rgb) => close(c, opposite));
    }
  });

  it('reads a .gltf whose .basis image is a file beside it, the same way', async () => {
    const scan = await writeBasisScan(join(dir, 'separate'), { separate: true });
    const m = await loadMesh(meshInput(...scan.files), Y_UP);
    expect(m.warnings).toEqual([]);
    const floor = floorOf(m);
    const map = (floor.material as MeshBasicMaterial).map!;
    const spot = QUADRANT_SPOTS.find((s) => s.name === 'bottomRight')!;
    expect(texel(map, uvAt(floor, spot.at))).toSatisfy((c: Rgb) => close(c, QUADRANT_COLOURS.bottomRight));
  });

  it('without its .basis file, loads untextured and says which file is missing', async () => {
    const scan = await writeBasisScan(join(dir, 'missing'), { separate: true });
    const m = await loadMesh(meshInput(scan.files[0]!, scan.files[1]!), Y_UP);
    expect(m.warnings).toEqual(['floor.gltf: references quadrants.basis, which was not provided (loaded without that texture)']);
    expect(m.stats.textures).toBe(0);
  });

  it('refuses a file whose Basis image is damaged, naming the file and the image', async () => {
    const scan = await writeBasisScan(dir, { corrupt: true });
    await expect(loadMesh(meshInput(...scan.files), Y_UP)).rejects.toThrow(
      'floor-corrupt.basis.glb: image 0 (quadrants) could not be decoded: its data is damaged (checksum mismatch)',
    );
  });

  it('is drawn with back faces culled (its floor faces up), and double-sided once turned so that it does not', async () => {
    const m = await loadMesh(meshInput(...(await writeBasisScan(dir)).files), Y_UP);
    expect(m.doubleSided).toBe(false);
    expect(m.floors).toEqual([0]);
    reframeMesh(m, 'z', 1); // the floor stands up as a wall: nothing faces up any more
    expect(m.doubleSided).toBe(true);
    expect(m.floors).toEqual([]);
  });
});
