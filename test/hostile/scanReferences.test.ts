import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { SideFiles } from '../../src/engine/mesh/files.ts';
import { loadMesh } from '../../src/engine/mesh/load.ts';
import { refKind } from '../../src/engine/mesh/refs.ts';
import { CORNER_TRIANGLES, cornerGltf, tattletale, type Tattletale } from '../support/hostileScan.ts';

/**
 * A scan is the files the user picked. Whatever a hostile scan writes in its references (a glTF
 * buffer or image uri, an OBJ mtllib, an MTL texture map), loading it requests nothing from the
 * network: a texture at an address is left out with a warning naming the file and the JSON (or
 * .mtl) location, a buffer at an address refuses the scan. Here in Node the loader fetches with
 * the global fetch, so both a spy on it and a real local server watch for requests.
 */

const Y_UP = { upAxis: 'y', unitScale: 1 } as const;
const text = (name: string, body: string) => ({ name, data: new TextEncoder().encode(body).buffer as ArrayBuffer });
const bytes = (name: string, body: Uint8Array) => ({ name, data: body.slice().buffer as ArrayBuffer });

let server: Tattletale;
let fetchSpy: MockInstance<typeof fetch>;
beforeAll(async () => {
  server = await tattletale();
});
afterAll(() => server.close());
beforeEach(() => {
  fetchSpy = vi.spyOn(globalThis, 'fetch');
});
afterEach(() => {
  // data: and blob: URLs are the scan's own bytes; anything else would be a request out.
  const out = fetchSpy.mock.calls.map(([input]) => String(input instanceof Request ? input.url : input)).filter((u) => !/^(data|blob):/i.test(u));
  fetchSpy.mockRestore();
  const received = server.requests.splice(0);
  expect(out, 'fetched from outside the picked files').toEqual([]);
  expect(received, 'requests the local server received').toEqual([]);
});

describe('what a reference in a scan points at', () => {
  it('addresses, however spelled, are told apart from file names', () => {
    const addresses = [
      'http://127.0.0.1:9/x.png',
      'HTTPS://example.com/x.png',
      '//example.com/x.png',
      '\\\\server\\share\\x.png',
      '/\\example.com/x.png',
      ' http://example.com/x.png',
      'ht\ttp://example.com/x.png',
      'blob:http://127.0.0.1/0f3c',
      'file:///etc/x.png',
      'ftp://example.com/x.png',
      'javascript:alert(1)',
    ];
    for (const ref of addresses) expect(refKind(ref), ref).toBe('address');
    for (const ref of [
      'wood.png',
      'textures/wood.png',
      'textures\\Wood.JPG',
      './wood.png',
      '/home/me/scan/wood.png',
      'C:\\scans\\wood.png',
      '%68ttp://example.com/x.png',
    ])
      expect(refKind(ref), ref).toBe('name');
    expect(refKind('data:image/png;base64,AAAA')).toBe('data');
  });

  it('an address never finds a picked file by its base name, and the URL modifier never hands one on', () => {
    const sides = new SideFiles([text('wood.png', 'png')]);
    try {
      expect(sides.find(`${server.origin}/wood.png`)).toBeUndefined();
      expect(sides.find('//example.com/wood.png')).toBeUndefined();
      expect(sides.find('/home/me/scan/wood.png')?.name).toBe('wood.png');
      for (const url of [`${server.origin}/wood.png`, `//${server.host}/wood.png`, '/elsewhere.png', '/decoders/draco/../../x.png', 'file:///wood.png']) {
        expect(sides.modifier(url), url).toMatch(/^blob:/);
      }
      expect(sides.modifier('wood.png')).toMatch(/^blob:/);
      // The app's own decoder files, which the Draco and KTX2 loaders fetch through the same manager.
      expect(sides.modifier('/decoders/draco/draco_decoder.wasm')).toBe('/decoders/draco/draco_decoder.wasm');
    } finally {
      sides.dispose();
    }
  });
});

