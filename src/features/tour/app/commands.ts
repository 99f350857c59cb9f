import type { SceneVideo } from '../../../persistence/videos.ts';
import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import type { TourRunner } from './tour.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** The scene's stored touring video, if it has one. */
    'tour.load': (sceneId: string) => Promise<SceneVideo | undefined>;
    /** Download a part of the scene's stored touring video. */
    'tour.download': (sceneId: string, what: 'video' | 'poses' | 'frames') => void;
  }
}

/** The scenes' touring videos (tour.ts): read the stored one, download its parts. */
export function tourArgCommands(tour: TourRunner): ArgCommandsOf<'tour'> {
  return {
    'tour.load': (sceneId) => tour.load(sceneId),
    'tour.download': (sceneId, what) => void tour.download(sceneId, what),
  };
}
