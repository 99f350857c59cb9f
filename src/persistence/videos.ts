import { FRAME_BUDGETS, SampledFramesSchema, TourPosesSchema, type FrameBudget, type SampledFrame, type TourPoses } from '../core/tour/types.ts';
import type { TraversaDb } from './db.ts';

/** A scene's touring video as the studio uses it. */
export interface SceneVideo {
  blob: Blob;
  mime: string;
  poses: TourPoses;
  frameSets: Partial<Record<FrameBudget, { frames: SampledFrame[]; jpegs: Blob[] }>>;
}

export async function saveSceneVideo(db: TraversaDb, projectId: string, sceneId: string, video: SceneVideo): Promise<void> {
  const frameSets = Object.entries(video.frameSets).map(([budget, set]) => ({ budget, frames: set.frames, jpegs: set.jpegs }));
  await db.videos.put({ p: projectId, sceneId, savedAt: Date.now(), blob: video.blob, mime: video.mime, poses: video.poses, frameSets });
}

/**
 * The stored video of a scene, or undefined. A row whose poses or frame lists do not read is
 * reported (thrown with the reason) rather than shown wrong; it stays stored.
 */
export async function loadSceneVideo(db: TraversaDb, projectId: string, sceneId: string): Promise<SceneVideo | undefined> {
  const row = await db.videos.get([projectId, sceneId]);
  if (!row) return undefined;
  const poses = TourPosesSchema.safeParse(row.poses);
  if (!poses.success) throw new Error(`the stored video of ${sceneId} has unreadable poses: ${poses.error.issues[0]?.message ?? 'invalid'}`);
  const frameSets: SceneVideo['frameSets'] = {};
  for (const set of row.frameSets) {
    const frames = SampledFramesSchema.safeParse(set.frames);
    if (!(FRAME_BUDGETS as readonly string[]).includes(set.budget) || !frames.success || frames.data.length !== set.jpegs.length) {
      throw new Error(`the stored video of ${sceneId} has an unreadable frame set "${set.budget}"`);
    }
    frameSets[set.budget as FrameBudget] = { frames: frames.data, jpegs: set.jpegs };
  }
  return { blob: row.blob, mime: row.mime, poses: poses.data, frameSets };
}

/** Scenes of a project that have a stored video. */
export async function videoScenes(db: TraversaDb, projectId: string): Promise<string[]> {
  const keys = (await db.videos.where('p').equals(projectId).primaryKeys()) as [string, string][];
  return keys.map(([, sceneId]) => sceneId);
}
