import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { decode, encode } from 'fast-png';
import { depthMillimetres, depthPreview, readSpatialParts, type DepthInfo } from '../core/evalinputs/spatial.ts';
import {
  DEPTH_DOWNSCALE,
  DEPTH_FAR_M,
  depthFramePath,
  frameSetFolder,
  mapFolder,
  SPATIAL_PARTS,
  type EvalInput,
  type SpatialPart,
} from '../core/evalinputs/types.ts';
import type { NavGraph } from '../core/graph.ts';
import { TourPosesSchema, type FrameBudget, type TourPoses } from '../core/tour/types.ts';
import type { LoadedMesh } from '../engine/mesh/types.ts';
import { scanSurface } from '../engine/rays/surface.ts';
import { renderDepth, worldPoseOf } from '../engine/spatial/depth.ts';
import { renderMaps } from '../engine/spatial/topDown.ts';
import { CliError, InputError, readInput, readInputText, writeOutput } from './files.ts';
import { upAxisOf } from './options.ts';
import { readFrameList } from './frameSets.ts';
import { tourPath } from '../formats/capnav/tourFiles.ts';
import { loadScanFile } from './scanInputs.ts';
import { sceneScan, scanFiles, SCAN_EXTENSIONS } from './sceneScans.ts';

/**
 * `eval-inputs --with depth,map,graph`: the depth frames and top-down maps rendered from each
 * scene's scan (`--mesh <file>` for one scene, or `--scans <dir>` holding `<SCENE>.glb|.gltf|.ply|.obj`),
 * depth at the poses of the release's `videos/<SCENE>.poses.json`; and, for run-model, those files
 * read back as the images a request sends.
 */

export interface SpatialArgs {
  with?: string;
  mesh?: string;
  scans?: string;
  up?: string;
}

/** `--with a,b` read and checked: the parts in SPATIAL_PARTS order. */
export function spatialParts(value: string | undefined): SpatialPart[] {
  if (value === undefined) return [];
  const { parts, unknown } = readSpatialParts(value.split(','));
  if (unknown.length || parts.length === 0)
    throw new CliError(`--with takes a comma list of ${SPATIAL_PARTS.join(', ')} (any of them), not "${unknown[0] ?? value}"`);
  return parts;
}

/** The scan of a scene: `--mesh` (when the inputs cover one scene) or `<scans>/<SCENE>.<ext>`. */
function scanFileOf(scene: string, scenes: readonly string[], a: SpatialArgs): string {
  if (a.mesh) {
    if (scenes.length > 1)
      throw new CliError(
        `--mesh gives the scan of one scene, and the inputs cover ${scenes.length} (${scenes.join(', ')}): give --scans <dir> with <SCENE>.glb for each`,
      );
    return a.mesh;
  }
  const found = sceneScan(a.scans!, scene);
  if (!found)
    throw new InputError(
      `${join(a.scans!, scene + SCAN_EXTENSIONS[0])}: no scan of scene ${scene} (looked for ${scene}${SCAN_EXTENSIONS.join(`, ${scene}`)} in ${a.scans})`,
    );
  return found;
}

