import { DoubleSide, Mesh, MeshBasicMaterial, MeshStandardMaterial, type BufferGeometry, type Object3D } from 'three';
import { acceleratedRaycast } from 'three-mesh-bvh';
import { frameMatrix } from '../frame.ts';
import { buildCollision, collisionGeometry } from './collisionBuild.ts';
import { mergeTriangles } from './collisionMerge.ts';
import { MeshLoadError, abortReason, describe, throwIfAborted } from './errors.ts';
import { drawBothSides, measureFacing, type Facing } from './facing.ts';
import { SideFiles, pickMain, readBytes, sizeOf } from './files.ts';
import { detectFloorLevels } from './floors.ts';
import type { LevelAreas } from './upAxis.ts';
import { fromBuffers } from './geometryBuffers.ts';
import { loadGltf } from './gltf.ts';
import { buildObj } from './objBuild.ts';
import { disposeObject, objectStats } from './objectStats.ts';
import { handleParseRequest } from './parseHandler.ts';
import type { PlyParsed } from './plyParse.ts';
import { ProgressReporter } from './progress.ts';
import type { LoadMeshOptions, LoadProgress, LoadTimings, LoadedMesh, MeshInput } from './types.ts';
import { defaultWorkerFactory, runJob } from './workerClient.ts';
import { append } from '../../core/arrays.ts';

export { MeshLoadError } from './errors.ts';
export type { LoadMeshOptions, LoadProgress, LoadedMesh, MeshInput, MeshStats } from './types.ts';

const MB = 1e6;

/**
 * Load a scan (glTF/GLB, PLY or OBJ with its side files) into a render object, a collision mesh
 * with a BVH, the frame matrix that puts it in the world, and its floor heights. PLY and OBJ parse
 * and the BVH build run in workers where there are workers. Fails with a MeshLoadError naming the
 * file, or with the signal's abort reason; nothing created before a failure is left undisposed.
 */
