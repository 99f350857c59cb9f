import type { AgentProfile } from '../agents.ts';
import { adjacency } from '../graph.ts';
import { labelFor } from '../labels.ts';
import type { Scene } from '../project.ts';
import { evalPrompt, questionFor } from '../evalinputs/prompt.ts';
import { chatContent } from '../evalinputs/request.ts';
import { VIDEO_MARK } from '../evalinputs/types.ts';
import type { AugmentedTask } from './augment.ts';

/**
 * Training exports (issue 27 §3): an augmented task as one line of the JSONL that fine-tuning code
 * reads — the evaluation prompt (CapNav B.1) with the scene's frames, and as the reply the answer
 * in the runner's JSON format, the one `score` and `reward` read back.
 *   openai:   {"messages": [{"role": "user", "content": [text, image_url…]}, {"role": "assistant", "content": "…"}]}
 *   sharegpt: {"id", "images": [...], "conversations": [{"from": "human", "value": "<image>…"}, {"from": "gpt", "value": "…"}]}
 * (LLaVA's and ShareGPT's layout). Each line also carries `traversa` (task id, scene, agent) so a
 * line can be traced back and checked for leakage.
 */
export const TRAINING_FORMATS = ['openai', 'sharegpt'] as const;
export type TrainingFormat = (typeof TRAINING_FORMATS)[number];

export interface TrainingTarget {
  answer: 'yes' | 'no';
  /** Node ids, start to end. */
  path: string[];
  reason: string;
}

/** What a line holds, read back. */
export interface TrainingLine {
  task: string;
  scene: string;
  agent: string;
  prompt: string;
  images: string[];
  target: TrainingTarget;
}

/**
 * The answer to train on: for a feasible task its feasible route; for an infeasible one the graph's
 * fewest-hop route (what an agent would try) and the notes of its hops the agent cannot take — the
 * reason the rule judge checks against that same route.
 */
export function targetOf(scene: Scene, task: AugmentedTask): TrainingTarget {
  if (task.feasible && task.route) return { answer: 'yes', path: task.route, reason: '' };
  const path = shortest(adjacency(scene.graph), task.start.id, task.end.id) ?? [task.start.id, task.end.id];
  const notes: string[] = [];
  for (let i = 1; i < path.length; i++) {
    const l = labelFor(scene.labels, task.agent, path[i - 1]!, path[i]!);
    const note = !l ? `${path[i - 1]}–${path[i]} is not known to be passable` : l.traversable ? '' : l.note.trim() || (l.reason ?? 'not traversable');
    if (note && !notes.includes(note)) notes.push(note);
  }
  return { answer: 'no', path, reason: notes.join('; ') };
}

/** One training line for `task`, its frames given as paths (relative to the export) with their times. */
export function trainingLine(
  scene: Scene,
  profile: AgentProfile,
  task: AugmentedTask,
  frames: readonly { file: string; t: number }[],
  format: TrainingFormat,
): Record<string, unknown> {
  const prompt = evalPrompt({ question: task.question, profile, graph: scene.graph, frameCount: frames.length });
  const reply = JSON.stringify([{ question: questionFor(task.question, profile.name), agent: profile.name, result: targetOf(scene, task) }]);
  const traversa = { task: task.id, scene: task.scene, agent: task.agent };
  if (format === 'openai') {
    const content = chatContent(
      { prompt, frames: [...frames] },
      frames.map((f) => f.file),
    );
    return {
      messages: [
        { role: 'user', content },
        { role: 'assistant', content: reply },
      ],
      traversa,
    };
  }
  const value = prompt.replace(VIDEO_MARK, frames.map(() => '<image>').join('\n'));
  return {
    id: task.id,
    images: frames.map((f) => f.file),
    conversations: [
      { from: 'human', value },
      { from: 'gpt', value: reply },
    ],
    traversa,
  };
}

/** A line of an export read back (the round trip a trainer's loader makes); throws on a line of another shape. */
export function readTrainingLine(line: string, format: TrainingFormat): TrainingLine {
  const o = JSON.parse(line) as Record<string, unknown>;
  const t = o.traversa as { task: string; scene: string; agent: string };
  let prompt: string, images: string[], reply: string;
  if (format === 'openai') {
    const [user, assistant] = o.messages as [{ content: { type: string; text?: string; image_url?: { url: string } }[] }, { content: string }];
    prompt = user.content.flatMap((p) => (p.type === 'text' ? [p.text!] : [])).join('\n');
    images = user.content.flatMap((p) => (p.type === 'image_url' ? [p.image_url!.url] : []));
    reply = assistant.content;
  } else {
    const [human, gpt] = o.conversations as [{ value: string }, { value: string }];
    prompt = human.value;
    images = o.images as string[];
    if (human.value.split('<image>').length - 1 !== images.length) throw new Error(`${images.length} images but another count of <image> tokens`);
    reply = gpt.value;
  }
  const [answer] = JSON.parse(reply) as [{ result: TrainingTarget }];
  return { task: t.task, scene: t.scene, agent: t.agent, prompt, images, target: answer.result };
}

function shortest(adj: Map<string, string[]>, s: string, t: string): string[] | null {
  const prev = new Map<string, string | null>([[s, null]]);
  const queue = [s];
  for (let i = 0; i < queue.length && !prev.has(t); i++)
    for (const v of adj.get(queue[i]!) ?? [])
      if (!prev.has(v)) {
        prev.set(v, queue[i]!);
        queue.push(v);
      }
  if (!prev.has(t)) return null;
  const path: string[] = [];
  for (let x: string | null = t; x !== null; x = prev.get(x)!) path.unshift(x);
  return path;
}
