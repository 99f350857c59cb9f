import type { Problem } from '../core/problems.ts';
import { SampledFramesSchema, TourPosesSchema, type FrameBudget } from '../core/tour/types.ts';
import { tourFilesOf } from '../formats/capnav/tourFiles.ts';
import type { SceneVideo } from '../persistence/videos.ts';
import type { PickedFile } from '../ui/pickedFiles.ts';

/**
 * The touring videos a picked release carries (videos/ and frames/, as *Export release* writes
 * them), for the scenes it holds: each video with its poses and the frame budgets whose list and
 * JPEGs are all there. The files themselves are kept as they are (a picked file is a Blob). What
 * cannot be taken — a video without readable poses, a frame list naming a JPEG that is missing,
 * a video of a scene the release does not hold — is a warning naming the file; the rest imports.
 */
export async function readTours(picked: readonly PickedFile[], sceneIds: ReadonlySet<string>): Promise<{ videos: Map<string, SceneVideo>; problems: Problem[] }> {
  const byPath = new Map(picked.map((p) => [p.path, p.file]));
  const videos = new Map<string, SceneVideo>();
  const problems: Problem[] = [];
  const warn = (file: string, location: string, message: string) => problems.push({ severity: 'warning', code: 'tour.not-imported', file, location, message });
  for (const [scene, t] of tourFilesOf(picked.map((p) => p.path))) {
    const first = t.video?.path ?? t.poses ?? '';
    if (!t.video || !t.poses) { if (first) warn(first, '', `the touring video of ${scene} needs both videos/${scene}.mp4 (or .webm) and videos/${scene}.poses.json; not imported`); continue; }
    if (!sceneIds.has(scene)) { warn(t.video.path, '', `a touring video of scene ${scene}, which this release does not hold; not imported`); continue; }
    const poses = await readJson(byPath.get(t.poses)!, TourPosesSchema);
    if (!poses.ok) { warn(t.poses, poses.location, `${poses.message}; the touring video of ${scene} was not imported`); continue; }
    const frameSets: SceneVideo['frameSets'] = {};
    for (const [budget, set] of Object.entries(t.frames) as [FrameBudget, { list?: string; jpegs: Map<string, string> }][]) {
      if (!set.list) { warn([...set.jpegs.values()][0] ?? '', '', `frames of budget ${budget} without their frames.json; that frame set was not imported`); continue; }
      const frames = await readJson(byPath.get(set.list)!, SampledFramesSchema);
      if (!frames.ok) { warn(set.list, frames.location, `${frames.message}; that frame set was not imported`); continue; }
      const missing = frames.value.find((f) => !set.jpegs.has(f.file));
      if (missing) { warn(set.list, '', `lists ${missing.file}, which is not among the picked files; that frame set was not imported`); continue; }
      frameSets[budget] = { frames: frames.value, jpegs: frames.value.map((f) => byPath.get(set.jpegs.get(f.file)!)!) };
    }
    videos.set(scene, { blob: byPath.get(t.video.path)!, mime: t.video.mime, poses: poses.value, frameSets });
  }
  return { videos, problems };
}

async function readJson<T>(file: Blob, schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }):
  Promise<{ ok: true; value: T } | { ok: false; location: string; message: string }> {
  let value: unknown;
  try { value = JSON.parse(await file.text()); } catch (e) { return { ok: false, location: '', message: `not JSON (${(e as Error).message})` }; }
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0]!;
  return { ok: false, location: `/${issue.path.map(String).join('/')}`, message: issue.message };
}
