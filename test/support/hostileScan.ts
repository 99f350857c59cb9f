import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Hostile scans for the no-fetch tests: a small room corner (a 2 × 2 m floor and a 2 m wall, four
 * triangles) as a .gltf whose buffer and image references the test chooses, and a local HTTP
 * server that records every request, to show that loading such a scan asks it for nothing.
 */

/** Positions (floor at y = 0, wall at z = 0), texture coordinates and indices of the corner. */
function corner(poison?: number): { bin: Uint8Array; positions: number; uvs: number; indices: number } {
  const positions = new Float32Array([0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0, 0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0]);
  if (poison !== undefined) positions[7] = poison; // vertex 2's y
  const uvs = new Float32Array([0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1]);
  const indices = new Uint16Array([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]);
  const bin = new Uint8Array(positions.byteLength + uvs.byteLength + indices.byteLength);
  bin.set(new Uint8Array(positions.buffer), 0);
  bin.set(new Uint8Array(uvs.buffer), positions.byteLength);
  bin.set(new Uint8Array(indices.buffer), positions.byteLength + uvs.byteLength);
  return { bin, positions: positions.byteLength, uvs: uvs.byteLength, indices: indices.byteLength };
}

export const CORNER_TRIANGLES = 4;

/**
 * The corner as .gltf text. `buffer` is the buffer's uri (a name, an address; embedded as a data:
 * URI when left out); each of `images` becomes an image and the texture of one material slot
 * (base colour first, then normal, emissive…), so every image is one GLTFLoader would request.
 * `poison` replaces one coordinate (vertex 2's y) with another number: NaN, infinity, 1e38.
 */
export function cornerGltf(refs: { buffer?: string; images?: string[]; poison?: number } = {}): { gltf: string; bin: Uint8Array } {
  const c = corner(refs.poison);
  const images = refs.images ?? [];
  const uri = refs.buffer ?? `data:application/octet-stream;base64,${Buffer.from(c.bin).toString('base64')}`;
  const slots = ['baseColorTexture', 'normalTexture', 'emissiveTexture', 'occlusionTexture'];
  const material: Record<string, unknown> = { name: 'corner', pbrMetallicRoughness: { baseColorFactor: [0.8, 0.6, 0.4, 1], metallicFactor: 0 } };
  images.forEach((_, i) => {
    const slot = slots[i % slots.length]!;
    if (slot === 'baseColorTexture') (material.pbrMetallicRoughness as Record<string, unknown>)[slot] = { index: i };
    else material[slot] = { index: i };
  });
  const json = {
    asset: { version: '2.0', generator: 'traversa hostile-scan test' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'corner' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, TEXCOORD_0: 1 }, indices: 2, material: 0 }] }],
    materials: [material],
    ...(images.length
      ? {
          images: images.map((u) => ({ uri: u })),
          textures: images.map((_, i) => ({ source: i })),
        }
      : {}),
    buffers: [{ uri, byteLength: c.bin.byteLength }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: c.positions },
      { buffer: 0, byteOffset: c.positions, byteLength: c.uvs },
      { buffer: 0, byteOffset: c.positions + c.uvs, byteLength: c.indices },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 8, type: 'VEC3', min: [0, 0, 0], max: [2, 2, 2] },
      { bufferView: 1, componentType: 5126, count: 8, type: 'VEC2' },
      { bufferView: 2, componentType: 5123, count: 12, type: 'SCALAR' },
    ],
  };
  return { gltf: JSON.stringify(json, null, 1), bin: c.bin };
}

/** A local HTTP server that answers 404 to everything and remembers what it was asked. */
export interface Tattletale {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Host and port alone, for protocol-relative references. */
  host: string;
  requests: string[];
  close(): Promise<void>;
}

export async function tattletale(): Promise<Tattletale> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404, { 'access-control-allow-origin': '*' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
