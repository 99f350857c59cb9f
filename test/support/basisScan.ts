import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeToKTX2 } from 'ktx2-encoder';
import { quietly } from './meshFixtures.ts';
import { joinBytes } from '../../src/core/arrays.ts';

/**
 * A test scan built the way Habitat's HM3D `*.basis.glb` files are: glTF 2.0 whose texture names a
 * raw Basis Universal image (`.basis`, `image/x-basis`, ETC1S with mip levels) through
 * `extensions.GOOGLE_texture_basis.source` (required), the image stored bottom row first.
 *
 * The scan is one 2 × 2 m floor quad at y = 0 (Y up, metres), facing up, from (0, 0, 0) to
 * (2, 0, 2), with u = x / 2 and v = z / 2. Its texture is four coloured quadrants, so a texture
 * drawn upside down (or mirrored) puts the wrong colour in a known place.
 */

export type Rgb = [number, number, number];

/** The picture as a person sees it: its top row is where glTF's v = 0 is. */
export const QUADRANT_COLOURS = {
  topLeft: [220, 40, 40] as Rgb, // red
  topRight: [40, 170, 60] as Rgb, // green
  bottomLeft: [40, 80, 220] as Rgb, // blue
  bottomRight: [235, 205, 40] as Rgb, // yellow
};

export const BASIS_FLOOR_SIZE = 2;

/**
 * Where each quadrant must appear on the floor (scan frame): the picture's top-left (u, v < 0.5)
 * covers x, z < 1, and so on. Points are quadrant centres.
 */
export const QUADRANT_SPOTS: { name: keyof typeof QUADRANT_COLOURS; at: { x: number; y: number; z: number } }[] = [
  { name: 'topLeft', at: { x: 0.5, y: 0, z: 0.5 } },
  { name: 'topRight', at: { x: 1.5, y: 0, z: 0.5 } },
  { name: 'bottomLeft', at: { x: 0.5, y: 0, z: 1.5 } },
  { name: 'bottomRight', at: { x: 1.5, y: 0, z: 1.5 } },
];

export const TEXTURE_SIZE = 64;

/** The quadrant picture as RGBA, top row first (the usual raster order). */
export function quadrantsRgba(size = TEXTURE_SIZE): Uint8Array {
  const rgba = new Uint8Array(size * size * 4);
  const half = size / 2;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const c =
        y < half ? (x < half ? QUADRANT_COLOURS.topLeft : QUADRANT_COLOURS.topRight) : x < half ? QUADRANT_COLOURS.bottomLeft : QUADRANT_COLOURS.bottomRight;
      rgba.set([...c, 255], (y * size + x) * 4);
    }
  return rgba;
}

/**
 * A raw `.basis` file (not KTX2, despite the function's name: ktx2-encoder's `isKTX2File: false`
 * switches basis_universal's encoder to its own .basis container) of `rgba`, whose rows are stored bottom first as HM3D's are. The
 * rows are reversed here rather than with the encoder's y-flip, so the header's y-flipped flag stays
 * clear: the loader must not depend on that flag.
 */
export async function encodeBasisBottomUp(rgba: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const bottomUp = new Uint8Array(rgba.length);
  for (let y = 0; y < height; y++) bottomUp.set(rgba.subarray((height - 1 - y) * width * 4, (height - y) * width * 4), y * width * 4);
  return quietly(() =>
    encodeToKTX2(bottomUp, {
      isKTX2File: false,
      isUASTC: false,
      generateMipmap: true,
      isYFlip: false,
      enableDebug: false,
      imageDecoder: async () => ({ width, height, data: bottomUp }),
    }),
  );
}

export interface BasisScanOptions {
  /** Replace the image's data after its header with noise (the header still says .basis). */
  corrupt?: boolean;
  /** Write a .gltf with the image as a separate `quadrants.basis` beside it, instead of one .glb. */
  separate?: boolean;
}

