import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Box3, Mesh, Vector3, type MeshPhongMaterial } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeshLoadError, loadMesh, type LoadProgress } from '../../../../src/engine/mesh/load.ts';
import { floorBelow } from '../../../../src/engine/rays/cast.ts';
import { scanSurface } from '../../../../src/engine/rays/surface.ts';
import { ROOM, meshInput, writeDracoGlb, writeGltfWithSides, writeKtx2Glb, writeMeshoptGlb, writeObjWithMtl, writePly } from '../../../support/meshFixtures.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'traversa-mesh-formats-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const asText = (name: string, text: string) => ({ name, data: new TextEncoder().encode(text).buffer as ArrayBuffer });
const Y_UP = { upAxis: 'y', unitScale: 1 } as const;
const Z_UP = { upAxis: 'z', unitScale: 1 } as const;
/** Floor, walls and table of the fixture room: 12 floor quads, 4 walls, 1 table top. */
const ROOM_TRIANGLES = 2 * (12 + 4 + 1);

describe('an ASCII PLY written by hand', () => {
  // A 2 × 2 m floor as one quad (split into two triangles) and a 1 m² step at 0.2 m as two triangles, Z up, coloured.
  const ply = [
    'ply',
    'format ascii 1.0',
    'comment hand-written',
    'element vertex 8',
    'property float x',
    'property float y',
    'property float z',
    'property uchar red',
    'property uchar green',
    'property uchar blue',
    'element face 3',
    'property list uchar int vertex_indices',
    'end_header',
    '0 0 0 255 0 0',
    '2 0 0 255 0 0',
    '2 2 0 255 0 0',
    '0 2 0 255 0 0',
    '0 0 0.2 0 0 255',
    '1 0 0.2 0 0 255',
    '1 1 0.2 0 0 255',
    '0 1 0.2 0 0 255',
    '4 0 1 2 3',
    '3 4 5 6',
    '3 4 6 7',
    '',
  ].join('\n');

  it('loads quads as two triangles, with colours, and stands the floor up with the Z-up frame', async () => {
    const m = await loadMesh({ files: [asText('floor.ply', ply)] }, Z_UP);
    expect(m.stats).toMatchObject({ triangles: 4, vertices: 8, format: 'ply' });
    const colors = (m.object as Mesh).geometry.getAttribute('color');
    expect(colors.count).toBe(8);
    expect(colors.getX(0)).toBeCloseTo(1, 5); // red, normalised
    const hit = floorBelow(scanSurface(m), new Vector3(1.5, 5, -1.5), 10);
    expect(hit!.point.y).toBeCloseTo(0, 6); // outside the step: the floor
    expect(floorBelow(scanSurface(m), new Vector3(0.5, 5, -0.5), 10)!.point.y).toBeCloseTo(0.2, 6);
  });

  it('names the line count when the data stops early', async () => {
    const cut = ply.split('\n').slice(0, -3).join('\n');
    await expect(loadMesh({ files: [asText('floor.ply', cut)] }, Z_UP)).rejects.toThrow(
      'floor.ply: the file is truncated (the header promises 11 element lines, the data has 9)',
    );
  });
});