export async function loadMesh(input: MeshInput, options: LoadMeshOptions, onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<LoadedMesh> {
  throwIfAborted(signal);
  const progress = new ProgressReporter(onProgress);
  const { main, format, sides, warnings } = pickMain(input);
  const file = main.name;
  if (!(options.unitScale > 0 && Number.isFinite(options.unitScale)))
    throw new MeshLoadError(file, `the unit scale must be a positive number (got ${options.unitScale})`);
  if (options.upAxis !== 'y' && options.upAxis !== 'z') throw new MeshLoadError(file, `the up axis must be 'y' or 'z' (got ${String(options.upAxis)})`);
  const frame = frameMatrix(options.upAxis, options.unitScale);
  const createWorker = options.createWorker ?? defaultWorkerFactory;
  const sideFiles = new SideFiles(sides);
  const timings: LoadTimings = { read: 0, parse: 0, textures: 0, bvh: 0 };
  const bytes = sizeOf(main.data) + sides.reduce((n, f) => n + sizeOf(f.data), 0);
  let object: Object3D | null = null;
  let collision: BufferGeometry | null = null;

  try {
    let t = performance.now();
    const size = sizeOf(main.data);
    if (size === 0) throw new MeshLoadError(file, 'the file is empty (0 bytes)');
    progress.emit('read', 0, `Reading ${file}`);
    let read = 0;
    const { buffer, owned } = await readBytes(main.data, signal, (n) => {
      read += n;
      progress.emit('read', read / size, `Reading ${file}`);
    });
    timings.read = performance.now() - t;

    t = performance.now();
    progress.emit('parse', 0, `Parsing ${file}`);
    if (format === 'glb' || format === 'gltf') {
      const gltf = await loadGltf(file, format, buffer, sideFiles, {
        renderer: options.renderer,
        timeoutMs: options.timeoutMs ?? 60_000 + (size / MB) * 2_000,
        signal,
        createWorker,
        onTextures: (f) => progress.emit('textures', f, 'Transcoding Basis textures'),
      });
      object = gltf.object;
      append(warnings, gltf.warnings);
      timings.textures = gltf.texturesMs;
      timings.parse = performance.now() - t;
      progress.emit('textures', 1, gltf.texturesMs ? 'Textures decoded' : 'No textures');
    } else {
      const { result } = await runJob({
        kind: 'parse',
        file,
        doing: 'parsing',
        payload: { format, file, data: buffer },
        // A caller's ArrayBuffer is copied to the worker rather than detached under them.
        transfer: owned ? [buffer] : [],
        handler: handleParseRequest,
        signal,
        createWorker,
        timeoutMs: options.timeoutMs ?? 60_000 + (size / MB) * 2_000,
      });
      timings.parse = performance.now() - t;
      if (result.format === 'ply') {
        object = plyObject(file, result.ply);
        progress.emit('textures', 1, 'No textures');
      } else if (result.format === 'obj') {
        progress.emit('textures', 0, 'Loading materials and textures');
        const built = await buildObj(file, result.obj, sideFiles, signal, (done, total) =>
          progress.emit('textures', total ? done / total : 1, `Textures ${done} of ${total}`),
        );
        object = built.object;
        append(warnings, built.warnings);
        timings.textures = built.texturesMs;
        progress.emit('textures', 1, 'Textures loaded');
      } else {
        throw new Error('the parse worker answered a mesh with something else');
      }
    }
    throwIfAborted(signal);

    t = performance.now();
    progress.emit('bvh', 0, 'Building the collision BVH');
    const merged = mergeTriangles(object, file);
    if (merged.index.length === 0) throw new MeshLoadError(file, 'contains no triangles');
    checkFiniteVertices(file, object);
    checkExtent(file, merged.positions, options.unitScale);
    const triangles = merged.index.length / 3;
    const { result } = await runJob({
      kind: 'bvh',
      file,
      doing: 'building the collision BVH',
      payload: { ...merged, frame: frame.toArray() },
      transfer: [merged.positions.buffer, merged.index.buffer],
      handler: buildCollision,
      signal,
      createWorker,
      timeoutMs: options.timeoutMs ?? 60_000 + (triangles / MB) * 10_000,
      onProgress: (f) => progress.emit('bvh', f, 'Building the collision BVH'),
    });
    collision = collisionGeometry(result);
    timings.bvh = performance.now() - t;
    throwIfAborted(signal);

    const loaded = assemble(object, collision, frame, result, timings, warnings, { ...objectStats(object), bytes, format });
    progress.emit('done', 1, `Loaded ${file}`);
    return loaded;
  } catch (err) {
    if (object) disposeObject(object);
    if (collision) {
      collision.boundsTree = undefined;
      collision.dispose();
    }
    if (signal?.aborted) throw abortReason(signal);
    if (err instanceof MeshLoadError) throw err;
    throw new MeshLoadError(file, `could not be loaded (${describe(err)})`, { cause: err });
  } finally {
    sideFiles.dispose();
  }
}

/** The most a scan may measure across, in metres: a building, a campus — not a continent. */
export const MAX_SCAN_EXTENT_M = 10_000;

/**
 * Every vertex a finite number (read as the file holds it, before any transform), and the scan
 * no larger than MAX_SCAN_EXTENT_M: a vertex at NaN or infinity blanked the view and made every
 * agent "fit nowhere", one at 1e38 crashed the navmesh build. Refused before anything is
 * replaced, in the studio and the command line alike.
 */
function checkFiniteVertices(file: string, object: Object3D): void {
  object.traverse((o) => {
    if (!(o instanceof Mesh)) return;
    const p = o.geometry.getAttribute('position');
    if (!p) return;
    for (let i = 0; i < p.count; i++) {
      for (let a = 0; a < 3; a++) {
        const v = p.getComponent(i, a);
        if (!Number.isFinite(v))
          throw new MeshLoadError(file, `${o.name ? `mesh "${o.name}": ` : ''}vertex ${i} has ${'xyz'[a]} = ${v}: coordinates must be finite numbers`);
      }
    }
  });
}

function checkExtent(file: string, xyz: Float32Array, unitScale: number): void {
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  const at = [
    [0, 0],
    [0, 0],
    [0, 0],
  ];
  for (let i = 0; i < xyz.length; i++) {
    const a = i % 3,
      v = xyz[i]!;
    if (v < lo[a]!) {
      lo[a] = v;
      at[a]![0] = i;
    }
    if (v > hi[a]!) {
      hi[a] = v;
      at[a]![1] = i;
    }
  }
  for (let a = 0; a < 3; a++) {
    const across = (hi[a]! - lo[a]!) * unitScale;
    if (!(across <= MAX_SCAN_EXTENT_M)) {
      const far = Math.abs(lo[a]!) > Math.abs(hi[a]!) ? at[a]![0]! : at[a]![1]!;
      throw new MeshLoadError(
        file,
        `is ${across.toExponential(2)} m across in ${'xyz'[a]} (vertex ${Math.floor(far / 3)} has ${'xyz'[a]} = ${xyz[far]}); a scan is at most ${MAX_SCAN_EXTENT_M.toLocaleString('en')} m across: a vertex is wrong, or the unit scale (${unitScale})`,
      );
    }
  }
}

/**
 * Colour scans carry captured light in their vertex colours, so they are shown unlit (as Habitat
 * shows them) and without tone mapping (they are display colours already); lighting them again
 * darkens and double-shades. Uncoloured ones get a plain lit grey.
 */
function plyObject(file: string, ply: PlyParsed): Mesh {
  const geometry = fromBuffers(ply.geometry);
  geometry.computeBoundingSphere();
  const material = ply.hasColors
    ? new MeshBasicMaterial({ vertexColors: true, toneMapped: false })
    : new MeshStandardMaterial({ color: 0xbdbdbd, roughness: 1, metalness: 0 });
  const mesh = new Mesh(geometry, material);
  mesh.name = file;
  return mesh;
}

function assemble(
  object: Object3D,
  geometry: BufferGeometry,
  frame: LoadedMesh['frame'],
  found: { floors: number[]; facing: Facing; levels: LevelAreas },
  timings: LoadTimings,
  warnings: string[],
  stats: LoadedMesh['stats'],
): LoadedMesh {
  const { floors, facing, levels } = found;
  // Invisible but raycastable: three's Raycaster does not skip invisible materials, the renderer does.
  const collision = new Mesh(geometry, new MeshBasicMaterial({ visible: false, side: DoubleSide }));
  collision.name = 'collision';
  collision.raycast = acceleratedRaycast;
  let disposed = false;
  return {
    object,
    collision,
    frame,
    stats,
    floors,
    facing,
    levels,
    doubleSided: drawBothSides(facing),
    timings,
    warnings,
    dispose() {
      if (disposed) return;
      disposed = true;
      disposeObject(object);
      geometry.boundsTree = undefined;
      geometry.dispose();
      (collision.material as MeshBasicMaterial).dispose();
    },
  };
}

/**
 * Put a loaded scan under another up axis or unit scale without loading it again: the frame matrix
 * (shared by the render object's wrapper, picking and the collision queries) is updated in place,
 * and what depends on it (floor heights, which way the surfaces face) is measured again.
 */
export function reframeMesh(loaded: LoadedMesh, upAxis: 'y' | 'z', unitScale: number): void {
  loaded.frame.copy(frameMatrix(upAxis, unitScale));
  const g = loaded.collision.geometry;
  const positions = g.getAttribute('position').array as Float32Array;
  const index = (g.getIndex()?.array as Uint32Array | undefined) ?? null;
  loaded.floors = detectFloorLevels(positions, index, loaded.frame);
  loaded.facing = measureFacing(positions, index, loaded.frame);
  loaded.doubleSided = drawBothSides(loaded.facing);
}
