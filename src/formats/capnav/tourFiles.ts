import type { FrameBudget, SampledFrame, TourPoses } from '../../core/tour/types.ts';
import type { ZipFile } from '../zip.ts';

/**
 * A scene's touring video in the release layout (core/tour/types.ts):
 *   videos/<SCENE>.mp4 (or .webm)              the video
 *   videos/<SCENE>.poses.json                  its TourPoses
 *   frames/<SCENE>/<budget>/NNN.jpg            the frame budgets' JPEGs
 *   frames/<SCENE>/<budget>/frames.json        SampledFrame[] in file order
 */

export interface SceneTourBytes {
  video: Uint8Array;
  mime: string;
  poses: TourPoses;
  frameSets: Partial<Record<FrameBudget, { frames: SampledFrame[]; jpegs: Uint8Array[] }>>;
}

export const tourPath = {
  video: (scene: string, mime: string) => `videos/${scene}.${videoExtension(mime)}`,
  poses: (scene: string) => `videos/${scene}.poses.json`,
  frame: (scene: string, budget: FrameBudget, file: string) => `frames/${scene}/${budget}/${file}`,
  frameList: (scene: string, budget: FrameBudget) => `frames/${scene}/${budget}/frames.json`,
};

/** mp4 for MP4 (H.264), webm for WebM (VP9): by the stored type, never guessed from the bytes. */
export function videoExtension(mime: string): 'mp4' | 'webm' {
  return /webm/i.test(mime) ? 'webm' : 'mp4';
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

export function tourReleaseFiles(scene: string, t: SceneTourBytes): ZipFile[] {
  const from = `the touring video of scene ${JSON.stringify(scene)}`;
  const files: ZipFile[] = [
    { path: tourPath.video(scene, t.mime), bytes: t.video, from },
    { path: tourPath.poses(scene), text: json(t.poses), from },
  ];
  for (const [budget, set] of Object.entries(t.frameSets) as [FrameBudget, { frames: SampledFrame[]; jpegs: Uint8Array[] }][]) {
    set.frames.forEach((f, i) => files.push({ path: tourPath.frame(scene, budget, f.file), bytes: set.jpegs[i]!, from }));
    files.push({ path: tourPath.frameList(scene, budget), text: json(set.frames), from });
  }
  return files;
}

/** A scene's touring-video files found among picked paths (by their place in the release layout). */
export interface TourFilePaths {
  video?: { path: string; mime: string };
  poses?: string;
  /** Per budget: its frames.json and its JPEGs by file name. */
  frames: Partial<Record<FrameBudget, { list?: string; jpegs: Map<string, string> }>>;
}

const VIDEO = /(?:^|\/)videos\/([^/]+)\.(mp4|webm)$/i;
const POSES = /(?:^|\/)videos\/([^/]+)\.poses\.json$/i;
const FRAME = /(?:^|\/)frames\/([^/]+)\/(16|32|64|1fps)\/([^/]+\.jpe?g)$/i;
const FRAME_LIST = /(?:^|\/)frames\/([^/]+)\/(16|32|64|1fps)\/frames\.json$/i;

/** The touring-video files of each scene among `paths` (any leading folder), by scene id. */
export function tourFilesOf(paths: readonly string[]): Map<string, TourFilePaths> {
  const scenes = new Map<string, TourFilePaths>();
  const of = (scene: string) => {
    let t = scenes.get(scene);
    if (!t) scenes.set(scene, (t = { frames: {} }));
    return t;
  };
  const budget = (t: TourFilePaths, b: string): { list?: string; jpegs: Map<string, string> } =>
    (t.frames[b as FrameBudget] ??= { jpegs: new Map<string, string>() });
  for (const path of paths) {
    let m: RegExpExecArray | null;
    if ((m = POSES.exec(path))) of(m[1]!).poses = path;
    else if ((m = VIDEO.exec(path))) of(m[1]!).video = { path, mime: m[2]!.toLowerCase() === 'webm' ? 'video/webm' : 'video/mp4' };
    else if ((m = FRAME_LIST.exec(path))) budget(of(m[1]!), m[2]!).list = path;
    else if ((m = FRAME.exec(path))) budget(of(m[1]!), m[2]!).jpegs.set(m[3]!, path);
  }
  return scenes;
}
