import type { Project } from '../core/project.ts';
import { withoutUnreviewedTasks, type LeftOut } from '../core/taskgen/unreviewed.ts';
import { releasePath } from '../formats/capnav/files.ts';
import { writeRelease } from '../formats/capnav/write.ts';
import { tourReleaseFiles, type SceneTourBytes } from '../formats/capnav/tourFiles.ts';
import { zipFolder } from '../formats/zip.ts';
import type { TraversaDb } from '../persistence/db.ts';
import { loadSceneVideo, videoScenes } from '../persistence/videos.ts';

/**
 * A zip of the project in the CapNav release layout, under one folder named after the project,
 * with the touring videos given (scene id → video, poses and frame sets: videos/ and frames/).
 * Generated tasks no reviewer has accepted yet are left out (`leftOut` says which).
 * Throws `UnsafeZipEntryError`, naming the scene, if a scene id would make an unsafe entry.
 */
export function releaseZip(whole: Project, tours: ReadonlyMap<string, SceneTourBytes> = new Map()): { name: string; bytes: Uint8Array; leftOut: LeftOut[] } {
  const { project, leftOut } = withoutUnreviewedTasks(whole);
  const folder = safeName(project.name) || 'capnav';
  const owner = new Map(
    project.scenes.flatMap((s) => [releasePath.graph(s.id), releasePath.qa(s.id), releasePath.traverse(s.id)].map((p) => [p, `scene ${JSON.stringify(s.id)}`])),
  );
  const files = [
    ...writeRelease(project).map((f) => ({ ...f, from: owner.get(f.path) })),
    // Only the videos of the project's scenes: a stored video of a scene since removed is not part of it.
    ...project.scenes.flatMap((s) => {
      const t = tours.get(s.id);
      return t ? tourReleaseFiles(s.id, t) : [];
    }),
  ];
  return { name: `${folder}.zip`, bytes: zipFolder(folder, files), leftOut };
}

/** What the studio says once a release is downloaded: its name, and the generated tasks it left out. */
export function exportedNotice(zip: { name: string; leftOut: readonly LeftOut[] }): string {
  const n = zip.leftOut.length;
  if (n === 0) return `Exported ${zip.name}.`;
  const scenes = [...new Set(zip.leftOut.map((l) => l.sceneId))];
  return `Exported ${zip.name}, without ${n} generated task${n === 1 ? '' : 's'} no reviewer has accepted yet (${scenes.join(', ')}); accept ${n === 1 ? 'it' : 'them'} in the QA view to include ${n === 1 ? 'it' : 'them'}.`;
}

/** The release zip with every stored touring video of the project's scenes. */
export async function releaseZipWithVideos(project: Project, db: TraversaDb, projectId: string | null): Promise<ReturnType<typeof releaseZip>> {
  const tours = new Map<string, SceneTourBytes>();
  if (projectId) {
    const stored = new Set(await videoScenes(db, projectId));
    for (const s of project.scenes) {
      if (!stored.has(s.id)) continue;
      const v = await loadSceneVideo(db, projectId, s.id);
      if (v) tours.set(s.id, await sceneTourBytes(v));
    }
  }
  return releaseZip(project, tours);
}

/** A stored video's parts as bytes, for the release layout's files. */
export async function sceneTourBytes(v: import('../persistence/videos.ts').SceneVideo): Promise<SceneTourBytes> {
  const bytes = async (b: Blob) => new Uint8Array(await b.arrayBuffer());
  const frameSets: SceneTourBytes['frameSets'] = {};
  for (const [budget, set] of Object.entries(v.frameSets))
    frameSets[budget as keyof typeof frameSets] = { frames: set.frames, jpegs: await Promise.all(set.jpegs.map(bytes)) };
  return { video: await bytes(v.blob), mime: v.mime, poses: v.poses, frameSets };
}

/** A project name as a file or folder name: word characters, dots and dashes, never starting with a dot (no `..`, no hidden folder). */
export function safeName(name: string): string {
  return name
    .trim()
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '');
}

export function download(name: string, bytes: Uint8Array, type = 'application/zip'): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
