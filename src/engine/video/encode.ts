import { BufferTarget, CanvasSource, Mp4OutputFormat, Output, QUALITY_HIGH, WebMOutputFormat, canEncodeVideo } from 'mediabunny';
import { sampleFrameIndices, sampledFrames } from '../../core/tour/frames.ts';
import { FRAME_BUDGETS, type FrameBudget, type SampledFrame } from '../../core/tour/types.ts';
import type { WorldPose } from '../tour/poses.ts';
import type { TourRenderer } from './render.ts';
import { yieldNow } from '../yieldNow.ts';

/**
 * Frames rendered one by one and encoded with WebCodecs through mediabunny: MP4 with H.264 where
 * the browser can encode it (`VideoEncoder.isConfigSupported`, asked through mediabunny), else
 * WebM with VP9. Each frame lasts 1 / fps, so the video holds exactly one frame per pose. The
 * frames of the frame budgets (16, 32, 64 and one per second) are kept as JPEGs on the way.
 * The page is given back between frames, so it stays responsive; the signal cancels.
 */

export interface EncodedTour {
  blob: Blob;
  mime: string;
  codec: 'avc' | 'vp9';
  frameSets: Partial<Record<FrameBudget, { frames: SampledFrame[]; jpegs: Blob[] }>>;
  /** Wall time of the render and encode, ms. */
  ms: number;
}

export interface EncodeOptions {
  fps: number;
  width: number;
  height: number;
  budgets?: readonly FrameBudget[];
  onFrame?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function chooseCodec(width: number, height: number): Promise<'avc' | 'vp9'> {
  if (await canEncodeVideo('avc', { width, height })) return 'avc';
  if (await canEncodeVideo('vp9', { width, height })) return 'vp9';
  throw new Error(`this browser can encode neither H.264 nor VP9 video at ${width}×${height} (WebCodecs)`);
}

/** Why a recording stopped: the signal's reason, or a cancellation. */
export const aborted = (signal?: AbortSignal): unknown => signal?.reason ?? new DOMException('The recording was cancelled', 'AbortError');

export async function encodeTour(renderer: TourRenderer, poses: readonly WorldPose[], opts: EncodeOptions): Promise<EncodedTour> {
  const started = performance.now();
  if (typeof VideoEncoder === 'undefined')
    throw new Error('this browser has no WebCodecs video encoder (VideoEncoder); use a current Chromium, on a page served over https or from localhost');
  const codec = await chooseCodec(opts.width, opts.height);
  const format = codec === 'avc' ? new Mp4OutputFormat({ fastStart: 'in-memory' }) : new WebMOutputFormat();
  const output = new Output({ format, target: new BufferTarget() });
  const source = new CanvasSource(renderer.canvas, { codec, quality: QUALITY_HIGH, keyFrameInterval: 1 });
  output.addVideoTrack(source, { frameRate: opts.fps });
  const budgets = opts.budgets ?? FRAME_BUDGETS;
  const picks = new Map(budgets.map((b) => [b, sampleFrameIndices(b, poses.length, opts.fps)]));
  const wanted = new Set([...picks.values()].flat());
  const jpegs = new Map<number, Blob>();
  try {
    await output.start();
    for (let k = 0; k < poses.length; k++) {
      if (opts.signal?.aborted) throw aborted(opts.signal);
      renderer.render(poses[k]!);
      await source.add(k / opts.fps, 1 / opts.fps);
      if (wanted.has(k)) jpegs.set(k, await jpegOf(renderer.canvas));
      opts.onFrame?.(k + 1, poses.length);
      await yieldNow();
    }
    if (opts.signal?.aborted) throw aborted(opts.signal);
    await output.finalize();
  } catch (e) {
    if (output.state !== 'finalized' && output.state !== 'canceled') await output.cancel().catch(() => {});
    throw e;
  }
  const buffer = output.target.buffer;
  if (!buffer) throw new Error('the encoder produced no video');
  const frameSets: EncodedTour['frameSets'] = {};
  for (const [budget, indices] of picks) frameSets[budget] = { frames: sampledFrames(indices, opts.fps), jpegs: indices.map((i) => jpegs.get(i)!) };
  return { blob: new Blob([buffer], { type: format.mimeType }), mime: format.mimeType, codec, frameSets, ms: performance.now() - started };
}

async function jpegOf(canvas: OffscreenCanvas | HTMLCanvasElement): Promise<Blob> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the frame could not be saved as JPEG'))), 'image/jpeg', 0.85),
  );
}
