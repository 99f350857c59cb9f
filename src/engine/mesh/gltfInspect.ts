import { MeshLoadError } from './errors.ts';
import type { SideFiles } from './files.ts';
import { capWarnings, notPicked, refKind } from './refs.ts';
import { append } from '../../core/arrays.ts';

/** The parts of a glTF document the checks below read. */
interface GltfJson {
  asset?: { version?: unknown };
  buffers?: { uri?: string; byteLength?: number; extensions?: Record<string, { fallback?: boolean } | undefined> }[];
  images?: { uri?: string; bufferView?: number }[];
  extensionsUsed?: string[];
  extensionsRequired?: string[];
}

export interface GltfFacts {
  draco: boolean;
  basisu: boolean;
  /** Habitat's (HM3D's) older Basis extension: raw .basis images (see basisTextures.ts). */
  googleBasis: boolean;
  meshopt: boolean;
  /** Image count (textures the file may decode). */
  images: number;
  /** Images whose file was not given, or whose uri is an address (already warned about): never requested. */
  missingImages: Set<number>;
  warnings: string[];
}

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
/** What three 0.187's GLTFLoader reads (its EXTENSIONS table) and our plugins add, for a clearer refusal than its own. */
const SUPPORTED_REQUIRED = new Set([
  'KHR_draco_mesh_compression',
  'KHR_texture_basisu',
  'EXT_meshopt_compression',
  'KHR_meshopt_compression',
  'KHR_mesh_quantization',
  'KHR_texture_transform',
  'KHR_materials_unlit',
  'KHR_materials_emissive_strength',
  'KHR_materials_ior',
  'KHR_materials_specular',
  'KHR_materials_transmission',
  'KHR_materials_volume',
  'KHR_materials_clearcoat',
  'KHR_materials_sheen',
  'KHR_materials_iridescence',
  'KHR_materials_anisotropy',
  'KHR_materials_dispersion',
  'KHR_materials_diffuse_roughness',
  'EXT_materials_bump',
  'KHR_lights_punctual',
  'EXT_texture_webp',
  'EXT_texture_avif',
  'EXT_mesh_gpu_instancing',
  // Not three's, ours: basisTextures.ts.
  'GOOGLE_texture_basis',
]);

/**
 * Check a .glb/.gltf before GLTFLoader sees it, so broken or incomplete files fail with a sentence
 * naming the file at fault (GLTFLoader would say "Unexpected token" or fetch a URL that is not there).
 */
