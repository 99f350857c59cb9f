import type { AgentProfile } from '../agents.ts';
import { adjacency } from '../graph.ts';
import type { Scene } from '../project.ts';
import { evalPrompt, questionFor } from '../evalinputs/prompt.ts';
import { aroundVideo, chatContent } from '../evalinputs/request.ts';
import { VIDEO_MARK } from '../evalinputs/types.ts';
import type { AugmentedTask } from './augment.ts';
import { oracleAnswer } from '../scoring/baselines.ts';

/**
 * Training exports (issue 27 §3): an augmented task as one line of the JSONL that fine-tuning code
 * reads — the evaluation prompt (CapNav B.1) with the scene's frames (or its touring video), and as
 * the reply the answer in the runner's JSON format, the one `score` and `reward` read back.
 *   openai:   {"messages": [{"role": "user", "content": [text, image_url…]}, {"role": "assistant", "content": "…"}]}
 *             a video: one {"type": "video_url", "video_url": {"url": …}} part where the frames go
 *   sharegpt: {"id", "images": [...], "conversations": [{"from": "human", "value": "<image>…"}, {"from": "gpt", "value": "…"}]}
 *             a video: "videos": [file] and one <video> token
 * (LLaVA's and ShareGPT's layout; LLaMA-Factory reads `images`/`videos` so). Each line also carries
 * `traversa` (task id, scene, agent) so a line can be traced back and checked for leakage.
 */
export const TRAINING_FORMATS = ['openai', 'sharegpt'] as const;
export type TrainingFormat = (typeof TRAINING_FORMATS)[number];

export interface TrainingTarget {
  answer: 'yes' | 'no';
  /** Node ids, start to end. */
  path: string[];
  reason: string;
}

/** What a line shows of the scene: frames (paths relative to the export, with their times) or the touring video. */
export type TrainingMedia = { kind: 'frames'; frames: readonly { file: string; t: number }[] } | { kind: 'video'; file: string };

/** What a line holds, read back. */
export interface TrainingLine {
  task: string;
  scene: string;
  agent: string;
  prompt: string;
  images: string[];
  videos: string[];
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

/** One training line for `task`, showing the scene by `media`. */
export function trainingLine(scene: Scene, profile: AgentProfile, task: AugmentedTask, media: TrainingMedia, format: TrainingFormat): Record<string, unknown> {
  const frames = media.kind === 'frames' ? media.frames : [];
  const prompt = evalPrompt({ question: task.question, profile, graph: scene.graph, frameCount: media.kind === 'frames' ? frames.length : null });
  const reply = JSON.stringify([{ question: questionFor(task.question, profile.name), agent: profile.name, result: targetOf(scene, task) }]);
  const traversa = { task: task.id, scene: task.scene, agent: task.agent };
  if (format === 'openai') {
    const { before, after } = aroundVideo(prompt);
    const content =
      media.kind === 'frames'
        ? chatContent(
            { prompt, frames: [...frames] },
            frames.map((f) => f.file),
          )
        : [
            { type: 'text', text: before },
            { type: 'video_url', video_url: { url: media.file } },
            { type: 'text', text: after },
          ];
    return {
      messages: [
        { role: 'user', content },
        { role: 'assistant', content: reply },
      ],
      traversa,
    };
  }
  const shown = media.kind === 'frames' ? { images: frames.map((f) => f.file) } : { videos: [media.file] };
  const value = prompt.replace(VIDEO_MARK, media.kind === 'frames' ? frames.map(() => '<image>').join('\n') : '<video>');
  return {
    id: task.id,
    ...shown,
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
  let prompt: string, images: string[], videos: string[], reply: string;
  if (format === 'openai') {
    type Part = { type: string; text?: string; image_url?: { url: string }; video_url?: { url: string } };
    const [user, assistant] = o.messages as [{ content: Part[] }, { content: string }];
    prompt = user.content.flatMap((p) => (p.type === 'text' ? [p.text!] : [])).join('\n');
    images = user.content.flatMap((p) => (p.type === 'image_url' ? [p.image_url!.url] : []));
    videos = user.content.flatMap((p) => (p.type === 'video_url' ? [p.video_url!.url] : []));
    reply = assistant.content;
  } else {
    const [human, gpt] = o.conversations as [{ value: string }, { value: string }];
    prompt = human.value;
    images = (o.images as string[] | undefined) ?? [];
    videos = (o.videos as string[] | undefined) ?? [];
    for (const [token, list] of [
      ['<image>', images],
      ['<video>', videos],
    ] as const)
      if (human.value.split(token).length - 1 !== list.length) throw new Error(`${list.length} ${token} files but another count of ${token} tokens`);
    reply = gpt.value;
  }
  const [answer] = JSON.parse(reply) as [{ result: TrainingTarget }];
  return { task: t.task, scene: t.scene, agent: t.agent, prompt, images, videos, target: answer.result };
}