describe('a glTF scan with references to addresses', () => {
  it('loads without its textures at addresses, with a warning naming the file, the JSON location and the address', async () => {
    const { gltf } = cornerGltf({ images: [`${server.origin}/x.png`, `//${server.host}/n.png`, 'blob:http://127.0.0.1/0f3c'] });
    const m = await loadMesh({ files: [text('house.gltf', gltf), text('x.png', 'a picked file of the same name is not used')] }, Y_UP);
    expect(m.stats.triangles).toBe(CORNER_TRIANGLES);
    expect(m.warnings).toEqual([
      `house.gltf: images[0].uri "${server.origin}/x.png" is not a file you picked; scans never fetch from the network (loaded without that texture)`,
      `house.gltf: images[1].uri "//${server.host}/n.png" is not a file you picked; scans never fetch from the network (loaded without that texture)`,
      'house.gltf: images[2].uri "blob:http://127.0.0.1/0f3c" is not a file you picked; scans never fetch from the network (loaded without that texture)',
    ]);
    m.dispose();
  });

  it('lists five such textures and counts the rest, and a long or control-laden address is cut and escaped', async () => {
    const images = [
      `${server.origin}/${'a'.repeat(500)}.png`,
      `${server.origin}/\u001b[2J\u202e.png`,
      ...Array.from({ length: 8 }, (_, i) => `${server.origin}/${i}.png`),
    ];
    const m = await loadMesh({ files: [text('house.gltf', cornerGltf({ images }).gltf)] }, Y_UP);
    expect(m.warnings).toHaveLength(6);
    expect(m.warnings[0]).toContain(`"${server.origin}/${'a'.repeat(120 - server.origin.length - 1)}…"`);
    expect(m.warnings[1]).toContain('/\\u001b[2J\\u202e.png"');
    expect(m.warnings[5]).toBe('house.gltf: 5 more images at addresses were left out too');
    m.dispose();
  });

  it('refuses the scan when its geometry buffer is at an address, even with a picked file of that name', async () => {
    const { gltf, bin } = cornerGltf({ buffer: `${server.origin}/house.bin` });
    await expect(loadMesh({ files: [text('house.gltf', gltf), bytes('house.bin', bin)] }, Y_UP)).rejects.toThrow(
      `house.gltf: buffers[0].uri "${server.origin}/house.bin" is not a file you picked; scans never fetch from the network (the scan needs it: put the file beside house.gltf and pick it too, or embed it)`,
    );
    const relative = cornerGltf({ buffer: `//${server.host}/house.bin` });
    await expect(loadMesh({ files: [text('house.gltf', relative.gltf), bytes('house.bin', bin)] }, Y_UP)).rejects.toThrow(
      `buffers[0].uri "//${server.host}/house.bin" is not a file you picked`,
    );
  });

  it('still loads a buffer named by a picked file, and one written as an absolute path by its base name', async () => {
    for (const uri of ['house.bin', '/home/me/scans/house.bin']) {
      const { gltf, bin } = cornerGltf({ buffer: uri });
      const m = await loadMesh({ files: [text('house.gltf', gltf), bytes('house.bin', bin)] }, Y_UP);
      expect(m.stats.triangles, uri).toBe(CORNER_TRIANGLES);
      expect(m.warnings, uri).toEqual([]);
      m.dispose();
    }
  });
});

describe('an OBJ scan with references to addresses', () => {
  const obj = (mtllib: string) =>
    [
      `mtllib ${mtllib}`,
      'v 0 0 0',
      'v 2 0 0',
      'v 2 2 0',
      'v 0 2 0',
      'vt 0 0',
      'vt 1 0',
      'vt 1 1',
      'vt 0 1',
      'usemtl floor',
      'f 1/1 2/2 3/3',
      'f 1/1 3/3 4/4',
      '',
    ].join('\n');

  it('loads with default materials when its mtllib is an address', async () => {
    const m = await loadMesh({ files: [text('room.obj', obj(`${server.origin}/room.mtl`)), text('room.mtl', 'newmtl floor\nKd 1 1 1\n')] }, Y_UP);
    expect(m.stats.triangles).toBe(2);
    expect(m.warnings).toEqual([
      `room.obj: mtllib "${server.origin}/room.mtl" is not a file you picked; scans never fetch from the network (loaded with default materials)`,
    ]);
    m.dispose();
  });

  it('loads without the .mtl texture maps at addresses, naming the .mtl line and statement', async () => {
    const mtl = ['newmtl floor', 'Kd 1 1 1', `map_Kd ${server.origin}/wood.png`, `map_Bump -bm 1 //${server.host}/bump.png`, 'map_Ks wood.png', ''].join('\n');
    const m = await loadMesh({ files: [text('room.obj', obj('room.mtl')), text('room.mtl', mtl), text('wood.png', 'not decoded in Node')] }, Y_UP);
    expect(m.stats.triangles).toBe(2);
    expect(m.warnings).toEqual([
      `room.mtl: line 3 (map_Kd) "${server.origin}/wood.png" is not a file you picked; scans never fetch from the network (loaded without that texture)`,
      `room.mtl: line 4 (map_Bump) "//${server.host}/bump.png" is not a file you picked; scans never fetch from the network (loaded without that texture)`,
    ]);
    m.dispose();
  });
});

describe('a PLY scan', () => {
  it('has no references to follow: a texture named in its header comments is not requested', async () => {
    const ply = [
      'ply',
      'format ascii 1.0',
      `comment TextureFile ${server.origin}/x.png`,
      `obj_info ${server.origin}/info`,
      'element vertex 3',
      'property float x',
      'property float y',
      'property float z',
      'element face 1',
      'property list uchar int vertex_indices',
      'end_header',
      '0 0 0',
      '1 0 0',
      '0 1 0',
      '3 0 1 2',
      '',
    ].join('\n');
    const m = await loadMesh({ files: [text('scan.ply', ply)] }, Y_UP);
    expect(m.stats.triangles).toBe(1);
    expect(m.warnings).toEqual([]);
    m.dispose();
  });
});