describe('the fixture room in every format', () => {
  it('reads the binary and the ASCII PLY to the same mesh', async () => {
    const binary = await loadMesh(meshInput(writePly(dir, 'binary').ply), Z_UP);
    const ascii = await loadMesh(meshInput(writePly(dir, 'ascii').ply), Z_UP);
    expect(binary.stats.triangles).toBe(ROOM_TRIANGLES);
    const a = (binary.object as Mesh).geometry,
      b = (ascii.object as Mesh).geometry;
    expect(Array.from(a.getAttribute('position').array)).toEqual(Array.from(b.getAttribute('position').array));
    expect(Array.from(a.getAttribute('color').array)).toEqual(Array.from(b.getAttribute('color').array));
    expect(binary.floors).toHaveLength(1);
    expect(binary.floors[0]).toBeCloseTo(0, 6); // the table (0.75 m) is furniture on that floor
  });

  it('loads an OBJ with its MTL and texture: materials by name, the floor textured', async () => {
    const f = writeObjWithMtl(join(dir, 'obj'));
    const m = await loadMesh(meshInput(f.obj, f.mtl, f.png), Z_UP);
    expect(m.warnings).toEqual([]);
    expect(m.stats).toMatchObject({ triangles: ROOM_TRIANGLES, textures: 1, format: 'obj' });
    const mats = (m.object.children[0] as Mesh).material as MeshPhongMaterial[];
    expect(mats.map((x) => x.name)).toEqual(['floor', 'wall']);
    expect(mats[0]!.map!.name).toBe('wood.png'); // Node decodes no images; the texture is there, named
    expect(mats[1]!.color.r).toBeCloseTo(0.79, 2); // Kd 0.9 (sRGB) in linear working space
    expect(m.floors).toEqual([expect.closeTo(0, 6)]);
  });

  it('loads an OBJ whose texture is missing, without it, and says so', async () => {
    const f = writeObjWithMtl(join(dir, 'obj'));
    const m = await loadMesh(meshInput(f.obj, f.mtl), Z_UP);
    expect(m.warnings).toEqual(['room.mtl: references wood.png, which was not provided (loaded without that texture)']);
    const floor = ((m.object.children[0] as Mesh).material as MeshPhongMaterial[])[0]!;
    expect(floor.map).toBeNull();
    expect(m.stats.textures).toBe(0);
  });

  it('loads an OBJ whose MTL is missing with default materials, and says so', async () => {
    const f = writeObjWithMtl(join(dir, 'obj'));
    const m = await loadMesh(meshInput(f.obj), Z_UP);
    expect(m.warnings).toEqual(['room.obj: references room.mtl, which was not provided (loaded with default materials)']);
    expect(m.stats.triangles).toBe(ROOM_TRIANGLES);
  });

  it('loads a .gltf with its .bin and image found by name, keeping the node transform', async () => {
    const f = await writeGltfWithSides(join(dir, 'gltf'));
    const m = await loadMesh(meshInput(f.gltf, f.bin, f.png), Y_UP);
    expect(m.stats).toMatchObject({ triangles: ROOM_TRIANGLES, format: 'gltf' });
    // Node has no image decoder; in a browser wood.png decodes (the lead's browser tests).
    expect(m.warnings).toEqual(['room.gltf: 1 of 1 textures could not be decoded and were left out']);
    expect(m.object.getObjectByName('room')!.position.toArray()).toEqual([0.5, 0, -0.25]);
    const box = new Box3().setFromBufferAttribute(m.collision.geometry.getAttribute('position') as never);
    expect(box.min.toArray()).toEqual([0.5, 0, -0.25]); // the translation is baked into the collision mesh
    expect(box.max.toArray()).toEqual([ROOM.width + 0.5, ROOM.wall, ROOM.depth - 0.25]);
  });

  it('refuses a .gltf whose .bin is missing, naming it', async () => {
    const f = await writeGltfWithSides(join(dir, 'gltf'));
    await expect(loadMesh(meshInput(f.gltf, f.png), Y_UP)).rejects.toThrow('room.gltf: references room.bin, which was not provided (add it next to room.gltf)');
  });

  it('decodes a meshopt-compressed GLB (quantized positions) in Node', async () => {
    const m = await loadMesh(meshInput((await writeMeshoptGlb(dir)).glb), Y_UP);
    expect(m.stats.triangles).toBe(ROOM_TRIANGLES);
    const box = new Box3().setFromBufferAttribute(m.collision.geometry.getAttribute('position') as never);
    expect(box.max.x).toBeCloseTo(ROOM.width + 0.5, 3);
    expect(m.floors).toEqual([expect.closeTo(0, 3)]);
  });

  it('explains that Draco and KTX2 need a browser when loaded in Node', async () => {
    await expect(loadMesh(meshInput((await writeDracoGlb(dir)).glb), Y_UP)).rejects.toThrow(
      'room-draco.glb: uses Draco mesh compression, which needs Web Workers',
    );
    await expect(loadMesh(meshInput((await writeKtx2Glb(dir)).glb), Y_UP)).rejects.toThrow(
      /room-ktx2\.glb: uses KTX2 \(Basis Universal\) textures, which need a WebGL renderer.*pass options\.renderer/,
    );
  });
});

describe('progress, aborting and disposing', () => {
  it('reports stages in order with fractions that never go back, ending with done', async () => {
    const events: LoadProgress[] = [];
    const f = writeObjWithMtl(join(dir, 'obj'));
    await loadMesh(meshInput(f.obj, f.mtl, f.png), Z_UP, (p) => events.push(p));
    const order = ['read', 'parse', 'textures', 'bvh', 'done'];
    expect([...new Set(events.map((e) => e.stage))]).toEqual(order);
    for (let i = 1; i < events.length; i++) {
      const [a, b] = [events[i - 1]!, events[i]!];
      expect(order.indexOf(b.stage)).toBeGreaterThanOrEqual(order.indexOf(a.stage));
      if (a.stage === b.stage) expect(b.fraction).toBeGreaterThanOrEqual(a.fraction);
    }
    expect(events.at(-1)).toMatchObject({ stage: 'done', fraction: 1 });
  });

  it('rejects with the abort reason when aborted before or during the load', async () => {
    const input = meshInput(writePly(dir, 'binary').ply);
    const early = new AbortController();
    early.abort();
    await expect(loadMesh(input, Z_UP, undefined, early.signal)).rejects.toMatchObject({ name: 'AbortError' });
    const during = new AbortController();
    const loading = loadMesh(
      input,
      Z_UP,
      (p) => {
        if (p.stage === 'bvh') during.abort();
      },
      during.signal,
    );
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('frees every geometry and material on dispose', async () => {
    const m = await loadMesh(meshInput(writePly(dir, 'binary').ply), Z_UP);
    const freed: string[] = [];
    const mesh = m.object as Mesh;
    mesh.geometry.addEventListener('dispose', () => freed.push('render geometry'));
    (mesh.material as MeshPhongMaterial).addEventListener('dispose', () => freed.push('render material'));
    m.collision.geometry.addEventListener('dispose', () => freed.push('collision geometry'));
    m.dispose();
    m.dispose(); // twice is harmless
    expect(freed.sort()).toEqual(['collision geometry', 'render geometry', 'render material']);
    expect(m.collision.geometry.boundsTree).toBeUndefined();
  });

  it('is a MeshLoadError with the file name for a caller mistake such as a zero unit scale', async () => {
    const err = await loadMesh(meshInput(writePly(dir, 'binary').ply), { upAxis: 'z', unitScale: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeshLoadError);
    expect(err).toMatchObject({ file: 'room-binary.ply', reason: 'the unit scale must be a positive number (got 0)' });
  });
});