function posesOf(gt: string, scene: string): { path: string; poses: TourPoses } {
  const path = join(gt, tourPath.poses(scene));
  if (!existsSync(path))
    throw new InputError(
      `${path}: no tour poses for scene ${scene} (depth frames are rendered at the tour's poses: record the tour with "cli tour" or the studio)`,
    );
  let value: unknown;
  try {
    value = JSON.parse(readInputText(path, 'tour poses'));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${path}: the tour poses are not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = TourPosesSchema.safeParse(value);
  if (!parsed.success)
    throw new InputError(`${path}: at /${parsed.error.issues[0]!.path.join('/')}: ${parsed.error.issues[0]!.message} (not a poses document)`);
  return { path, poses: parsed.data as TourPoses };
}

/**
 * Check what the parts need before anything is rendered (a scan for every scene, poses for depth),
 * then write each scene's depth frames and maps under `out`. Returns how many files of each it wrote.
 */
export async function writeSpatialFiles(
  gt: string,
  out: string,
  inputs: readonly EvalInput[],
  graphs: ReadonlyMap<string, NavGraph>,
  budget: FrameBudget,
  parts: readonly SpatialPart[],
  a: SpatialArgs,
): Promise<{ depth: number; maps: number }> {
  const written = { depth: 0, maps: 0 };
  const rendered = parts.filter((p) => p !== 'graph');
  if (rendered.length === 0) return written;
  const up = upAxisOf(a.up);
  if (!a.mesh && !a.scans)
    throw new CliError(`--with ${rendered.join(',')} renders from the scan: give --mesh <file> (one scene) or --scans <dir> (<SCENE>.glb for each scene)`);
  const scenes = [...new Set(inputs.map((i) => i.scene))];
  const plans = scenes.map((scene) => {
    const first = inputs.find((i) => i.scene === scene)!;
    const poses = parts.includes('depth') ? posesOf(gt, scene) : null;
    if (poses && poses.poses.up !== up)
      throw new CliError(`${poses.path}: the tour was recorded with the scan's up axis ${poses.poses.up}: give --up ${poses.poses.up} for its scan`);
    return { scene, first, poses, scan: scanFileOf(scene, scenes, a) };
  });
  for (const p of plans) {
    // Only the files the scan names: the folder holds every scene's scan.
    const loaded = await loadScanFile(p.scan, up, 1, a.scans ? scanFiles(p.scan) : undefined);
    try {
      if (p.poses) written.depth += writeDepth(gt, out, p.scene, budget, p.poses, loaded);
      if (parts.includes('map')) written.maps += writeMaps(out, p.first, graphs.get(p.scene)!, loaded);
    } finally {
      loaded.dispose();
    }
  }
  return written;
}

/** The depth frame of each frame of the scene's set, and depth.json beside them. */
function writeDepth(
  gt: string,
  out: string,
  scene: string,
  budget: FrameBudget,
  { path, poses }: { path: string; poses: TourPoses },
  loaded: LoadedMesh,
): number {
  const frames = readFrameList(gt, scene, budget)!;
  const surface = scanSurface(loaded);
  const lens = { fovDeg: poses.fovDeg, aspect: poses.width / poses.height };
  const width = Math.max(1, Math.round(poses.width / DEPTH_DOWNSCALE)),
    height = Math.max(1, Math.round(poses.height / DEPTH_DOWNSCALE));
  const info: DepthInfo = {
    format: 'traversa-depth',
    version: 1,
    units: 'mm',
    scale: 0.001,
    depth: 'z (along the camera view axis)',
    camera: { fovDeg: poses.fovDeg, frameWidth: poses.width, frameHeight: poses.height, width, height, up: poses.up },
    far: DEPTH_FAR_M,
    frames: [],
  };
  for (const f of frames) {
    const pose = poses.frames[f.index];
    // A pose is one video frame: its time is the frame's to within half a frame.
    if (!pose || Math.abs(pose.t - f.t) > 0.5 / poses.fps + 1e-6)
      throw new InputError(
        `${path}: no pose for frame ${f.file} (video frame ${f.index} at ${f.t} s; the poses list ${poses.frames.length} frames at ${poses.fps} fps)`,
      );
    const metres = renderDepth(surface, worldPoseOf(pose, loaded.frame), lens, width, height, DEPTH_FAR_M);
    const file = depthFramePath(scene, budget, f.file);
    writeOutput(join(out, file), encode({ width, height, data: depthMillimetres(metres), depth: 16, channels: 1 }));
    info.frames.push({ file: file.split('/').pop()!, frame: f.file, index: f.index, t: f.t, pose });
  }
  writeOutput(join(out, frameSetFolder(scene, budget), 'depth', 'depth.json'), JSON.stringify(info, null, 2) + '\n');
  return frames.length;
}

/** A top-down map per floor the input cites, and map.json. */
function writeMaps(out: string, input: EvalInput, graph: NavGraph, loaded: LoadedMesh): number {
  const { info, pictures } = renderMaps(loaded, graph, input.maps ?? []);
  const { width, height } = info.transform;
  for (const p of pictures) writeOutput(join(out, p.file), encode({ width, height, data: p.rgba, depth: 8, channels: 4 }));
  writeOutput(join(out, mapFolder(input.scene), 'map.json'), JSON.stringify(info, null, 2) + '\n');
  return pictures.length;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A depth frame's or map's bytes (`file` relative to `root`), refused unless it is a PNG. */
export function readPng(root: string, file: string): Buffer {
  const path = join(root, file);
  const bytes = readInput(path, 'image', 64 * 2 ** 20);
  if (!PNG_SIGNATURE.every((b, i) => bytes[i] === b)) throw new InputError(`${path}: not a PNG image`);
  return bytes;
}

/** The files of an input's depth frames and maps, in the order a request sends them. */
export const spatialFiles = (input: EvalInput): string[] => [...(input.depthFrames ?? []), ...(input.maps ?? [])].map((f) => f.file);

/**
 * The depth frames and maps of an input as the data URLs a request sends: a map as it is, a depth
 * frame as its 8-bit picture (depthPreview: a 16-bit PNG's values are taken for 8-bit ones by most
 * image readers, and would show all white).
 */
export class SpatialUrls {
  private readonly urls = new Map<string, string>();
  constructor(private readonly root: string) {}
  private url(file: string, depth: boolean): string {
    let url = this.urls.get(file);
    if (url) return url;
    const bytes = readPng(this.root, file);
    let png: Uint8Array = bytes;
    if (depth) {
      const d = decode(bytes);
      if (d.depth !== 16 || d.channels !== 1)
        throw new InputError(`${join(this.root, file)}: a depth frame is a 16-bit grey PNG (this one has ${d.channels} channels of ${d.depth} bits)`);
      png = encode({ width: d.width, height: d.height, data: depthPreview(d.data as Uint16Array), depth: 8, channels: 1 });
    }
    url = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
    // A run goes scene by scene: the images of the scenes before are not asked again.
    if (this.urls.size > 512) this.urls.clear();
    this.urls.set(file, url);
    return url;
  }
  of(input: EvalInput): { depth?: string[]; maps?: string[] } {
    return {
      ...(input.depthFrames ? { depth: input.depthFrames.map((f) => this.url(f.file, true)) } : {}),
      ...(input.maps ? { maps: input.maps.map((m) => this.url(m.file, false)) } : {}),
    };
  }
}