export function inspectGltf(file: string, format: 'glb' | 'gltf', data: ArrayBuffer, sides: SideFiles): GltfFacts {
  const { json, binLength } = format === 'glb' ? readGlb(file, data) : { json: parseJson(file, new TextDecoder().decode(data)), binLength: 0 };
  const version = String(json.asset?.version ?? '');
  if (!version.startsWith('2'))
    throw new MeshLoadError(file, version ? `is glTF ${version}; only glTF 2.0 is supported` : 'is not a glTF 2.0 file (no asset.version)');

  const unsupported = (json.extensionsRequired ?? []).filter((e) => !SUPPORTED_REQUIRED.has(e));
  if (unsupported.length) throw new MeshLoadError(file, `requires glTF extensions this app cannot read: ${unsupported.join(', ')}`);

  (json.buffers ?? []).forEach((b, i) => {
    const need = b.byteLength ?? 0;
    if (b.uri !== undefined && typeof b.uri !== 'string') throw new MeshLoadError(file, `buffers[${i}].uri is not a string`);
    // Geometry cannot be left out the way a texture can: a buffer at an address refuses the scan.
    if (b.uri !== undefined && refKind(b.uri) === 'address')
      throw new MeshLoadError(file, `${notPicked(`buffers[${i}].uri`, b.uri)} (the scan needs it: put the file beside ${file} and pick it too, or embed it)`);
    // meshopt files keep an uncompressed "fallback" buffer with no data; decoders never read it.
    if (b.extensions?.EXT_meshopt_compression?.fallback || b.extensions?.KHR_meshopt_compression?.fallback) return;
    if (b.uri === undefined) {
      if (format !== 'glb' || i !== 0) throw new MeshLoadError(file, `buffer ${i} has no uri`);
      if (binLength < need)
        throw new MeshLoadError(file, `the file is truncated (its binary chunk has ${binLength.toLocaleString('en')} of ${need.toLocaleString('en')} bytes)`);
      return;
    }
    if (/^data:/i.test(b.uri)) return;
    const side = sides.find(b.uri);
    if (!side) throw new MeshLoadError(file, `references ${b.uri}, which was not provided (add it next to ${file})`);
    const size = side.data instanceof ArrayBuffer ? side.data.byteLength : side.data.size;
    if (size < need)
      throw new MeshLoadError(side.name, `the file is truncated (${size.toLocaleString('en')} of the ${need.toLocaleString('en')} bytes ${file} expects)`);
  });

  const warnings: string[] = [];
  const addresses: string[] = [];
  const missingImages = new Set<number>();
  (json.images ?? []).forEach((img, i) => {
    if (img.uri === undefined) return;
    if (typeof img.uri !== 'string') {
      missingImages.add(i);
      warnings.push(`${file}: images[${i}].uri is not a string (loaded without that texture)`);
      return;
    }
    const kind = refKind(img.uri);
    if (kind === 'data' || (kind === 'name' && sides.find(img.uri))) return;
    missingImages.add(i);
    if (kind === 'address') addresses.push(`${file}: ${notPicked(`images[${i}].uri`, img.uri)} (loaded without that texture)`);
    else warnings.push(`${file}: references ${img.uri}, which was not provided (loaded without that texture)`);
  });
  append(
    warnings,
    capWarnings(addresses, 5, (n) => `${file}: ${n} more images at addresses were left out too`),
  );
  const used = new Set([...(json.extensionsUsed ?? []), ...(json.extensionsRequired ?? [])]);
  return {
    draco: used.has('KHR_draco_mesh_compression'),
    basisu: used.has('KHR_texture_basisu'),
    googleBasis: used.has('GOOGLE_texture_basis'),
    meshopt: used.has('EXT_meshopt_compression') || used.has('KHR_meshopt_compression'),
    images: json.images?.length ?? 0,
    missingImages,
    warnings,
  };
}

function readGlb(file: string, data: ArrayBuffer): { json: GltfJson; binLength: number } {
  if (data.byteLength < 12) throw new MeshLoadError(file, `not a glTF binary (only ${data.byteLength} bytes)`);
  const view = new DataView(data);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw new MeshLoadError(file, 'not a glTF binary (bad magic bytes)');
  const version = view.getUint32(4, true);
  if (version !== 2) throw new MeshLoadError(file, `is a glTF ${version} binary; only glTF 2.0 is supported`);
  const length = view.getUint32(8, true);
  if (length > data.byteLength)
    throw new MeshLoadError(file, `the file is truncated (${data.byteLength.toLocaleString('en')} of ${length.toLocaleString('en')} bytes)`);
  let json: GltfJson | null = null;
  let binLength = 0;
  for (let at = 12; at + 8 <= length;) {
    const size = view.getUint32(at, true);
    const type = view.getUint32(at + 4, true);
    if (at + 8 + size > length) throw new MeshLoadError(file, 'the file is truncated (a chunk runs past the end of the file)');
    if (type === CHUNK_JSON && !json) json = parseJson(file, new TextDecoder().decode(new Uint8Array(data, at + 8, size)));
    else if (type === CHUNK_BIN && !binLength) binLength = size;
    at += 8 + size;
  }
  if (!json) throw new MeshLoadError(file, 'not a valid glTF binary (no JSON chunk)');
  return { json, binLength };
}

function parseJson(file: string, text: string): GltfJson {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new MeshLoadError(file, `not valid glTF JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new MeshLoadError(file, 'not valid glTF JSON (not an object)');
  return json as GltfJson;
}
