import {
  ClampToEdgeWrapping,
  CompressedTexture,
  DataTexture,
  LinearFilter,
  LinearMipmapLinearFilter,
  LinearMipmapNearestFilter,
  Matrix3,
  Mesh,
  MeshBasicMaterial,
  MirroredRepeatWrapping,
  NearestFilter,
  NearestMipmapLinearFilter,
  NearestMipmapNearestFilter,
  RGBAFormat,
  RepeatWrapping,
  UnsignedByteType,
  type CompressedPixelFormat,
  type Material,
  type MeshStandardMaterial,
  type Texture,
  type WebGLRenderer,
} from 'three';
import type { GLTFLoaderPlugin, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { basisTranscoderFiles } from './basisSource.ts';
import type { GpuSupport, TranscodedImage } from './basisTranscode.ts';
import { MeshLoadError, describe } from './errors.ts';
import type { SideFiles } from './files.ts';
import { handleParseRequest } from './parseHandler.ts';
import { runJob, type WorkerFactory } from './workerClient.ts';

/**
 * GOOGLE_texture_basis: the pre-KTX2 way of putting Basis Universal textures in glTF, used by
 * Habitat's HM3D `*.basis.glb` scans. A texture names a raw `.basis` image (`image/x-basis`) in
 * `extensions.GOOGLE_texture_basis.source`. three's GLTFLoader does not know the extension, so
 * this plugin transcodes the images (all in one job in the parse worker) and builds the textures.
 */
export const GOOGLE_TEXTURE_BASIS = 'GOOGLE_texture_basis';

/** Marks textures whose image is stored bottom row first (see flipBottomUp). */
const BOTTOM_UP = 'traversaBottomRowFirst';

export interface BasisPluginOptions {
  file: string;
  sides: SideFiles;
  /** Images whose file was not given (already warned about): their textures are left out. */
  missing: Set<number>;
  support: GpuSupport | null;
  createWorker: WorkerFactory;
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** Textures made (freed by the caller if the load fails after all). */
  made: Texture[];
  /** The span transcoding took, for the load's texture timing. */
  timed: (start: number, end: number) => void;
  warn: (warning: string) => void;
}

interface ImageDef {
  uri?: string;
  bufferView?: number;
  name?: string;
  mimeType?: string;
}
interface TextureDef {
  sampler?: number;
  name?: string;
  extensions?: { [GOOGLE_TEXTURE_BASIS]?: { source?: unknown } };
}

/** Which compressed formats the GPU takes, asked the way three's KTX2Loader.detectSupport asks. */
export function gpuSupport(renderer: WebGLRenderer | null): GpuSupport | null {
  if (!renderer) return null;
  const has = (e: string) => renderer.extensions.has(e);
  const support: GpuSupport = {
    astc: has('WEBGL_compressed_texture_astc'),
    bptc: has('EXT_texture_compression_bptc'),
    s3tc: has('WEBGL_compressed_texture_s3tc'),
    etc2: has('WEBGL_compressed_texture_etc'),
    etc1: has('WEBGL_compressed_texture_etc1'),
    pvrtc: has('WEBGL_compressed_texture_pvrtc') || has('WEBKIT_WEBGL_compressed_texture_pvrtc'),
  };
  // KTX2Loader's rule: desktop Linux drivers advertise ASTC and ETC that they decompress in software.
  if (
    typeof navigator !== 'undefined' &&
    /Linux/.test(navigator.platform ?? '') &&
    !/Android/.test(navigator.userAgent ?? '') &&
    support.astc &&
    support.etc2 &&
    support.bptc &&
    support.s3tc
  ) {
    support.astc = false;
    support.etc1 = false;
    support.etc2 = false;
  }
  return support;
}

export function googleTextureBasis(parser: GLTFParser, o: BasisPluginOptions): GLTFLoaderPlugin {
  const json = parser.json as {
    images?: ImageDef[];
    textures?: TextureDef[];
    bufferViews?: { buffer: number; byteOffset?: number; byteLength: number }[];
    samplers?: Record<string, number>[];
  };
  const images = json.images ?? [];
  const label = (i: number) => {
    const name = images[i]?.name ?? (images[i]?.uri && !/^data:/i.test(images[i].uri) ? images[i].uri : undefined);
    return `image ${i}${name ? ` (${name})` : ''}`;
  };
  const transcoded = new Map<number, TranscodedImage>();

  async function bytesOf(i: number): Promise<ArrayBuffer> {
    const def = images[i]!;
    if (def.bufferView !== undefined) {
      const view = json.bufferViews?.[def.bufferView];
      if (!view) throw new MeshLoadError(o.file, `${label(i)} names buffer view ${def.bufferView}, which the file does not have`);
      const buffer = (await parser.getDependency('buffer', view.buffer)) as ArrayBuffer;
      const start = view.byteOffset ?? 0;
      // A copy of the image's bytes, which the worker may take over.
      return buffer.slice(start, start + view.byteLength);
    }
    const uri = def.uri ?? '';
    if (/^data:/i.test(uri)) return (await fetch(uri)).arrayBuffer();
    const side = o.sides.find(uri);
    if (!side) throw new MeshLoadError(o.file, `references ${uri}, which was not provided (add it next to ${o.file})`);
    return side.data instanceof ArrayBuffer ? side.data.slice(0) : side.data.arrayBuffer();
  }

  return {
    name: GOOGLE_TEXTURE_BASIS,

    async beforeRoot() {
      const wanted = new Set<number>();
      (json.textures ?? []).forEach((t, k) => {
        const source = t.extensions?.[GOOGLE_TEXTURE_BASIS]?.source;
        if (source === undefined) return;
        if (typeof source !== 'number' || !images[source])
          throw new MeshLoadError(o.file, `texture ${k} names Basis image ${String(source)}, which the file does not have`);
        if (!o.missing.has(source)) wanted.add(source);
      });
      if (!wanted.size) return;
      const start = performance.now();
      let transcoder;
      try {
        transcoder = await basisTranscoderFiles();
      } catch (err) {
        o.warn(`${o.file}: its ${wanted.size} Basis textures were left out: the Basis transcoder could not be loaded (${describe(err)})`);
        return;
      }
      const list = await Promise.all([...wanted].map(async (index) => ({ index, label: label(index), data: await bytesOf(index) })));
      const { result } = await runJob({
        kind: 'parse',
        file: o.file,
        doing: 'transcoding its Basis textures',
        handler: handleParseRequest,
        payload: { format: 'basis', file: o.file, transcoder, support: o.support, images: list },
        transfer: list.map((i) => i.data),
        timeoutMs: o.timeoutMs,
        createWorker: o.createWorker,
        ...(o.signal ? { signal: o.signal } : {}),
        ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      });
      if (result.format !== 'basis') throw new Error('the parse worker answered a Basis job with something else');
      for (const img of result.images) transcoded.set(img.index, img);
      o.timed(start, performance.now());
    },

    loadTexture(textureIndex: number) {
      const def = json.textures?.[textureIndex];
      const source = def?.extensions?.[GOOGLE_TEXTURE_BASIS]?.source;
      if (typeof source !== 'number') return null;
      const img = transcoded.get(source);
      // Not provided, or no transcoder: the material goes without this texture (already warned about).
      if (!img) return Promise.resolve(null) as unknown as Promise<Texture>;
      const texture = makeTexture(img, json.samplers?.[def!.sampler ?? -1] ?? {});
      texture.name = def!.name ?? images[source]?.name ?? images[source]?.uri ?? '';
      parser.associations.set(texture, { textures: textureIndex, materials: undefined, meshes: undefined });
      o.made.push(texture);
      return Promise.resolve(texture);
    },

    async afterRoot(gltf) {
      const flipped = new Set<Texture>();
      const unlit = new Map<Material, Material>();
      for (const scene of gltf.scenes) {
        scene.traverse((obj) => {
          if (!(obj instanceof Mesh)) return;
          const list: Material[] = Array.isArray(obj.material) ? obj.material : [obj.material];
          for (const m of list)
            for (const t of texturesOf(m))
              if (t.userData[BOTTOM_UP] && !flipped.has(t)) {
                flipBottomUp(t);
                flipped.add(t);
              }
          const swapped = list.map((m) => (isBasisTextured(m) ? (unlit.get(m) ?? remember(unlit, m, asUnlit(m as MeshStandardMaterial))) : m));
          obj.material = Array.isArray(obj.material) ? swapped : swapped[0]!;
        });
      }
      for (const old of unlit.keys()) old.dispose();
    },
  };
}

const FILTERS: Record<number, number> = {
  9728: NearestFilter,
  9729: LinearFilter,
  9984: NearestMipmapNearestFilter,
  9985: LinearMipmapNearestFilter,
  9986: NearestMipmapLinearFilter,
  9987: LinearMipmapLinearFilter,
};
const WRAPS: Record<number, number> = { 33071: ClampToEdgeWrapping, 33648: MirroredRepeatWrapping, 10497: RepeatWrapping };

function makeTexture(img: TranscodedImage, sampler: Record<string, number>): Texture {
  const texture = img.compressed
    ? new CompressedTexture(img.mipmaps as unknown as ImageData[], img.width, img.height, img.format as CompressedPixelFormat, UnsignedByteType)
    : new DataTexture(img.mipmaps[0]!.data, img.width, img.height, RGBAFormat, UnsignedByteType);
  if (!img.compressed && img.mipmaps.length > 1) texture.mipmaps = img.mipmaps as unknown as ImageData[];
  texture.magFilter = (FILTERS[sampler.magFilter ?? -1] ?? LinearFilter) as typeof texture.magFilter;
  let minFilter = (FILTERS[sampler.minFilter ?? -1] ?? LinearMipmapLinearFilter) as typeof texture.minFilter;
  const wantsMips = minFilter !== NearestFilter && minFilter !== LinearFilter;
  // A compressed texture cannot have mip levels made for it; with one level it must not sample them.
  if (wantsMips && img.mipmaps.length === 1 && img.compressed) minFilter = LinearFilter;
  texture.minFilter = minFilter;
  texture.generateMipmaps = wantsMips && img.mipmaps.length === 1 && !img.compressed;
  texture.wrapS = (WRAPS[sampler.wrapS ?? -1] ?? RepeatWrapping) as typeof texture.wrapS;
  texture.wrapT = (WRAPS[sampler.wrapT ?? -1] ?? RepeatWrapping) as typeof texture.wrapT;
  texture.flipY = false;
  texture.userData.mimeType = 'image/x-basis';
  texture.userData[BOTTOM_UP] = true;
  texture.needsUpdate = true;
  return texture;
}

/** v → 1 − v, as a UV transform (three applies it in the shader: uv' = M · (u, v, 1)). */
const FLIP_V = new Matrix3().set(1, 0, 0, 0, -1, 1, 0, 0, 1);

/**
 * HM3D's Basis images are stored bottom row first (Habitat's renderer wants them so), while glTF
 * UVs put v = 0 at the image's first row: drawn as they are, every triangle samples its patch of
 * the atlas upside down and from the wrong place. The fix is v → 1 − v for the lookups into these
 * textures only, as the texture's UV transform:
 * - rows cannot simply be reversed in block-compressed formats (BC7, ETC, ASTC…: a row of texels
 *   is inside 4×4 blocks), and WebGL ignores `flipY` for them, so flipping the data works only for
 *   the RGBA fallback; the transform is right whatever GPU format the image became;
 * - editing the UV attribute instead would also move every other texture that shares those UVs,
 *   and geometry and accessors are shared between primitives and materials in glTF;
 * - the transform composes with KHR_texture_transform (applied first, as glTF defines it).
 */
export function flipBottomUp(t: Texture): void {
  if (t.matrixAutoUpdate) t.updateMatrix();
  t.matrix.premultiply(FLIP_V);
  t.matrixAutoUpdate = false;
  t.userData[BOTTOM_UP] = false;
}

function texturesOf(m: Material): Texture[] {
  return Object.values(m).filter((v): v is Texture => !!v && (v as Texture).isTexture === true);
}

const isBasisTextured = (m: Material) => (m as MeshStandardMaterial).map?.userData.mimeType === 'image/x-basis';

/**
 * HM3D textures are photographs with the room's light baked in; Habitat draws them unlit, as this
 * app draws coloured PLY scans. Lighting them again darkens and double-shades them (and glTF's
 * default metalness of 1 would turn them near black without an environment map). They are
 * display colours already, so the renderer's tone mapping (made for lit, HDR scenes) stays off them.
 */
function asUnlit(m: MeshStandardMaterial): MeshBasicMaterial {
  const basic = new MeshBasicMaterial({
    name: m.name,
    color: m.color,
    map: m.map,
    alphaMap: m.alphaMap,
    aoMap: m.aoMap,
    aoMapIntensity: m.aoMapIntensity,
    opacity: m.opacity,
    transparent: m.transparent,
    alphaTest: m.alphaTest,
    side: m.side,
    vertexColors: m.vertexColors,
    depthWrite: m.depthWrite,
    toneMapped: false,
  });
  basic.userData = { ...m.userData };
  return basic;
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.set(key, value);
  return value;
}
