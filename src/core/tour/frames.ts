import type { FrameBudget, SampledFrame } from './types.ts';
import { round } from './view.ts';

/**
 * The frames of a budget, uniformly sampled from a video of `count` frames at `fps`: 16, 32 or 64
 * frames spread evenly from the first frame to the last (both kept; never the same frame twice, so
 * a video shorter than the budget gives every frame it has), or one frame per second of video.
 */
export function sampleFrameIndices(budget: FrameBudget, count: number, fps: number): number[] {
  if (count <= 0) return [];
  if (budget === '1fps') {
    const out: number[] = [];
    for (let s = 0; Math.round(s * fps) < count; s++) out.push(Math.round(s * fps));
    return [...new Set(out)];
  }
  const want = Number(budget);
  if (count <= want) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: want }, (_, i) => Math.round((i * (count - 1)) / (want - 1)));
}

/** The SampledFrame list of a budget: files 000.jpg, 001.jpg, … in order. */
export function sampledFrames(indices: readonly number[], fps: number): SampledFrame[] {
  const width = Math.max(3, String(Math.max(0, indices.length - 1)).length);
  return indices.map((index, i) => ({ file: `${String(i).padStart(width, '0')}.jpg`, index, t: round(index / fps) }));
}
