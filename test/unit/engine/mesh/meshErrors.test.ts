import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { MeshLoadError, loadMesh } from '../../../../src/engine/mesh/load.ts';
import { writeCorruptGlb, writePly } from '../../../support/meshFixtures.ts';
import { MESHES_DIR, sharedAvailable } from '../../../support/shared.ts';

const OPTIONS = { upAxis: 'z', unitScale: 1 } as const;
const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

/** What a user sees: the error's file and its plain sentence. */
async function failure(files: { name: string; data: Blob | ArrayBuffer }[]): Promise<{ file: string; message: string }> {
  const err = await loadMesh({ files }, OPTIONS).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MeshLoadError);
  const { file, message } = err as MeshLoadError;
  return { file, message };
}

describe('files that are not what their names say', () => {
  it('random bytes named .glb', async () => {
    const path = writeCorruptGlb(join(tmpdir(), 'traversa-mesh-errors')).glb;
    expect(await failure([{ name: 'house.glb', data: new Blob([readFileSync(path)]) }])).toEqual({
      file: 'house.glb',
      message: 'house.glb: not a glTF binary (bad magic bytes)',
    });
  });

  it('a GLB cut short', async () => {
    const path = writeCorruptGlb(join(tmpdir(), 'traversa-mesh-errors')).glb;
    const glb = new Uint8Array(readFileSync(path));
    glb.set([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 0, 0x20, 0, 0], 0); // magic, version 2, length 8192
    expect((await failure([{ name: 'house.glb', data: glb.buffer }])).message).toBe('house.glb: the file is truncated (4,096 of 8,192 bytes)');
  });

  it('an empty file', async () => {
    expect(await failure([{ name: 'scan.ply', data: new Blob([]) }])).toEqual({ file: 'scan.ply', message: 'scan.ply: the file is empty (0 bytes)' });
  });

  it('a format we do not read', async () => {
    expect(await failure([{ name: 'house.fbx', data: bytes('Kaydara FBX Binary') }])).toEqual({
      file: 'house.fbx',
      message: "house.fbx: unsupported file type '.fbx' (expected a .glb, .gltf, .ply or .obj file)",
    });
  });

  it('a .gltf that is not JSON', async () => {
    expect((await failure([{ name: 'scene.gltf', data: bytes('{"asset": {"version": "2.0"}') }])).message).toMatch(/^scene\.gltf: not valid glTF JSON \(/);
  });

  it('an OBJ that is a binary file, and one with nothing but comments', async () => {
    expect((await failure([{ name: 'room.obj', data: new Uint8Array([0, 1, 2, 3]).buffer }])).message).toBe(
      'room.obj: not an OBJ file (it contains binary data)',
    );
    expect((await failure([{ name: 'room.obj', data: bytes('# nothing\n') }])).message).toBe(
      'room.obj: contains no triangles (no vertices or faces: is this an OBJ file?)',
    );
  });

  it('an OBJ face that refers to vertices the file does not have', async () => {
    expect((await failure([{ name: 'room.obj', data: bytes('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\n') }])).message).toBe(
      "room.obj: object 'default' refers to vertices, normals or texture coordinates that the file does not define",
    );
  });
});

describe('broken PLY files', () => {
  const header = (extra = '') =>
    `ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\n${extra}`;

  it('a header that never ends', async () => {
    expect(await failure([{ name: 'scan.ply', data: bytes(header()) }])).toEqual({
      file: 'scan.ply',
      message: "scan.ply: the header ends before 'end_header'",
    });
  });

  it('not a PLY at all', async () => {
    expect((await failure([{ name: 'scan.ply', data: bytes('solid cube\nfacet normal 0 0 1\n') }])).message).toBe(
      "scan.ply: not a PLY file (it does not start with 'ply')",
    );
  });

  it('a binary body shorter than the header promises', async () => {
    const path = writePly(join(tmpdir(), 'traversa-mesh-errors'), 'binary').ply;
    const whole = readFileSync(path);
    const cut = whole.subarray(0, whole.length - 100);
    expect((await failure([{ name: 'room.ply', data: new Blob([cut]) }])).message).toMatch(/^room\.ply: the file is truncated \(/);
  });

  it('a face pointing past the last vertex', async () => {
    const body = new DataView(new ArrayBuffer(3 * 12 + 13));
    [0, 0, 0, 1, 0, 0, 0, 1, 0].forEach((v, i) => body.setFloat32(i * 4, v, true));
    body.setUint8(36, 3);
    [0, 1, 7].forEach((v, i) => body.setInt32(37 + i * 4, v, true));
    const data = new Blob([header('end_header\n'), body]);
    expect((await failure([{ name: 'scan.ply', data }])).message).toBe('scan.ply: triangle 0 refers to vertex 7, but there are only 3 vertices');
  });

  it('a point cloud: vertices and no faces', async () => {
    const text = 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n';
    expect((await failure([{ name: 'cloud.ply', data: bytes(text) }])).message).toBe(
      'cloud.ply: contains no triangles (3 vertices and no faces: a point cloud?)',
    );
  });
});

describe.skipIf(!sharedAvailable(MESHES_DIR, 'the truncated real-PLY test'))('the real scan cut in half', () => {
  it('is reported as truncated, naming the file', async () => {
    const whole = readFileSync(join(MESHES_DIR, 'open3d-frag_115.ply'));
    const half = whole.subarray(0, Math.floor(whole.length / 2));
    expect((await failure([{ name: 'open3d-frag_115.ply', data: new Blob([half]) }])).message)
      // 64,365 vertices × 27 bytes, plus one count byte per face: the least a whole file holds.
      .toBe('open3d-frag_115.ply: the file is truncated (1,695,770 bytes of data after the header, at least 1,865,084 expected)');
  });
});
