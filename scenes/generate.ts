/**
 * `npm run scenes` — writes the bundled sample scene to scenes/sample-house/:
 *   house.glb, agent_profile.json, graphs/, qa/, traverse/ (the CapNav release layout, written by
 *   the project's own writer) and features.json (each edge's obstacle, see src/core/sample/features.ts).
 * `npm run scenes -- --large` writes scenes/generated-large/house-1m.glb (about a million
 * triangles, git-ignored) and prints its triangle count.
 * `npm run scenes -- --scan-like [variant] [--seed N]` writes the sample house rewritten as a
 * reconstruction looks (src/core/sample/scanLike/: dense, noisy, holed, wound either way, cluttered;
 * `all` by default) to scenes/generated-scanlike/house-<variant>.glb (git-ignored), beside the
 * graph and agents of scenes/sample-house/, which it shares.
 *
 * Output is byte-for-byte deterministic: no clock, no random numbers, fixed label timestamps.
 * test/unit/core/sample/sampleHouse.test.ts regenerates the files in memory and compares them with the
 * committed ones, so the committed scene cannot go stale.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as THREE from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import { GROUP_NAMES, houseMesh, triangleCount, type SoupGroupName, type TriangleSoup } from '../src/core/sample/houseMesh.ts';
import { SAMPLE_HOUSE } from '../src/core/sample/houseSpec.ts';
import { scanLikeHouse, SCAN_VARIANT_NAMES, SCAN_VARIANTS, type ScanVariant } from '../src/core/sample/scanLike/index.ts';
import { buildSampleRelease } from '../src/core/sample/sampleRelease.ts';
import { writeRelease } from '../src/formats/capnav/write.ts';

export const SCENES_DIR = dirname(fileURLToPath(import.meta.url));
export const SAMPLE_DIR = join(SCENES_DIR, 'sample-house');
export const LARGE_FILE = join(SCENES_DIR, 'generated-large', 'house-1m.glb');
/** The scan-like sample house of a variant (`npm run scenes -- --scan-like <variant>`). */
export const scanLikeFile = (variant: ScanVariant, seed = 1): string =>
  join(SCENES_DIR, 'generated-scanlike', `house-${variant}${seed === 1 ? '' : `-seed${seed}`}.glb`);
/** Subdivisions per metre that bring the house to about 1,000,000 triangles. */
export const LARGE_DETAIL = 17.8;

/**
 * Distinct colours per group, so floors, walls, sills, stairs, the closed door, the lift and the
 * scan-like variants' furniture read apart: wood, off-white, dark wood, oak, blue-grey, steel,
 * walnut. Linear RGB, as glTF vertex colours are, written as numbers rather than converted from
 * sRGB hex at run time so that no pow() sits between this source and the committed bytes.
 */
const GROUP_COLOURS: Record<SoupGroupName, [number, number, number]> = {
  furniture: [0.35, 0.2, 0.12],
  floor: [0.434, 0.266, 0.144],
  wall: [0.791, 0.753, 0.687],
  sill: [0.102, 0.044, 0.016],
  stair: [0.584, 0.366, 0.159],
  'door-leaf': [0.078, 0.159, 0.275],
  lift: [0.262, 0.314, 0.371],
};

/**
 * GLTFExporter's binary mode reads its Blobs with FileReader, which Node lacks; Blob itself is
 * there, so reading it through `blob.arrayBuffer()` is all the exporter needs.
 */
function installFileReaderShim(): void {
  if (typeof globalThis.FileReader !== 'undefined') return;
  class BlobReader {
    result: ArrayBuffer | null = null;
    onloadend: (() => void) | null = null;
    readAsArrayBuffer(blob: Blob): void {
      void blob.arrayBuffer().then((buffer) => {
        this.result = buffer;
        this.onloadend?.();
      });
    }
  }
  (globalThis as unknown as { FileReader: unknown }).FileReader = BlobReader;
}

