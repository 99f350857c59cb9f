import { LoadingManager, WebGLRenderer, type Loader, type Object3D, type Texture } from 'three';
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { GLTFLoader, type GLTF, type GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { googleTextureBasis, gpuSupport } from './basisTextures.ts';
import { decoderPath } from './decoders.ts';
import { MeshLoadError, describe, raceAbort, seconds, withTimeout } from './errors.ts';
import type { SideFiles } from './files.ts';
import { inspectGltf } from './gltfInspect.ts';
import { refKind } from './refs.ts';
import { disposeObject, disposeTexture } from './objectStats.ts';
import type { WorkerFactory } from './workerClient.ts';

export interface GltfLoaded {
  object: Object3D;
  warnings: string[];
  /** Span from the first texture request to the last texture settled (ms); 0 without textures. */
  texturesMs: number;
}

interface TextureLog {
  first: number;
  last: number;
  failed: Set<number>;
  made: Texture[];
}

export interface GltfOptions {
  renderer: WebGLRenderer | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** Where GOOGLE_texture_basis images are transcoded (the parse worker, or this thread). */
  createWorker: WorkerFactory;
  /** Share of the Basis images transcoded so far. */
  onTextures?: (fraction: number) => void;
}

/**
 * Load a .glb/.gltf with Draco, KTX2 and GOOGLE_texture_basis (Basis Universal) and meshopt support.
 * Decoders are created for this load only and disposed afterwards (their workers hold memory), and
 * only when the file uses them.
 */
export async function loadGltf(file: string, format: 'glb' | 'gltf', data: ArrayBuffer, sides: SideFiles, options: GltfOptions): Promise<GltfLoaded> {
  const { renderer, timeoutMs, signal } = options;
  const facts = inspectGltf(file, format, data, sides);
  const manager = new LoadingManager();
  manager.setURLModifier(sides.modifier);
  const loader = new GLTFLoader(manager);
  const cleanup: (() => void)[] = [];
  const log: TextureLog = { first: Infinity, last: -Infinity, failed: new Set(), made: [] };
  try {
    if (facts.draco) {
      if (typeof Worker === 'undefined') throw new MeshLoadError(file, 'uses Draco mesh compression, which needs Web Workers to decode (not available here)');
      const draco = new DRACOLoader(manager).setDecoderPath(decoderPath('draco'));
      cleanup.push(() => draco.dispose());
      loader.setDRACOLoader(draco);
    }
    if (facts.basisu) {
      const ktx2 = new KTX2Loader(manager).setTranscoderPath(decoderPath('basis'));
      cleanup.push(() => ktx2.dispose());
      const gpu = renderer ?? throwawayRenderer();
      if (!gpu)
        throw new MeshLoadError(
          file,
          'uses KTX2 (Basis Universal) textures, which need a WebGL renderer to choose a GPU texture format, and none could be created here (pass options.renderer)',
        );
      if (!renderer)
        cleanup.push(() => {
          gpu.dispose();
          gpu.forceContextLoss();
        });
      ktx2.detectSupport(gpu);
      loader.setKTX2Loader(ktx2);
    }
    if (facts.meshopt) loader.setMeshoptDecoder(MeshoptDecoder);
    const late: string[] = [];
    if (facts.googleBasis) {
      // Without a WebGL renderer (Node) the images are transcoded to plain RGBA, which needs none.
      const gpu = renderer ?? throwawayRenderer();
      if (gpu && !renderer)
        cleanup.push(() => {
          gpu.dispose();
          gpu.forceContextLoss();
        });
      const support = gpuSupport(gpu);
      loader.register((parser) =>
        googleTextureBasis(parser, {
          file,
          sides,
          missing: facts.missingImages,
          support,
          createWorker: options.createWorker,
          timeoutMs,
          signal,
          made: log.made,
          ...(options.onTextures ? { onProgress: options.onTextures } : {}),
          timed: (start, end) => {
            log.first = Math.min(log.first, start);
            log.last = Math.max(log.last, end);
          },
          warn: (w) => late.push(w),
        }),
      );
    }
    loader.register((parser) => timeTextures(parser, log, facts.missingImages));
    loader.register((parser) => sideBuffers(parser, sides, file));

    let gltf;
    try {
      const drop = (late: GLTF) => late.scenes.forEach((s) => disposeObject(s));
      const parsing = withTimeout(
        loader.parseAsync(data, ''),
        timeoutMs,
        () =>
          new MeshLoadError(
            file,
            `parsing did not finish within ${seconds(timeoutMs)} s${facts.draco || facts.basisu || facts.googleBasis ? ' (a Draco or Basis decoder may have failed to start)' : ''}`,
          ),
        drop,
      );
      gltf = await raceAbort(parsing, signal, drop);
    } catch (err) {
      for (const t of log.made) disposeTexture(t);
      if (err instanceof MeshLoadError || signal?.aborted) throw err;
      throw new MeshLoadError(file, `could not be read as glTF (${describe(err)})`, { cause: err });
    }
    const object = gltf.scene ?? gltf.scenes[0];
    if (!object) throw new MeshLoadError(file, 'has no scene to show');
    // Extra scenes are not shown; free what they do not share with the one that is.
    for (const s of gltf.scenes) if (s !== object) disposeObject(s, object);
    const warnings = [...facts.warnings, ...late];
    if (log.failed.size) warnings.push(`${file}: ${log.failed.size} of ${facts.images} textures could not be decoded and were left out`);
    return { object, warnings, texturesMs: log.made.length || log.failed.size ? Math.max(0, log.last - log.first) : 0 };
  } finally {
    for (const c of cleanup) c();
  }
}

/**
 * A GLTFLoader plugin around the parser's image loading: it times texture decoding (which
 * GLTFLoader does inside the parse), counts images that failed, and skips those not provided.
 */
function timeTextures(parser: GLTFParser, log: TextureLog, missing: Set<number>) {
  return {
    name: 'TRAVERSA_texture_log',
    beforeRoot() {
      const load = parser.loadImageSource.bind(parser);
      parser.loadImageSource = (sourceIndex: number, imageLoader: Loader) => {
        log.first = Math.min(log.first, performance.now());
        // Already reported as not provided: fail it quietly, without a request or a console error.
        if (missing.has(sourceIndex)) return Promise.reject(new Error('image not provided'));
        let pending: Promise<Texture>;
        // GLTFLoader reaches for `self.URL` synchronously, which throws outside browsers and workers;
        // as a rejection it leaves just that texture out (GLTFLoader's own handling) instead of the file.
        try {
          pending = load(sourceIndex, imageLoader);
        } catch (err) {
          pending = Promise.reject(err);
        }
        pending.then(
          (t) => {
            log.made.push(t);
            log.last = Math.max(log.last, performance.now());
          },
          () => {
            log.failed.add(sourceIndex);
            log.last = Math.max(log.last, performance.now());
          },
        );
        return pending;
      };
      return null;
    },
  };
}

/**
 * A plugin that resolves every buffer uri itself: a picked .bin by name, an inline data: URI by
 * decoding it. GLTFLoader would fetch them with FileLoader, whose progress events need a DOM (in
 * Node, the CLI, the load then hangs until its time-out), and which would request whatever the
 * uri says. Addresses were refused already (gltfInspect.ts); only the GLB's own chunk is left to
 * GLTFLoader. Images go through the manager's URL modifier (SideFiles.modifier).
 */
function sideBuffers(parser: GLTFParser, sides: SideFiles, file: string) {
  return {
    name: 'TRAVERSA_side_buffers',
    beforeRoot() {
      const load = parser.loadBuffer.bind(parser);
      parser.loadBuffer = (index: number) => {
        const uri = (parser.json as { buffers?: { uri?: string }[] }).buffers?.[index]?.uri;
        if (uri === undefined) return load(index);
        // A data: URL is the file's own bytes: decoding it requests nothing.
        if (refKind(uri) === 'data') return fetch(uri.trim()).then((r) => r.arrayBuffer());
        const side = sides.find(uri);
        if (!side) return Promise.reject(new MeshLoadError(file, `buffers[${index}].uri names no file you picked`));
        return side.data instanceof ArrayBuffer ? Promise.resolve(side.data) : side.data.arrayBuffer();
      };
      return null;
    },
  };
}

/** A 1×1 offscreen WebGL renderer, only to ask the GPU which compressed formats it takes. */
function throwawayRenderer(): WebGLRenderer | null {
  if (typeof OffscreenCanvas === 'undefined') return null;
  try {
    const canvas = new OffscreenCanvas(1, 1) as unknown as HTMLCanvasElement;
    return new WebGLRenderer({ canvas, antialias: false, alpha: false, powerPreference: 'low-power' });
  } catch {
    return null;
  }
}
