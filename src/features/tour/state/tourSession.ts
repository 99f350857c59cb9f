import { TOUR_DEFAULTS, type TourSettings } from '../../../core/tour/settings.ts';
import { registerSlice, type StudioStore } from '../../../state/store.ts';
import { patchState } from '../../../state/patch.ts';

/** The touring video being recorded (or walked) for a scene; the videos themselves are stored apart (persistence/videos.ts). */
export interface TourStatus {
  sceneId: string | null;
  phase: 'idle' | 'walking' | 'recording' | 'done' | 'failed' | 'cancelled';
  fraction: number;
  message: string;
  stored: number;
  /** What the next recording uses (the Tour panel edits them; kept in this browser). */
  settings: TourSettings;
}
export const IDLE_TOUR: TourStatus = { sceneId: null, phase: 'idle', fraction: 0, message: '', stored: 0, settings: TOUR_DEFAULTS };

declare module '../../../state/store.ts' {
  interface FeatureSlices {
    tour: TourStatus;
  }
}
registerSlice('tour', 'ephemeral', () => IDLE_TOUR);

/** The recording's progress and result (the tour runner's). */
export const setTourStatus = (store: StudioStore, patch: Partial<TourStatus>): void => patchState(store, 'tour', patch);

/** The tour panel's settings (frame rate, field of view, eye height, size). */
export const setTourSettings = (store: StudioStore, settings: TourStatus['settings']): void => setTourStatus(store, { settings });
