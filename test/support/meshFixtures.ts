import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { Document, Logger, NodeIO, type Texture } from '@gltf-transform/core';
import { ALL_EXTENSIONS, KHRTextureBasisu } from '@gltf-transform/extensions';
import { draco, meshopt, reorder } from '@gltf-transform/functions';
import { encodeToKTX2 } from 'ktx2-encoder';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { mulberry32 } from './random.ts';
import { append } from '../../src/core/arrays.ts';

/**
 * Test meshes written to disk for the loader and browser tests: every format path the loader has
 * (Draco, meshopt, KTX2/Basis glTF; binary and ASCII PLY; OBJ with MTL and a PNG; a corrupt file).
 * All show the same small room, Y up, in metres: a 4 × 3 m floor at y = 0 (a 4 × 3 grid of quads,
 * so compression has something to chew on), four 2.5 m walls facing in, and a 1 × 0.6 m table top at
 * y = 0.75. PLY and OBJ copies are Z up, as scans in those formats usually are.
 */

export interface Room {
  positions: number[];
  uvs: number[];
  indices: number[];
  colors: number[];
}

export const ROOM = { width: 4, depth: 3, wall: 2.5, table: 0.75 } as const;

/** The room's triangles, Y up; `colors` are 0..255 RGB per vertex (floor wood, walls white, table dark). */
export function roomMesh(): Room {
  const r: Room = { positions: [], uvs: [], indices: [], colors: [] };
  const quad = (corner: number[], u: number[], v: number[], color: number[]) => {
    const base = r.positions.length / 3;
    for (const [a, b] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ] as const) {
      r.positions.push(corner[0]! + a * u[0]! + b * v[0]!, corner[1]! + a * u[1]! + b * v[1]!, corner[2]! + a * u[2]! + b * v[2]!);
      r.uvs.push(a, b);
      append(r.colors, color);
    }
    r.indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  };
  const { width: W, depth: D, wall: H, table: T } = ROOM;
  // Floor: u × v must point up (+Y) for the winding to face up: u = +Z, v = +X.
  for (let i = 0; i < 4; i++) for (let j = 0; j < 3; j++) quad([i, 0, j], [0, 0, 1], [1, 0, 0], [176, 128, 80]);
  quad([0, 0, 0], [W, 0, 0], [0, H, 0], [235, 235, 230]); // z = 0 wall, facing +Z
  quad([W, 0, D], [-W, 0, 0], [0, H, 0], [235, 235, 230]); // z = D wall, facing −Z
  quad([0, 0, D], [0, 0, -D], [0, H, 0], [235, 235, 230]); // x = 0 wall, facing +X
  quad([W, 0, 0], [0, 0, D], [0, H, 0], [235, 235, 230]); // x = W wall, facing −X
  quad([1.5, T, 1.2], [0, 0, 0.6], [1, 0, 0], [60, 40, 30]); // table top, facing up
  return r;
}

/** Y-up room positions turned Z up (x, y, z) → (x, −z, y), the inverse of the loader's Z-up frame. */
const zUp = (p: number[]) => p.flatMap((_, i) => (i % 3 === 0 ? [p[i]!, 0 - p[i + 2]!, p[i + 1]!] : [])); // 0 − z: no −0 in files

async function io(): Promise<NodeIO> {
  // draco3dgltf ships no types; its factory functions are all that is used.
  const draco3d = (await import('draco3dgltf' as string)) as { default: { createEncoderModule(): Promise<unknown>; createDecoderModule(): Promise<unknown> } };
  await MeshoptEncoder.ready;
  await MeshoptDecoder.ready;
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
    'draco3d.encoder': await draco3d.default.createEncoderModule(),
    'draco3d.decoder': await draco3d.default.createDecoderModule(),
    'meshopt.encoder': MeshoptEncoder,
    'meshopt.decoder': MeshoptDecoder,
  });
}

/** A glTF document holding the room, optionally with a base-colour texture. */
function roomDocument(texture?: (doc: Document) => Texture): Document {
  const doc = new Document().setLogger(new Logger(Logger.Verbosity.WARN));
  const buffer = doc.createBuffer();
  const room = roomMesh();
  const accessor = (array: Float32Array | Uint32Array, type: 'VEC3' | 'VEC2' | 'SCALAR') =>
    doc.createAccessor().setArray(array).setType(type).setBuffer(buffer);
  const material = doc.createMaterial('room').setBaseColorFactor([1, 1, 1, 1]);
  if (texture) material.setBaseColorTexture(texture(doc));
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor(new Float32Array(room.positions), 'VEC3'))
    .setAttribute('TEXCOORD_0', accessor(new Float32Array(room.uvs), 'VEC2'))
    .setIndices(accessor(new Uint32Array(room.indices), 'SCALAR'))
    .setMaterial(material);
  const mesh = doc.createMesh('room').addPrimitive(prim);
  // A node transform the loader must keep on the render object and bake into the collision mesh.
  const node = doc.createNode('room').setMesh(mesh).setTranslation([0.5, 0, -0.25]);
  doc.createScene('scene').addChild(node);
  return doc;
}

