import { decoderPath } from './decoders.ts';
import { MeshLoadError, throwIfAborted } from './errors.ts';
import { refKind } from './refs.ts';
import type { MeshFormat, MeshInput } from './types.ts';

export type InputFile = MeshInput['files'][number];

const MAIN: MeshFormat[] = ['glb', 'gltf', 'obj', 'ply'];
/** Mesh formats people will try; named so the error can say "not supported" rather than "no mesh". */
const OTHER_MESHES = [
  'fbx',
  'stl',
  'dae',
  '3ds',
  'usd',
  'usdz',
  'usdc',
  'usda',
  'blend',
  'e57',
  'las',
  'laz',
  'pcd',
  'xyz',
  'off',
  'x3d',
  'wrl',
  'drc',
  'splat',
  'ksplat',
  'spz',
];

export const extensionOf = (name: string) => /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
export const baseName = (name: string) => name.split(/[/\\]/).pop() ?? name;
export const sizeOf = (data: Blob | ArrayBuffer) => (data instanceof ArrayBuffer ? data.byteLength : data.size);

/** The main mesh file (by extension, .glb before .gltf before .obj before .ply) and the rest as side files. */
export function pickMain(input: MeshInput): { main: InputFile; format: MeshFormat; sides: InputFile[]; warnings: string[] } {
  const files = input?.files ?? [];
  if (files.length === 0) throw new MeshLoadError('(no file)', 'no files were given');
  for (const format of MAIN) {
    const candidates = files.filter((f) => extensionOf(f.name) === format);
    const main = candidates[0];
    if (!main) continue;
    const others = files.filter((f) => f !== main && MAIN.includes(extensionOf(f.name) as MeshFormat));
    const warnings = others.length
      ? [`${main.name} was loaded; ${others.map((f) => f.name).join(', ')} ${others.length > 1 ? 'were' : 'was'} also given and ignored (one mesh per scene)`]
      : [];
    return { main, format, sides: files.filter((f) => f !== main), warnings };
  }
  const other = files.find((f) => OTHER_MESHES.includes(extensionOf(f.name))) ?? files[0]!;
  const ext = extensionOf(other.name);
  throw new MeshLoadError(other.name, `${ext ? `unsupported file type '.${ext}'` : 'no file extension'} (expected a .glb, .gltf, .ply or .obj file)`);
}

/**
 * Read a file's bytes, reporting progress as they arrive. `owned` says the buffer is ours (read from
 * a Blob) and may be transferred to a worker; a caller's ArrayBuffer is copied instead, never detached.
 */
export async function readBytes(
  data: Blob | ArrayBuffer,
  signal: AbortSignal | undefined,
  onBytes: (n: number) => void,
): Promise<{ buffer: ArrayBuffer; owned: boolean }> {
  if (data instanceof ArrayBuffer) {
    onBytes(data.byteLength);
    return { buffer: data, owned: false };
  }
  if (typeof data.stream !== 'function') {
    const buffer = await data.arrayBuffer();
    onBytes(buffer.byteLength);
    return { buffer, owned: true };
  }
  const out = new Uint8Array(data.size);
  const reader = data.stream().getReader();
  let at = 0;
  try {
    for (;;) {
      throwIfAborted(signal);
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.length > out.length) throw new Error('the file grew while it was being read');
      out.set(value, at);
      at += value.length;
      onBytes(value.length);
    }
  } finally {
    reader.releaseLock();
  }
  return { buffer: at === out.length ? out.buffer : out.slice(0, at).buffer, owned: true };
}

/**
 * Side files found by the names the main file uses for them, handed to three's loaders as blob
 * URLs (created on first use, revoked by `dispose`). Names match by path, else by base name, else
 * ignoring case: exporters write `textures\Wood.JPG` for a file the user picked as `wood.jpg`.
 * Addresses (`http://host/wood.jpg`, `//host/wood.jpg`: see refs.ts) never match a picked file.
 */
export class SideFiles {
  private urls = new Map<InputFile, string>();
  private emptyUrl: string | null = null;

  constructor(private files: InputFile[]) {}

  find(ref: string): InputFile | undefined {
    if (refKind(ref) !== 'name') return undefined;
    const wanted = normalizeRef(ref);
    const base = baseName(wanted);
    return (
      this.files.find((f) => normalizeRef(f.name) === wanted) ??
      this.files.find((f) => baseName(f.name) === base) ??
      this.files.find((f) => baseName(f.name).toLowerCase() === base.toLowerCase())
    );
  }

  url(file: InputFile): string {
    let url = this.urls.get(file);
    if (!url) {
      const blob = file.data instanceof Blob ? file.data : new Blob([file.data]);
      url = URL.createObjectURL(blob);
      this.urls.set(file, url);
    }
    return url;
  }

  /** For a reference that names no given file: fails fast in the loader, with no network request. */
  missingUrl(): string {
    this.emptyUrl ??= URL.createObjectURL(new Blob([]));
    return this.emptyUrl;
  }

  /**
   * The LoadingManager URL modifier: the one place a scan's references become requests. Names are
   * side files; data: URLs and blob: URLs pass (GLTFLoader turns embedded images into blob: URLs
   * of the file's own bytes; blob: URLs written in a file are refused before, in gltfInspect.ts and
   * sideTextures.ts); so do the app's decoder files, which the Draco and KTX2 loaders fetch through
   * the same manager. Anything else (an address, a name no picked file has) gets an empty blob:
   * it fails at once in the loader and no request leaves the page.
   */
  readonly modifier = (url: string): string => {
    if (/^(data|blob):/i.test(url) || isDecoderFile(url)) return url;
    const file = this.find(url);
    return file ? this.url(file) : this.missingUrl();
  };

  dispose(): void {
    for (const url of this.urls.values()) URL.revokeObjectURL(url);
    this.urls.clear();
    if (this.emptyUrl) URL.revokeObjectURL(this.emptyUrl);
    this.emptyUrl = null;
  }
}

/** One of the app's own decoder files (src/build/decodersPlugin.ts serves only those): `<base>decoders/<kind>/<name>.js|.wasm`. */
function isDecoderFile(url: string): boolean {
  return (['draco', 'basis'] as const).some((kind) => url.startsWith(decoderPath(kind)) && /^[\w-]+\.(js|wasm)$/.test(url.slice(decoderPath(kind).length)));
}

export function normalizeRef(ref: string): string {
  let s = ref.split(/[?#]/)[0] ?? ref;
  try {
    s = decodeURIComponent(s);
  } catch {
    /* a literal % in a file name */
  }
  return s
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
}