/** One mesh per group, named after it, with the group's colour in every vertex. */
export function soupToScene(soup: TriangleSoup): THREE.Scene {
  const scene = new THREE.Scene();
  scene.name = 'sample-house';
  for (const group of soup.groups) {
    if (group.count === 0) continue;
    const indices = soup.indices.subarray(group.start, group.start + group.count);
    // The group's vertices are contiguous: rebase its indices onto them.
    let first = Infinity,
      last = -Infinity;
    for (const i of indices) {
      if (i < first) first = i;
      if (i > last) last = i;
    }
    const positions = soup.positions.slice(first * 3, (last + 1) * 3);
    const local = Uint32Array.from(indices, (i) => i - first);
    const [r, g, b] = GROUP_COLOURS[group.name];
    const colours = new Float32Array(positions.length);
    for (let v = 0; v < colours.length; v += 3) {
      colours[v] = r;
      colours[v + 1] = g;
      colours[v + 2] = b;
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
    geometry.setIndex(new THREE.BufferAttribute(local, 1));
    geometry.computeVertexNormals();
    const material = new THREE.MeshStandardMaterial({ name: group.name, vertexColors: true, roughness: 0.85, metalness: group.name === 'lift' ? 0.4 : 0 });
    const mesh = new THREE.Mesh(geometry, material);
    mesh.name = group.name;
    scene.add(mesh);
  }
  return scene;
}

export async function soupToGlb(soup: TriangleSoup): Promise<Uint8Array> {
  installFileReaderShim();
  const result = await new GLTFExporter().parseAsync(soupToScene(soup), { binary: true });
  if (!(result instanceof ArrayBuffer)) throw new Error('GLTFExporter did not return a binary glTF');
  return new Uint8Array(result);
}

export interface GeneratedFile {
  /** Relative to scenes/sample-house/. */
  path: string;
  bytes: Uint8Array;
}

/** Every file of scenes/sample-house/, in memory. */
export async function sampleHouseFiles(): Promise<GeneratedFile[]> {
  const release = buildSampleRelease(SAMPLE_HOUSE);
  const text = (s: string) => new TextEncoder().encode(s);
  const files: GeneratedFile[] = writeRelease({ profiles: release.profiles, scenes: [release.scene] }).map((f) => ({ path: f.path, bytes: text(f.text) }));
  files.push({ path: 'features.json', bytes: text(JSON.stringify(release.features, null, 2) + '\n') });
  files.push({ path: 'house.glb', bytes: await soupToGlb(houseMesh(SAMPLE_HOUSE)) });
  return files;
}

async function writeOut(path: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
}

/** Write the scan-like sample house of `variant`; its path. */
export async function writeScanLike(variant: ScanVariant, seed = 1): Promise<string> {
  const { soup, report } = scanLikeHouse(SAMPLE_HOUSE, SCAN_VARIANTS[variant], seed);
  const file = scanLikeFile(variant, seed);
  await writeOut(file, await soupToGlb(soup));
  console.log(
    `wrote ${file}: ${report.triangles} triangles (${variant}, seed ${seed}${report.holesRemoved ? `, ${report.holesRemoved} removed for holes` : ''}${report.flipped ? `, ${report.flipped} wound the other way` : ''})`,
  );
  return file;
}

async function main(args: string[]): Promise<void> {
  const at = args.indexOf('--scan-like');
  if (at >= 0) {
    const variant = (args[at + 1] && !args[at + 1]!.startsWith('--') ? args[at + 1] : 'all') as ScanVariant;
    if (!SCAN_VARIANT_NAMES.includes(variant)) throw new Error(`unknown scan-like variant "${variant}"; known: ${SCAN_VARIANT_NAMES.join(', ')}`);
    const s = args.indexOf('--seed');
    const seed = s >= 0 ? Number(args[s + 1]) : 1;
    if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number (got ${args[s + 1]})`);
    await writeScanLike(variant, seed);
    return;
  }
  if (args.includes('--large')) {
    const soup = houseMesh(SAMPLE_HOUSE, { detail: LARGE_DETAIL });
    await writeOut(LARGE_FILE, await soupToGlb(soup));
    console.log(`wrote ${LARGE_FILE}: ${triangleCount(soup)} triangles`);
    return;
  }
  for (const f of await sampleHouseFiles()) await writeOut(join(SAMPLE_DIR, f.path), f.bytes);
  const soup = houseMesh(SAMPLE_HOUSE);
  console.log(`wrote ${SAMPLE_DIR}: ${triangleCount(soup)} triangles in ${GROUP_NAMES.length} groups`);
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
