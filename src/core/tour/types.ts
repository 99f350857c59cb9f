import { z } from 'zod';

/**
 * The touring video's shapes, shared by the renderer (studio and `cli tour`), the project's video
 * store, task generation, review with evidence and the evaluation inputs (`run-model`).
 *
 * Release layout (beside graphs/, qa/, traverse/):
 *   videos/<SCENE>.mp4 (or .webm when the browser cannot encode H.264)
 *   videos/<SCENE>.poses.json        a TourPoses document
 *   frames/<SCENE>/<budget>/NNN.jpg  uniformly sampled frames, budget one of FRAME_BUDGETS
 *   frames/<SCENE>/<budget>/frames.json  SampledFrame[] in file order
 */

export interface TourPose {
  /** Seconds from the start of the video. */
  t: number;
  /** Camera position in the mesh's frame (metres). */
  position: { x: number; y: number; z: number };
  /** Heading about the up axis (degrees) and look up/down (degrees, 0 level). */
  yawDeg: number;
  pitchDeg: number;
}

export interface NodeInView {
  node: string;
  /** Time intervals [from, to] (seconds, inclusive) in which the node's position is in view. */
  intervals: [number, number][];
}

export interface TourPoses {
  fps: number;
  fovDeg: number;
  eyeHeightM: number;
  width: number;
  height: number;
  up: 'y' | 'z';
  frames: TourPose[];
  nodesInView: NodeInView[];
  /**
   * Legs of an automatic tour with no walkable route (a room reached only by crawling, or not at
   * all): not walked — the video cuts from the one node to the next at `t` — and why. Absent when
   * the tour walks every leg.
   */
  cuts?: TourCut[];
}

export interface TourCut {
  t: number;
  from: string;
  to: string;
  why: string;
}

export const FRAME_BUDGETS = ['16', '32', '64', '1fps'] as const;
export type FrameBudget = (typeof FRAME_BUDGETS)[number];

export interface SampledFrame {
  /** File name inside frames/<SCENE>/<budget>/ (e.g. "000.jpg"). */
  file: string;
  /** Index of the video frame it was taken from, and its time (seconds). */
  index: number;
  t: number;
}

const finite = z.number().finite();
const Pose = z.object({
  t: finite.nonnegative(),
  position: z.object({ x: finite, y: finite, z: finite }),
  yawDeg: finite,
  pitchDeg: finite,
});

/** A poses document as written beside a video (`<video>.poses.json`, videos/<SCENE>.poses.json). */
export const TourPosesSchema = z.object({
  fps: finite.positive().max(120),
  fovDeg: finite.positive().max(179),
  eyeHeightM: finite.nonnegative(),
  // An 8K frame at most: 50,000×50,000 was once taken for an 8 s video.
  width: z.number().int().positive().max(8192),
  height: z.number().int().positive().max(8192),
  up: z.enum(['y', 'z']),
  frames: z.array(Pose),
  nodesInView: z.array(z.object({ node: z.string(), intervals: z.array(z.tuple([finite, finite])) })),
  cuts: z.array(z.object({ t: finite.nonnegative(), from: z.string(), to: z.string(), why: z.string() })).optional(),
});

/**
 * The most frames one frame set lists: an hour of touring video at the 1 fps budget. A frames.json
 * of 100,000 entries once crashed run-model building its prompt (2.6 GB) and kept task generation
 * busy for minutes; every reader refuses it by this schema, naming the file and the limit.
 */
export const MAX_FRAMES_PER_SET = 3_600;

/** The largest frame read, on the command line and at studio import (a 640×480 JPEG is ~50 kB; a 4K one a few MB). */
export const MAX_FRAME_BYTES = 32 * 2 ** 20;

/** Whether bytes start as a JPEG does (SOI, then a marker): what every frame must be. */
export const isJpegStart = (head: Uint8Array): boolean => head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;

export const SampledFramesSchema = z
  .array(z.object({ file: z.string(), index: z.number().int().nonnegative(), t: finite.nonnegative() }))
  .max(MAX_FRAMES_PER_SET, { message: `a frame set lists at most ${MAX_FRAMES_PER_SET.toLocaleString('en')} frames (an hour of touring video at 1 fps)` });

/** What the task panel and the review player need to know of a scene's stored video. */
export type VideoInfo =
  { state: 'none' } | { state: 'error'; message: string } | { state: 'ready'; seconds: number; budgets: { budget: FrameBudget; count: number }[] };