/** A Draco-compressed GLB (KHR_draco_mesh_compression, required). */
export async function writeDracoGlb(dir: string): Promise<{ glb: string }> {
  const doc = roomDocument();
  await doc.transform(draco({ method: 'edgebreaker' }));
  const glb = join(mkdir(dir), 'room-draco.glb');
  await (await io()).write(glb, doc);
  return { glb };
}

/** A meshopt-compressed GLB (EXT_meshopt_compression plus KHR_mesh_quantization). */
export async function writeMeshoptGlb(dir: string): Promise<{ glb: string }> {
  const doc = roomDocument();
  await doc.transform(reorder({ encoder: MeshoptEncoder }), meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  const glb = join(mkdir(dir), 'room-meshopt.glb');
  await (await io()).write(glb, doc);
  return { glb };
}

/**
 * A GLB whose base-colour texture is a real Basis Universal ETC1S KTX2 (KHR_texture_basisu,
 * required), encoded in Node by ktx2-encoder's bundled basis_encoder wasm. The .ktx2 is also
 * written on its own.
 */
export async function writeKtx2Glb(dir: string): Promise<{ glb: string; ktx2: string }> {
  const { width, height, rgba } = checkerRgba(16, 16);
  // The encoder wants an image decoder; handing it the raw pixels skips PNG altogether.
  const ktx = await quietly(() =>
    encodeToKTX2(rgba, { isUASTC: false, generateMipmap: false, enableDebug: false, imageDecoder: async () => ({ width, height, data: rgba }) }),
  );
  const doc = roomDocument((d) => d.createTexture('checker').setImage(ktx).setMimeType('image/ktx2'));
  doc.createExtension(KHRTextureBasisu).setRequired(true);
  const glb = join(mkdir(dir), 'room-ktx2.glb');
  await (await io()).write(glb, doc);
  const ktx2 = join(dir, 'checker.ktx2');
  writeFileSync(ktx2, ktx);
  return { glb, ktx2 };
}

/** A .gltf with its geometry in a separate .bin and a PNG texture beside it (side files by name). */
export async function writeGltfWithSides(dir: string): Promise<{ gltf: string; bin: string; png: string }> {
  const doc = roomDocument((d) =>
    d
      .createTexture('wood')
      .setImage(png(16, 16, checkerRgba(16, 16).rgba))
      .setMimeType('image/png')
      .setURI('wood.png'),
  );
  doc.getRoot().listBuffers()[0]!.setURI('room.bin');
  const gltf = join(mkdir(dir), 'room.gltf');
  await (await io()).write(gltf, doc);
  return { gltf, bin: join(dir, 'room.bin'), png: join(dir, 'wood.png') };
}

/** A PLY of the room, Z up, with per-vertex uchar RGB: binary little-endian or ASCII. */
export function writePly(dir: string, encoding: 'binary' | 'ascii'): { ply: string } {
  const room = roomMesh();
  const positions = zUp(room.positions);
  const vertices = positions.length / 3;
  const faces = room.indices.length / 3;
  const header = [
    'ply',
    `format ${encoding === 'binary' ? 'binary_little_endian' : 'ascii'} 1.0`,
    'comment traversa test room, Z up, metres',
    `element vertex ${vertices}`,
    'property float x',
    'property float y',
    'property float z',
    'property uchar red',
    'property uchar green',
    'property uchar blue',
    `element face ${faces}`,
    'property list uchar int vertex_indices',
    'end_header',
    '',
  ].join('\n');
  const ply = join(mkdir(dir), `room-${encoding}.ply`);
  if (encoding === 'ascii') {
    const lines: string[] = [];
    for (let v = 0; v < vertices; v++) lines.push(`${positions.slice(v * 3, v * 3 + 3).join(' ')} ${room.colors.slice(v * 3, v * 3 + 3).join(' ')}`);
    for (let f = 0; f < faces; f++) lines.push(`3 ${room.indices.slice(f * 3, f * 3 + 3).join(' ')}`);
    writeFileSync(ply, header + lines.join('\n') + '\n');
    return { ply };
  }
  const body = Buffer.alloc(vertices * 15 + faces * 13);
  let at = 0;
  for (let v = 0; v < vertices; v++) {
    for (let k = 0; k < 3; k++) at = body.writeFloatLE(positions[v * 3 + k]!, at);
    for (let k = 0; k < 3; k++) at = body.writeUInt8(room.colors[v * 3 + k]!, at);
  }
  for (let f = 0; f < faces; f++) {
    at = body.writeUInt8(3, at);
    for (let k = 0; k < 3; k++) at = body.writeInt32LE(room.indices[f * 3 + k]!, at);
  }
  writeFileSync(ply, Buffer.concat([Buffer.from(header, 'latin1'), body]));
  return { ply };
}

/** An OBJ (Z up) naming room.mtl, whose floor material maps wood.png; all three files written. */
export function writeObjWithMtl(dir: string): { obj: string; mtl: string; png: string } {
  const room = roomMesh();
  const p = zUp(room.positions);
  const lines = ['# traversa test room, Z up, metres', 'mtllib room.mtl', 'o room'];
  for (let i = 0; i < p.length; i += 3) lines.push(`v ${p[i]} ${p[i + 1]} ${p[i + 2]}`);
  for (let i = 0; i < room.uvs.length; i += 2) lines.push(`vt ${room.uvs[i]} ${room.uvs[i + 1]}`);
  const floorTriangles = 4 * 3 * 2;
  for (let f = 0; f < room.indices.length / 3; f++) {
    if (f === 0) lines.push('usemtl floor');
    if (f === floorTriangles) lines.push('usemtl wall');
    const c = room.indices.slice(f * 3, f * 3 + 3).map((i) => `${i + 1}/${i + 1}`);
    lines.push(`f ${c.join(' ')}`);
  }
  const obj = join(mkdir(dir), 'room.obj');
  writeFileSync(obj, lines.join('\n') + '\n');
  const mtl = join(dir, 'room.mtl');
  writeFileSync(mtl, ['newmtl floor', 'Kd 1 1 1', 'map_Kd wood.png', '', 'newmtl wall', 'Kd 0.9 0.9 0.88', ''].join('\n'));
  const pngPath = join(dir, 'wood.png');
  writeFileSync(pngPath, png(16, 16, checkerRgba(16, 16).rgba));
  return { obj, mtl, png: pngPath };
}

/** 4 KB of seeded random bytes named as a GLB. */
export function writeCorruptGlb(dir: string): { glb: string } {
  const rng = mulberry32(115);
  const glb = join(mkdir(dir), 'corrupt.glb');
  writeFileSync(
    glb,
    Uint8Array.from({ length: 4096 }, () => Math.floor(rng() * 256)),
  );
  return { glb };
}

/** Files on disk as `loadMesh` input, named by their base names (as a browser's file picker gives them). */
export function meshInput(...paths: string[]): { files: { name: string; data: Blob }[] } {
  return { files: paths.map((p) => ({ name: basename(p), data: new Blob([readFileSync(p)]) })) };
}

/** Every fixture above, in one directory. */
export async function writeAllMeshFixtures(dir: string) {
  return {
    draco: await writeDracoGlb(dir),
    meshopt: await writeMeshoptGlb(dir),
    ktx2: await writeKtx2Glb(dir),
    gltf: await writeGltfWithSides(dir),
    binaryPly: writePly(dir, 'binary'),
    asciiPly: writePly(dir, 'ascii'),
    obj: writeObjWithMtl(dir),
    corrupt: writeCorruptGlb(dir),
  };
}

let muted = false;

/**
 * The Basis encoder prints progress lines whatever its debug flag says, through a `console.log`
 * it binds when its wasm module starts (on the first encode). Binding it to this filter keeps
 * test output clean; outside an encode the filter passes everything on.
 */
export async function quietly<T>(encode: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (!muted) log(...args);
  };
  muted = true;
  try {
    return await encode();
  } finally {
    muted = false;
    console.log = log;
  }
}

function mkdir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

function checkerRgba(width: number, height: number): { width: number; height: number; rgba: Uint8Array } {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const light = ((x >> 2) + (y >> 2)) % 2 === 0;
      rgba.set(light ? [200, 160, 110, 255] : [120, 80, 50, 255], (y * width + x) * 4);
    }
  return { width, height, rgba };
}

/** A minimal RGBA8 PNG encoder (zlib from Node), so no image library is needed for fixtures. */
export function png(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
