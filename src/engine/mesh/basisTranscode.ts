import {
  RGBAFormat,
  RGBA_ASTC_4x4_Format,
  RGBA_BPTC_Format,
  RGBA_ETC2_EAC_Format,
  RGBA_PVRTC_4BPPV1_Format,
  RGBA_S3TC_DXT1_Format,
  RGBA_S3TC_DXT5_Format,
  RGB_ETC1_Format,
  RGB_ETC2_Format,
  RGB_PVRTC_4BPPV1_Format,
  type CompressedPixelFormat,
  type PixelFormat,
} from 'three';
import type { BasisTranscoderFiles } from './basisSource.ts';
import { MeshLoadError } from './errors.ts';
import type { Handled } from './workerProtocol.ts';

/** Compressed formats the GPU takes (asked on the page, where the renderer is); null: transcode to RGBA. */
export interface GpuSupport {
  astc: boolean;
  bptc: boolean;
  s3tc: boolean;
  etc2: boolean;
  etc1: boolean;
  pvrtc: boolean;
}

export interface BasisRequest {
  format: 'basis';
  /** The glTF file the images belong to, for error messages. */
  file: string;
  transcoder: BasisTranscoderFiles;
  support: GpuSupport | null;
  /** Raw `.basis` files; `label` names the image in messages ("image 2 (wall.basis)"). */
  images: { index: number; label: string; data: ArrayBuffer }[];
}

export interface TranscodedImage {
  index: number;
  width: number;
  height: number;
  /** A three.js format: RGBAFormat, or a compressed one the GPU takes. */
  format: PixelFormat | CompressedPixelFormat;
  compressed: boolean;
  hasAlpha: boolean;
  /** Level 0 first. */
  mipmaps: { data: Uint8Array; width: number; height: number }[];
}

/** The transcoder's embind classes that this file uses. */
interface BasisFile {
  getNumImages(): number;
  getNumLevels(image: number): number;
  getImageWidth(image: number, level: number): number;
  getImageHeight(image: number, level: number): number;
  getHasAlpha(): boolean;
  isUASTC(): boolean;
  isHDR?(): boolean;
  startTranscoding(): boolean | number;
  getImageTranscodedSizeInBytes(image: number, level: number, format: number): number;
  transcodeImage(dst: Uint8Array, image: number, level: number, format: number, unused: number, alphaForOpaque: number): boolean | number;
  close(): void;
  delete(): void;
}
interface BasisModule {
  BasisFile: new (data: Uint8Array) => BasisFile;
  initializeBasis(): void;
}

/** basis_universal's transcoder_texture_format numbers (as in KTX2Loader.TranscoderFormat). */
const TF = { ETC1: 0, ETC2: 1, BC1: 2, BC3: 3, BC7_M5: 7, PVRTC1_4_RGB: 8, PVRTC1_4_RGBA: 9, ASTC_4x4: 10, RGBA32: 13 } as const;

interface Target {
  tf: [number, number];
  format: [CompressedPixelFormat, CompressedPixelFormat];
  etc1s: number;
  uastc: number;
  pot?: boolean;
  opaqueOnly?: boolean;
}
/**
 * The GPU formats KTX2Loader picks from, in its order of preference per Basis mode (high-quality
 * block formats first); RGBA32 is the fallback when none is supported or the size does not suit.
 */
const TARGETS: (Target & { needs: keyof GpuSupport })[] = [
  { needs: 'astc', tf: [TF.ASTC_4x4, TF.ASTC_4x4], format: [RGBA_ASTC_4x4_Format, RGBA_ASTC_4x4_Format], etc1s: Infinity, uastc: 1 },
  { needs: 'bptc', tf: [TF.BC7_M5, TF.BC7_M5], format: [RGBA_BPTC_Format, RGBA_BPTC_Format], etc1s: 3, uastc: 2 },
  { needs: 's3tc', tf: [TF.BC1, TF.BC3], format: [RGBA_S3TC_DXT1_Format, RGBA_S3TC_DXT5_Format], etc1s: 4, uastc: 5 },
  { needs: 'etc2', tf: [TF.ETC1, TF.ETC2], format: [RGB_ETC2_Format, RGBA_ETC2_EAC_Format], etc1s: 1, uastc: 3 },
  { needs: 'etc1', tf: [TF.ETC1, TF.ETC1], format: [RGB_ETC1_Format, RGB_ETC1_Format], etc1s: 2, uastc: 4, opaqueOnly: true },
  { needs: 'pvrtc', tf: [TF.PVRTC1_4_RGB, TF.PVRTC1_4_RGBA], format: [RGB_PVRTC_4BPPV1_Format, RGBA_PVRTC_4BPPV1_Format], etc1s: 5, uastc: 6, pot: true },
];

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

function chooseTarget(
  support: GpuSupport | null,
  uastc: boolean,
  hasAlpha: boolean,
  width: number,
  height: number,
): { tf: number; format: PixelFormat | CompressedPixelFormat; compressed: boolean } {
  // Block formats need whole 4×4 blocks at level 0 (WebGL refuses others); RGBA has no such rule.
  if (support && width % 4 === 0 && height % 4 === 0) {
    const ranked = TARGETS.filter((t) => support[t.needs]).sort((a, b) => (uastc ? a.uastc - b.uastc : a.etc1s - b.etc1s));
    for (const t of ranked) {
      if (!Number.isFinite(uastc ? t.uastc : t.etc1s)) continue;
      if (hasAlpha && t.opaqueOnly) continue;
      if (t.pot && !(isPowerOfTwo(width) && isPowerOfTwo(height))) continue;
      const k = hasAlpha ? 1 : 0;
      return { tf: t.tf[k], format: t.format[k], compressed: true };
    }
  }
  return { tf: TF.RGBA32, format: RGBAFormat, compressed: false };
}

