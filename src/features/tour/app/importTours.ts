import type { z } from 'zod';
import type { Problem } from '../../../core/problems.ts';
import { isJpegStart, MAX_FRAME_BYTES, SampledFramesSchema, TourPosesSchema, type FrameBudget } from '../../../core/tour/types.ts';
import { tourFilesOf } from '../../../formats/capnav/tourFiles.ts';
import { checkVideo } from '../../../formats/capnav/videoCheck.ts';
import { checkShape, parseJson } from '../../../formats/json.ts';
import type { SceneVideo } from '../../../persistence/videos.ts';
import type { PickedFile } from '../../../ui/pickedFiles.ts';

/**
 * The touring videos a picked release carries (videos/ and frames/, as *Export release* writes
 * them), for the scenes it holds: each video with its poses and the frame budgets whose list and
 * JPEGs are all there. The files themselves are kept as they are (a picked file is a Blob). What
 * cannot be taken — a video without readable poses, a frame list naming a JPEG that is missing,
 * a video of a scene the release does not hold — is a warning naming the file; the rest imports.
 */
export async function readTours(
  picked: readonly PickedFile[],
  sceneIds: ReadonlySet<string>,
): Promise<{ videos: Map<string, SceneVideo>; problems: Problem[] }> {
  const byPath = new Map(picked.map((p) => [p.path, p.file]));
  const videos = new Map<string, SceneVideo>();
  const problems: Problem[] = [];
  const warn = (file: string, location: string, message: string) => problems.push({ severity: 'warning', code: 'tour.not-imported', file, location, message });
  for (const [scene, t] of tourFilesOf(picked.map((p) => p.path))) {
    const first = t.video?.path ?? t.poses ?? '';
    if (!t.video || !t.poses) {
      if (first) warn(first, '', `the touring video of ${scene} needs both videos/${scene}.mp4 (or .webm) and videos/${scene}.poses.json; not imported`);
      continue;
    }
    if (!sceneIds.has(scene)) {
      warn(t.video.path, '', `a touring video of scene ${scene}, which this release does not hold; not imported`);
      continue;
    }
    const poses = await readJson(t.poses, byPath.get(t.poses)!, TourPosesSchema);
    if (!poses.ok) {
      warn(t.poses, poses.location, `${poses.message}; the touring video of ${scene} was not imported`);
      continue;
    }
    const blob = byPath.get(t.video.path)!;
    const video = await checkVideo(blob.size, t.video.mime, async (at, n) => new Uint8Array(await blob.slice(at, at + n).arrayBuffer()));
    if (!video.ok) {
      warn(t.video.path, '', `${video.why}; the touring video of ${scene} was not imported`);
      continue;
    }
    // The poses describe this video: not a longer one (a pose every frame at the poses' rate).
    const last = poses.value.frames.at(-1)?.t ?? 0;
    if (video.seconds !== undefined && last > video.seconds + 1) {
      warn(
        t.poses,
        '/frames',
        `describe ${last.toFixed(1)} s of video, and ${t.video.path} lasts ${video.seconds.toFixed(1)} s; the touring video of ${scene} was not imported`,
      );
      continue;
    }
    const frameSets: SceneVideo['frameSets'] = {};
    for (const [budget, set] of Object.entries(t.frames) as [FrameBudget, { list?: string; jpegs: Map<string, string> }][]) {
      if (!set.list) {
        warn([...set.jpegs.values()][0] ?? '', '', `frames of budget ${budget} without their frames.json; that frame set was not imported`);
        continue;
      }
      const frames = await readJson(set.list, byPath.get(set.list)!, SampledFramesSchema);
      if (!frames.ok) {
        warn(set.list, frames.location, `${frames.message}; that frame set was not imported`);
        continue;
      }
      const missing = frames.value.find((f) => !set.jpegs.has(f.file));
      if (missing) {
        warn(set.list, '', `lists ${missing.file}, which is not among the picked files; that frame set was not imported`);
        continue;
      }
      const paths = frames.value.map((f) => set.jpegs.get(f.file)!);
      const jpegs = paths.map((path) => byPath.get(path)!);
      const notJpeg = await firstNotJpeg(paths, jpegs);
      if (notJpeg) {
        warn(notJpeg.path, '', `${notJpeg.why}; that frame set was not imported`);
        continue;
      }
      frameSets[budget] = { frames: frames.value, jpegs };
    }
    videos.set(scene, { blob, mime: t.video.mime, poses: poses.value, frameSets });
  }
  return { videos, problems };
}

/** The first frame that is not a JPEG of a sane size (a PNG, a zip, 40 MB of anything), and why. */
async function firstNotJpeg(paths: readonly string[], blobs: readonly Blob[]): Promise<{ path: string; why: string } | null> {
  for (const [i, blob] of blobs.entries()) {
    const path = paths[i]!;
    if (blob.size > MAX_FRAME_BYTES) return { path, why: `is ${(blob.size / 2 ** 20).toFixed(1)} MB; a frame is at most ${MAX_FRAME_BYTES / 2 ** 20} MB` };
    if (!isJpegStart(new Uint8Array(await blob.slice(0, 3).arrayBuffer()))) return { path, why: 'is not a JPEG image' };
  }
  return null;
}

/** A picked JSON file read and checked the way every import reads one (formats/json.ts: no file text quoted, depth and `__proto__` refused). */
async function readJson<T>(path: string, file: Blob, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; location: string; message: string }> {
  const parsed = parseJson({ path, text: await file.text() });
  if (!parsed.ok) return { ok: false, location: parsed.problem.location, message: parsed.problem.message };
  const checked = checkShape(path, parsed.value, schema);
  if (checked.ok) return { ok: true, value: checked.value };
  const first = checked.problems[0]!;
  return { ok: false, location: first.location, message: first.message };
}
