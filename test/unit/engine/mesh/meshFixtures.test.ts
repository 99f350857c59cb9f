import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMesh } from '../../../../src/engine/mesh/load.ts';
import { meshInput, writeAllMeshFixtures } from '../../../support/meshFixtures.ts';

let dir: string;
let f: Awaited<ReturnType<typeof writeAllMeshFixtures>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'traversa-mesh-fixtures-'));
  f = await writeAllMeshFixtures(dir);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROOM_TRIANGLES = 34;

async function readBack(path: string) {
  const draco3d = (await import('draco3dgltf' as string)) as { default: { createDecoderModule(): Promise<unknown> } };
  await MeshoptDecoder.ready;
  const io = new NodeIO()
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ 'draco3d.decoder': await draco3d.default.createDecoderModule(), 'meshopt.decoder': MeshoptDecoder });
  const doc = await io.read(path);
  const root = doc.getRoot();
  const triangles = root
    .listMeshes()
    .flatMap((m) => m.listPrimitives())
    .reduce((n, p) => n + p.getIndices()!.getCount() / 3, 0);
  return {
    triangles,
    extensions: root
      .listExtensionsUsed()
      .map((e) => e.extensionName)
      .sort(),
    required: root
      .listExtensionsRequired()
      .map((e) => e.extensionName)
      .sort(),
    textures: root.listTextures(),
  };
}

/** The KTX2 header fields that say what kind of texture it is (KTX 2.0 spec §3). */
function ktx2Header(path: string) {
  const b = readFileSync(path);
  const id = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];
  const dfd = b.readUInt32LE(48);
  return {
    identifier: id.every((v, i) => b[i] === v),
    vkFormat: b.readUInt32LE(12),
    width: b.readUInt32LE(20),
    supercompression: b.readUInt32LE(44), // 1 = BasisLZ
    colorModel: b[dfd + 4 + 8], // 163 = ETC1S
  };
}

describe('the mesh fixtures the browser tests load', () => {
  it('writes a Draco GLB that decodes back to the room', async () => {
    const r = await readBack(f.draco.glb);
    expect(r).toMatchObject({ triangles: ROOM_TRIANGLES, required: ['KHR_draco_mesh_compression'] });
  });

  it('writes a meshopt GLB that decodes back to the room', async () => {
    const r = await readBack(f.meshopt.glb);
    expect(r.triangles).toBe(ROOM_TRIANGLES);
    expect(r.extensions).toEqual(expect.arrayContaining(['EXT_meshopt_compression', 'KHR_mesh_quantization']));
  });

  it('writes a GLB whose texture is a real Basis ETC1S KTX2', async () => {
    const r = await readBack(f.ktx2.glb);
    expect(r).toMatchObject({ triangles: ROOM_TRIANGLES, required: ['KHR_texture_basisu'] });
    expect(r.textures.map((t) => t.getMimeType())).toEqual(['image/ktx2']);
    expect(ktx2Header(f.ktx2.ktx2)).toEqual({ identifier: true, vkFormat: 0, width: 16, supercompression: 1, colorModel: 163 });
    expect(Buffer.from(r.textures[0]!.getImage()!).equals(readFileSync(f.ktx2.ktx2))).toBe(true);
  });

  it('writes a .gltf whose .bin and PNG sit beside it', async () => {
    const r = await readBack(f.gltf.gltf);
    expect(r.triangles).toBe(ROOM_TRIANGLES);
    expect(r.textures.map((t) => t.getURI())).toEqual(['wood.png']);
    expect(readFileSync(f.gltf.png).subarray(1, 4).toString()).toBe('PNG');
  });

  it('writes PLY, OBJ and corrupt files the loader reads (or refuses) as intended', async () => {
    const z = { upAxis: 'z', unitScale: 1 } as const;
    expect((await loadMesh(meshInput(f.binaryPly.ply), z)).stats.triangles).toBe(ROOM_TRIANGLES);
    expect((await loadMesh(meshInput(f.asciiPly.ply), z)).stats.triangles).toBe(ROOM_TRIANGLES);
    const obj = await loadMesh(meshInput(f.obj.obj, f.obj.mtl, f.obj.png), z);
    expect(obj.stats).toMatchObject({ triangles: ROOM_TRIANGLES, textures: 1 });
    await expect(loadMesh(meshInput(f.corrupt.glb), z)).rejects.toThrow('corrupt.glb: not a glTF binary (bad magic bytes)');
  });
});