/** Write the test scan; returns the files to load, main file first. */
export async function writeBasisScan(dir: string, options: BasisScanOptions = {}): Promise<{ main: string; files: string[] }> {
  mkdirSync(dir, { recursive: true });
  let image = await encodeBasisBottomUp(quadrantsRgba(), TEXTURE_SIZE, TEXTURE_SIZE);
  if (options.corrupt) {
    image = image.slice();
    let seed = 115;
    for (let i = 80; i < image.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      image[i] = seed >>> 24;
    }
  }
  const S = BASIS_FLOOR_SIZE;
  const positions = new Float32Array([0, 0, 0, S, 0, 0, S, 0, S, 0, 0, S]);
  const uvs = new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]);
  const indices = new Uint16Array([0, 3, 2, 0, 2, 1]); // counter-clockwise seen from above: facing up
  const chunks: Uint8Array[] = [];
  const views: { buffer: 0; byteOffset: number; byteLength: number; target?: number }[] = [];
  let at = 0;
  const add = (bytes: Uint8Array, target?: number) => {
    views.push({ buffer: 0, byteOffset: at, byteLength: bytes.byteLength, ...(target ? { target } : {}) });
    const padded = new Uint8Array(Math.ceil(bytes.byteLength / 4) * 4);
    padded.set(bytes);
    chunks.push(padded);
    at += padded.byteLength;
    return views.length - 1;
  };
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  add(bytes(positions), 34962);
  add(bytes(uvs), 34962);
  add(bytes(indices), 34963);
  const imageDef = options.separate
    ? { uri: 'quadrants.basis', mimeType: 'image/x-basis' }
    : { bufferView: add(image), mimeType: 'image/x-basis', name: 'quadrants' };
  const bin = joinBytes(chunks);
  const json = {
    asset: { version: '2.0', generator: 'traversa test support: HM3D-style GOOGLE_texture_basis scan' },
    extensionsUsed: ['GOOGLE_texture_basis'],
    extensionsRequired: ['GOOGLE_texture_basis'],
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'floor' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, TEXCOORD_0: 1 }, indices: 2, material: 0 }] }],
    materials: [{ name: 'quadrants', pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 1 } }],
    textures: [{ sampler: 0, extensions: { GOOGLE_texture_basis: { source: 0 } } }],
    images: [imageDef],
    samplers: [{ magFilter: 9729, minFilter: 9987, wrapS: 10497, wrapT: 10497 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: 'VEC3', min: [0, 0, 0], max: [S, 0, S] },
      { bufferView: 1, componentType: 5126, count: 4, type: 'VEC2' },
      { bufferView: 2, componentType: 5123, count: 6, type: 'SCALAR' },
    ],
    bufferViews: views,
    buffers: [{ byteLength: bin.byteLength, ...(options.separate ? { uri: 'floor.bin' } : {}) }],
  };
  const name = options.corrupt ? 'floor-corrupt' : 'floor';
  if (options.separate) {
    const main = join(dir, `${name}.gltf`);
    writeFileSync(main, JSON.stringify(json));
    writeFileSync(join(dir, 'floor.bin'), bin);
    writeFileSync(join(dir, 'quadrants.basis'), image);
    return { main, files: [main, join(dir, 'floor.bin'), join(dir, 'quadrants.basis')] };
  }
  const main = join(dir, `${name}.basis.glb`);
  writeFileSync(main, glb(json, bin));
  return { main, files: [main] };
}

/** A glTF binary: 12-byte header, the JSON chunk (space-padded), the BIN chunk (zero-padded). */
function glb(json: object, bin: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonChunk = new Uint8Array(Math.ceil(text.byteLength / 4) * 4).fill(0x20);
  jsonChunk.set(text);
  const total = 12 + 8 + jsonChunk.byteLength + 8 + bin.byteLength;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonChunk.byteLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(jsonChunk, 20);
  const binAt = 20 + jsonChunk.byteLength;
  view.setUint32(binAt, bin.byteLength, true);
  view.setUint32(binAt + 4, 0x004e4942, true);
  out.set(bin, binAt + 8);
  return out;
}