let loaded: { js: string; module: Promise<BasisModule> } | null = null;

/** The transcoder module, started once per thread (a worker does one job; Node and the page reuse it). */
function basisModule(files: BasisTranscoderFiles): Promise<BasisModule> {
  if (loaded?.js !== files.js) {
    // The wrapper is a classic script that defines `BASIS`. Shadowing `process` and `require` keeps
    // it off its Node code path, which would look for files: the wasm bytes are handed over instead.
    const factory = new Function('process', 'require', `${files.js}\nreturn BASIS;`)(undefined, undefined) as (m: object) => Promise<BasisModule>;
    const module = factory({ wasmBinary: files.wasm }).then((m) => {
      m.initializeBasis();
      return m;
    });
    loaded = { js: files.js, module };
  }
  return loaded.module;
}

/**
 * Transcode raw Basis Universal (`.basis`) images to a GPU format (or RGBA), every mip level. Runs
 * in the parse worker (or on the calling thread). An image that is not a readable .basis file
 * fails the whole job with an error naming the glTF file and the image.
 */
export async function transcodeBasis(
  req: BasisRequest,
  progress: (fraction: number) => void,
): Promise<Handled<{ format: 'basis'; images: TranscodedImage[] }>> {
  const basis = await basisModule(req.transcoder);
  const images: TranscodedImage[] = [];
  req.images.forEach((img, k) => {
    images.push(transcodeOne(basis, req, img));
    progress((k + 1) / req.images.length);
  });
  return { result: { format: 'basis', images }, transfer: images.flatMap((i) => i.mipmaps.map((m) => m.data.buffer as ArrayBuffer)) };
}

function transcodeOne(basis: BasisModule, req: BasisRequest, img: BasisRequest['images'][number]): TranscodedImage {
  const bad = (why: string) => new MeshLoadError(req.file, `${img.label} could not be decoded: ${why}`);
  const problem = containerProblem(new Uint8Array(img.data));
  if (problem) throw bad(problem);
  const file = new basis.BasisFile(new Uint8Array(img.data));
  try {
    if (file.isHDR?.()) throw new MeshLoadError(req.file, `${img.label} is an HDR Basis image, which this app does not read`);
    const width = file.getImageWidth(0, 0),
      height = file.getImageHeight(0, 0),
      levels = file.getNumLevels(0);
    if (file.getNumImages() < 1 || !width || !height || !levels) throw bad('its image description is damaged');
    if (!file.startTranscoding()) throw bad('its data is damaged');
    const hasAlpha = !!file.getHasAlpha();
    const target = chooseTarget(req.support, !!file.isUASTC(), hasAlpha, width, height);
    const mipmaps: TranscodedImage['mipmaps'] = [];
    for (let level = 0; level < levels; level++) {
      const data = new Uint8Array(file.getImageTranscodedSizeInBytes(0, level, target.tf));
      if (!file.transcodeImage(data, 0, level, target.tf, 0, hasAlpha ? 1 : 0)) throw bad(`mip level ${level} is damaged`);
      mipmaps.push({ data, width: file.getImageWidth(0, level), height: file.getImageHeight(0, level) });
    }
    return { index: img.index, width, height, format: target.format, compressed: target.compressed, hasAlpha, mipmaps };
  } finally {
    file.close();
    file.delete();
  }
}

/** The .basis header's fixed size (basis_file_header) and the offsets this file reads. */
const HEADER = 77;

/**
 * Check a .basis container before the transcoder sees it. Its header carries CRC-16s of itself and
 * of the data: without checking them, damaged data often transcodes "successfully" into noise, or
 * sends the transcoder into huge allocations. Returns why the bytes are unusable, or null.
 */
export function containerProblem(bytes: Uint8Array): string | null {
  if (bytes.byteLength < HEADER) return `it is not a Basis Universal image (only ${bytes.byteLength} bytes)`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint16(0, true) !== 0x4273) return 'it is not a Basis Universal image (no "sB" signature)';
  const headerSize = view.getUint16(4, true);
  if (headerSize < HEADER || headerSize > bytes.byteLength) return 'its header is damaged';
  if (crc16(bytes.subarray(8, headerSize)) !== view.getUint16(6, true)) return 'its header is damaged (checksum mismatch)';
  const dataSize = view.getUint32(8, true);
  if (headerSize + dataSize > bytes.byteLength)
    return `it is truncated (${bytes.byteLength.toLocaleString('en')} of ${(headerSize + dataSize).toLocaleString('en')} bytes)`;
  if (crc16(bytes.subarray(headerSize, headerSize + dataSize)) !== view.getUint16(12, true)) return 'its data is damaged (checksum mismatch)';
  return null;
}

/** basis_universal's CRC-16 (basisu::crc16, CCITT polynomial, inverted in and out). */
function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (let i = 0; i < bytes.length; i++) {
    const q = (bytes[i]! ^ (crc >> 8)) & 0xffff;
    const k = ((q >> 4) ^ q) & 0xffff;
    crc = ((crc << 8) ^ k ^ (k << 5) ^ (k << 12)) & 0xffff;
  }
  return ~crc & 0xffff;
}
