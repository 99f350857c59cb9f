import type { VideoInfo } from '../../../core/tour/types.ts';
import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import { videoSeconds, type TaskGenerator } from './taskGeneration.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** Ask the endpoint for tasks with the task panel's settings; the valid ones join the review queue (one undo step). */
    'tasks.generate': () => Promise<void>;
    'tasks.cancel': () => void;
    /** What the scene's stored video offers (its length and frame sets), or that it has none. */
    'tasks.videoInfo': (sceneId: string) => Promise<VideoInfo>;
    /** The scene's stored video file and its length in seconds, or null when it has none. */
    'tasks.videoFile': (sceneId: string) => Promise<{ blob: Blob; seconds: number } | null>;
  }
}

/** Navigation tasks generated from the selected scene's video (taskGeneration.ts), and the video for review. */
export function taskArgCommands(tasks: TaskGenerator): ArgCommandsOf<'tasks'> {
  return {
    'tasks.generate': () => tasks.run(),
    'tasks.cancel': () => tasks.cancel(),
    'tasks.videoInfo': (sceneId) => tasks.videoInfo(sceneId),
    'tasks.videoFile': async (sceneId) => {
      const v = await tasks.sceneVideo(sceneId);
      return v ? { blob: v.blob, seconds: videoSeconds(v.poses) } : null;
    },
  };
}
