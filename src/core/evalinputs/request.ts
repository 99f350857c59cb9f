import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { ChatContentPart } from '../scoring/judges/http.ts';
import { formatVideoTime } from '../vqa/citedTimes.ts';
import { VIDEO_MARK, type EvalInput } from './types.ts';

/** Bump when what a cached answer holds, or how a request is made from an input, changes. */
export const ANSWER_CACHE_VERSION = 1;

/**
 * The user message of one input: the prompt's text with the frames where its `<video>` line is,
 * each frame after a caption giving its place and time (`Frame 3/16 (00:12)`). `images` are the
 * frames' URLs (data URLs on the command line) in the input's frame order.
 */
export function chatContent(input: Pick<EvalInput, 'prompt' | 'frames'>, images: readonly string[]): ChatContentPart[] {
  if (images.length !== input.frames.length) throw new Error(`${input.frames.length} frames but ${images.length} images`);
  const at = input.prompt.split('\n').indexOf(VIDEO_MARK);
  const lines = input.prompt.split('\n');
  const before = (at < 0 ? lines : lines.slice(0, at)).join('\n').trimEnd();
  const after =
    at < 0
      ? ''
      : lines
          .slice(at + 1)
          .join('\n')
          .trimStart();
  const parts: ChatContentPart[] = [{ type: 'text', text: before }];
  input.frames.forEach((f, i) => {
    parts.push({ type: 'text', text: `Frame ${i + 1}/${input.frames.length} (${formatVideoTime(f.t)})` });
    parts.push({ type: 'image_url', image_url: { url: images[i]! } });
  });
  if (after) parts.push({ type: 'text', text: after });
  return parts;
}

/** SHA-256 of some bytes, in hex: a frame's digest for `answerKey`. */
export const digest = (bytes: Uint8Array): string => bytesToHex(sha256(bytes));

/**
 * The cache key of an answer: the model, the prompt (its version and text) and the frames (their
 * contents' digests and times). The same prompt and frames asked of the same model are asked once;
 * the endpoint and the key are not part of it (a model is the same model behind another proxy),
 * and nothing secret is.
 */
export function answerKey(model: string, input: Pick<EvalInput, 'promptVersion' | 'prompt' | 'frames'>, frameDigests: readonly string[]): string {
  const what = JSON.stringify([ANSWER_CACHE_VERSION, model, input.promptVersion, input.prompt, input.frames.map((f, i) => [frameDigests[i], f.t])]);
  return digest(utf8ToBytes(what));
}
