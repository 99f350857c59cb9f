import type { NavGraph } from '../graph.ts';
import type { TourSettings } from './settings.ts';
import type { FrameBudget, SampledFrame, TourPoses } from './types.ts';

/**
 * What `cli tour` hands the tour page it drives in headless Chromium (features/tour/app/tourPage.ts)
 * and what the page gives back: the page's side of src/cli/tourBrowser.ts.
 */

export interface TourJob {
  /** URLs of the scan's files (the main file first), with their names. */
  files: { name: string; url: string }[];
  graph: Pick<NavGraph, 'nodes'>;
  settings: TourSettings;
  up: 'y' | 'z';
  /** Where to POST the video's bytes. */
  upload: string;
  /** The frame budgets to keep (none when absent), each JPEG POSTed once to `<frames>/<video frame index>`. */
  budgets?: FrameBudget[];
  frames?: string;
}

export interface TourJobResult {
  mime: string;
  codec: string;
  poses: TourPoses;
  /** Each budget's frames (the studio's sampling: core/tour/frames.ts), their JPEGs posted by video frame index. */
  frameSets: Partial<Record<FrameBudget, SampledFrame[]>>;
  order: string[];
  skippedLegs: { from: string; to: string; why: string }[];
  unseen: string[];
  timings: { loadMs: number; planMs: number; renderMs: number; frames: number };
}
