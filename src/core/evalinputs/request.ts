import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { ChatContentPart } from '../scoring/judges/http.ts';
import { formatVideoTime } from '../vqa/citedTimes.ts';
import { DEPTH_PREVIEW_FAR_M, MAP_CUT_M } from './spatial.ts';
import { VIDEO_MARK, type EvalInput } from './types.ts';

/** Bump when what a cached answer holds, or how a request is made from an input, changes. */
export const ANSWER_CACHE_VERSION = 1;

/** The URLs of an input's depth frames and maps, in its order, when it has them. */
export interface SpatialImages {
  depth?: readonly string[];
  maps?: readonly string[];
}

/** The prompt's text before and after its VIDEO_MARK line (all of it before, when it has none). */
export function aroundVideo(prompt: string): { before: string; after: string } {
  const lines = prompt.split('\n');
  const at = lines.indexOf(VIDEO_MARK);
  if (at < 0) return { before: prompt.trimEnd(), after: '' };
  return {
    before: lines.slice(0, at).join('\n').trimEnd(),
    after: lines
      .slice(at + 1)
      .join('\n')
      .trimStart(),
  };
}

/**
 * The user message of one input: the prompt's text with the frames where its `<video>` line is,
 * each frame after a caption giving its place and time (`Frame 3/16 (00:12)`). `images` are the
 * frames' URLs (data URLs on the command line) in the input's frame order. An input with depth
 * frames or maps has them after the frames, each kind after a line saying what it is.
 */
export function chatContent(
  input: Pick<EvalInput, 'prompt' | 'frames' | 'depthFrames' | 'maps'>,
  images: readonly string[],
  spatial: SpatialImages = {},
): ChatContentPart[] {
  if (images.length !== input.frames.length) throw new Error(`${input.frames.length} frames but ${images.length} images`);
  if ((input.depthFrames?.length ?? 0) !== (spatial.depth?.length ?? 0))
    throw new Error(`${input.depthFrames?.length ?? 0} depth frames but ${spatial.depth?.length ?? 0} images`);
  if ((input.maps?.length ?? 0) !== (spatial.maps?.length ?? 0)) throw new Error(`${input.maps?.length ?? 0} maps but ${spatial.maps?.length ?? 0} images`);
  const { before, after } = aroundVideo(input.prompt);
  const parts: ChatContentPart[] = [{ type: 'text', text: before }];
  input.frames.forEach((f, i) => {
    parts.push({ type: 'text', text: `Frame ${i + 1}/${input.frames.length} (${formatVideoTime(f.t)})` });
    parts.push({ type: 'image_url', image_url: { url: images[i]! } });
  });
  const depth = input.depthFrames ?? [];
  if (depth.length) {
    parts.push({
      type: 'text',
      text:
        `Depth frames: the same views as the ${depth.length} frames above, in the same order, rendered from the scene's 3D scan at the tour camera's poses. ` +
        `Grey is the distance along the view: white at the camera, black at ${DEPTH_PREVIEW_FAR_M} m or farther (and where nothing was hit).`,
    });
    depth.forEach((f, i) => {
      parts.push({ type: 'text', text: `Depth ${i + 1}/${depth.length} (${formatVideoTime(f.t)})` });
      parts.push({ type: 'image_url', image_url: { url: spatial.depth![i]! } });
    });
  }
  const maps = input.maps ?? [];
  if (maps.length) {
    parts.push({
      type: 'text',
      text:
        `Top-down maps, one per floor, rendered from the scene's 3D scan: seen from straight above and cut ${MAP_CUT_M} m above the floor (the floor light, what stands on it darker the higher it is; white: nothing). ` +
        'Each node is a red disc with its number beside it.',
    });
    maps.forEach((m, i) => {
      parts.push({ type: 'text', text: `Map of floor ${m.floor}; markers: ${m.markers.map((k) => `${k.label} = ${k.node}`).join(', ')}` });
      parts.push({ type: 'image_url', image_url: { url: spatial.maps![i]! } });
    });
  }
  if (after) parts.push({ type: 'text', text: after });
  return parts;
}

/** SHA-256 of some bytes, in hex: a frame's digest for `answerKey`. */
export const digest = (bytes: Uint8Array): string => bytesToHex(sha256(bytes));

/**
 * The cache key of an answer: the model, the prompt (its version and text), the frames (their
 * contents' digests and times) and the depth frames and maps (their digests). The same prompt and
 * images asked of the same model are asked once; the endpoint and the key are not part of it (a
 * model is the same model behind another proxy), and nothing secret is.
 */
export function answerKey(
  model: string,
  input: Pick<EvalInput, 'promptVersion' | 'prompt' | 'frames'>,
  frameDigests: readonly string[],
  spatialDigests: readonly string[] = [],
): string {
  const key = [ANSWER_CACHE_VERSION, model, input.promptVersion, input.prompt, input.frames.map((f, i) => [frameDigests[i], f.t])];
  // The depth frames' and maps' digests, when there are any (a key without them is the key of before).
  const what = JSON.stringify(spatialDigests.length ? [...key, spatialDigests] : key);
  return digest(utf8ToBytes(what));
}
