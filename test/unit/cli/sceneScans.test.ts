import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileDigest, sceneScan, scanFiles } from '../../../src/cli/sceneScans.ts';

// `tour --scans <dir>`: a folder of every scene's scan; a .gltf or .obj brings the files it names,
// not the other scenes' files beside it.

const dir = mkdtempSync(join(tmpdir(), 'traversa-scans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scans of a release in one folder', () => {
  it('finds <SCENE>.glb|.gltf|.ply|.obj, in that order of preference', () => {
    writeFileSync(join(dir, 'A.ply'), 'ply');
    writeFileSync(join(dir, 'A.obj'), 'o');
    expect(sceneScan(dir, 'A')).toBe(join(dir, 'A.ply'));
    expect(sceneScan(dir, 'Z')).toBeNull();
  });

  it('a .gltf brings its buffers and images (not data: URIs, not what leaves the folder); an .obj its .mtl and their textures', () => {
    mkdirSync(join(dir, 'tex'));
    for (const f of ['B.bin', 'tex/wall floor.png', 'other.bin', 'C.mtl', 'c.jpg', 'bump.png']) writeFileSync(join(dir, f), f);
    writeFileSync(
      join(dir, 'B.gltf'),
      JSON.stringify({
        buffers: [{ uri: 'B.bin' }, { uri: 'data:application/octet-stream;base64,AAAA' }],
        images: [{ uri: 'tex/wall%20floor.png' }, { uri: '../outside.png' }, { uri: 'missing.png' }],
      }),
    );
    expect(scanFiles(join(dir, 'B.gltf')).map((f) => f.name)).toEqual(['B.gltf', 'B.bin', 'tex/wall floor.png']);
    writeFileSync(join(dir, 'C.obj'), 'mtllib C.mtl\nv 0 0 0\n');
    writeFileSync(join(dir, 'C.mtl'), 'newmtl m\nmap_Kd c.jpg\nbump -bm 0.5 bump.png\n');
    expect(scanFiles(join(dir, 'C.obj')).map((f) => f.name)).toEqual(['C.obj', 'C.mtl', 'c.jpg', 'bump.png']);
    expect(scanFiles(join(dir, 'A.ply'))).toEqual([{ path: join(dir, 'A.ply'), name: 'A.ply' }]);
  });

  it("each file's SHA-256 is sha256sum's", () => {
    expect(fileDigest(join(dir, 'B.bin'))).toBe(createHash('sha256').update('B.bin').digest('hex'));
  });
});
