import type { ChatContentPart } from '../scoring/judges/http.ts';
import { formatVideoTime } from '../vqa/citedTimes.ts';
import { PROMPT_VERSION, SYSTEM_PROMPT } from './guideline.ts';

/**
 * The request for tasks: the guideline as the system message; the instruction, the node list and
 * the frames (each an image preceded by its video time, so the model can cite times) as the user
 * message. CapNav gave its generator the whole MP4; a chat endpoint takes images, so the video goes
 * as a frame budget's uniformly sampled frames — the same sets the evaluation uses.
 */
export interface TaskPrompt {
  version: string;
  system: string;
  parts: ChatContentPart[];
}

export interface PromptNode {
  id: string;
  name: string;
  description?: string;
}
/** One frame: its time in the video (seconds) and the image (a `data:image/jpeg;base64,…` URL). */
export interface PromptFrame {
  t: number;
  url: string;
}

export interface TaskPromptInput {
  nodes: readonly PromptNode[];
  frames: readonly PromptFrame[];
  /** At least this many tasks are asked for. */
  minTasks: number;
  /** The video's length in seconds, when known (said to the model, so it does not cite past the end). */
  videoSeconds?: number;
}

/** Names and descriptions are the project's text: one line each, whatever they hold. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `node_117: Master bedroom foyer — carpeted, doors to the bath and the office` (the description only when there is one). */
export function nodeListText(nodes: readonly PromptNode[]): string {
  return nodes
    .map((n) => {
      const name = oneLine(n.name) || '(unnamed)';
      const description = oneLine(n.description ?? '');
      return `${n.id}: ${name}${description ? ` — ${description}` : ''}`;
    })
    .join('\n');
}

export function buildTaskPrompt(input: TaskPromptInput): TaskPrompt {
  if (!Number.isInteger(input.minTasks) || input.minTasks < 1) throw new RangeError(`ask for at least 1 task, not ${input.minTasks}`);
  const n = input.frames.length;
  const length = input.videoSeconds !== undefined ? ` The video lasts ${formatVideoTime(input.videoSeconds)}.` : '';
  const head = [
    `Generate navigation tasks for this space, following the guideline. Give at least ${input.minTasks} task${input.minTasks === 1 ? '' : 's'}.`,
    '',
    'Nodes of the space (id: name — description):',
    nodeListText(input.nodes),
    '',
    `Frames of the walkthrough video: ${n} frame${n === 1 ? '' : 's'}, sampled evenly, in order, each labelled with its video time.${length}`,
  ].join('\n');
  const parts: ChatContentPart[] = [{ type: 'text', text: head }];
  input.frames.forEach((f, i) => {
    parts.push({ type: 'text', text: `Frame ${i + 1}/${n} at ${formatVideoTime(f.t)}` });
    parts.push({ type: 'image_url', image_url: { url: f.url } });
  });
  parts.push({ type: 'text', text: `Reply with the JSON array of at least ${input.minTasks} task${input.minTasks === 1 ? '' : 's'} only.` });
  return { version: PROMPT_VERSION, system: SYSTEM_PROMPT, parts };
}
