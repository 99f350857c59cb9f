import type { AgentProfile } from '../agents.ts';
import { adjacency } from '../graph.ts';
import type { Scene } from '../project.ts';
import { evalPrompt, questionFor } from '../evalinputs/prompt.ts';
import { chatContent } from '../evalinputs/request.ts';
import { VIDEO_MARK } from '../evalinputs/types.ts';
import type { AugmentedTask } from './augment.ts';
import { oracleAnswer } from '../scoring/baselines.ts';

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
 * The answer to train on: the ground truth's own answer to the task, as the oracle baseline gives
 * it (core/scoring/baselines.ts) — a fewest-hop feasible route; or the graph's fewest-hop route and
 * the note on its first hop the agent cannot take, the reason the rule judge checks on that route.
 */
export function targetOf(scene: Scene, task: AugmentedTask): TrainingTarget {
  return oracleAnswer(scene.labels, adjacency(scene.graph), task.agent, task.start.id, task.end.id);
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
