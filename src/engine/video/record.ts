import type { NavGraph } from '../../core/graph.ts';
import type { FrameBudget, SampledFrame, TourPoses } from '../../core/tour/types.ts';
import type { LoadedMesh } from '../mesh/types.ts';
import { planRecordedTour, planTour, type TourPlan, type TourSettings, type WorldPose } from '../tour/poses.ts';
import { aborted, encodeTour } from './encode.ts';
import { createTourRenderer } from './render.ts';

/**
 * A scene's touring video from start to end, the one path the studio and `cli tour` both take:
 * plan the poses (the automatic tour, or a path walked by hand), render each frame and encode it.
 */

export interface TourProgress {
  stage: 'route' | 'render' | 'done';
  /** 0..1 over the whole recording. */
  fraction: number;
  message: string;
}

export interface TourRecording {
  blob: Blob;
  mime: string;
  poses: TourPoses;
  frameSets: Partial<Record<FrameBudget, { frames: SampledFrame[]; jpegs: Blob[] }>>;
  plan: Omit<TourPlan, 'poses' | 'world'>;
  timings: { planMs: number; renderMs: number; frames: number };
}

export interface RecordOptions {
  /** A path walked by hand (world poses with their times); absent, the automatic tour. */
  path?: readonly WorldPose[];
  onProgress?: (p: TourProgress) => void;
  signal?: AbortSignal;
  /** The frame budgets to keep as JPEGs (default all; `cli tour` writes none). */
  budgets?: readonly FrameBudget[];
}

/** Route planning is quick next to rendering; it gets this share of the bar. */
const PLAN_SHARE = 0.1;

export async function recordTour(loaded: LoadedMesh, graph: Pick<NavGraph, 'nodes'>, settings: TourSettings, opts: RecordOptions = {}): Promise<TourRecording> {
  const t0 = performance.now();
  opts.onProgress?.({ stage: 'route', fraction: 0, message: opts.path ? 'Putting the walked path on the floor' : 'Planning the tour through every node' });
  const plan = opts.path ? planRecordedTour(loaded, graph, opts.path, settings) : await planTour(loaded, graph, settings);
  if (opts.signal?.aborted) throw aborted(opts.signal);
  const planMs = performance.now() - t0;
  const renderer = createTourRenderer(loaded, settings);
  try {
    const n = plan.world.length;
    const encoded = await encodeTour(renderer, plan.world, {
      fps: settings.fps,
      width: settings.width,
      height: settings.height,
      signal: opts.signal,
      ...(opts.budgets ? { budgets: opts.budgets } : {}),
      onFrame: (done, total) =>
        opts.onProgress?.({ stage: 'render', fraction: PLAN_SHARE + (1 - PLAN_SHARE) * (done / total), message: `Rendering frame ${done} of ${total}` }),
    });
    opts.onProgress?.({ stage: 'done', fraction: 1, message: `Recorded ${n} frames (${(n / settings.fps).toFixed(1)} s)` });
    const { poses, world: _w, ...rest } = plan;
    return { blob: encoded.blob, mime: encoded.mime, poses, frameSets: encoded.frameSets, plan: rest, timings: { planMs, renderMs: encoded.ms, frames: n } };
  } finally {
    renderer.dispose();
  }
}
