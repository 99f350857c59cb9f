import { houseScene, Q, releaseFiles, writeReleaseDir } from './releaseBuilder.ts';
import { writeFrameSet } from './frameSets.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { traversaWith } from './cli.ts';
import { promptText, startFakeChat, type ChatBody, type FakeChat, type FakeReply } from './fakeChat.ts';

/**
 * The small release run-model's tests ask a fake model about (or several copies of it, under other scene ids): the two-storey house with three
 * questions — hall → master bedroom (over the stairs), kitchen → living room, and the garage
 * question the traverse file lists as hallucinated — for the five agents, and a frame set of
 * four frames at budget 16. Ground truth: only the human can do either trip.
 */
export const HOUSE = 'HM3D00025';
export const ASKED = [Q.hallToBedroom, Q.kitchenToLiving] as const;
export const AGENTS = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'] as const;

export function houseRelease(frames = 4, scenes: readonly string[] = [HOUSE]): string {
  const specs = scenes.map((id) => {
    const scene = houseScene(id);
    const [toBedroom, , garage] = scene.qa;
    const toLiving = {
      ...toBedroom!,
      question: Q.kitchenToLiving,
      nodes_involved: { start: 'node_2', start_detail: 'by the sink', intermediate: [], end: 'Living room', end_detail: 'by the sofa' },
    };
    return { ...scene, qa: [toBedroom!, toLiving, garage!] };
  });
  const dir = writeReleaseDir(releaseFiles(specs), 'traversa-runmodel-gt-');
  if (frames > 0) for (const id of scenes) writeFrameSet(dir, id, '16', frames);
  return dir;
}

const FULL = ['node_1', 'node_3', 'node_5', 'node_12', 'node_8'];
const SHORT = ['node_2', 'node_3'];
const item = (question: string, agent: string, answer: unknown, path: unknown, reason = '') => ({ question, agent, result: { answer, path, reason } });

/**
 * What the fake model says, by agent and question (0: hall → bedroom, 1: kitchen → living room),
 * in the forms real models answer in. Against the ground truth: HUMAN right then wrong (TP, FN);
 * HUMANOID's yes over the stairs wrong (FP, 3 of 4 hops traversable); QUADRUPEDAL unreadable, then
 * a wrong yes over an unlabelled edge (FP, RTA 0); every other "no" right (TN).
 */
export const SCRIPT: Record<string, [string, string]> = {
  HUMAN: [
    '```json\n' + JSON.stringify([item(Q.hallToBedroom.replace('[Agent]', 'HUMAN'), 'HUMAN', 'yes', FULL)]) + '\n```',
    JSON.stringify({ answer: 'no', path: SHORT, reason: 'The kitchen door is closed' }),
  ],
  WHEELCHAIR: [
    JSON.stringify([item('…', 'WHEELCHAIR', 'no', FULL, 'Stairs between the living room and the landing')]),
    'Answer: (B) False | Path: node_2 -> node_3 | Reason: the passage is too narrow',
  ],
  HUMANOID: [
    '<think>The stairs are 0.18 m each, below 0.4 m.</think>\n' + JSON.stringify([item('…', 'HUMANOID', 'yes', FULL)]),
    JSON.stringify([item('…', 'HUMANOID', 'no', SHORT, 'Doorway too narrow for 0.9 m')]),
  ],
  QUADRUPEDAL: [
    'I cannot tell from these frames whether the dog can make it.',
    'Here is my answer:\n' + JSON.stringify([item('…', 'QUADRUPEDAL', 'yes', SHORT)]) + '\nHope this helps.',
  ],
  SWEEPER: [JSON.stringify([item('…', 'SWEEPER', 'no', FULL, 'Stairs')]), JSON.stringify([item('…', 'SWEEPER', 'no', SHORT, 'Threshold higher than 0.02 m')])],
};

/** Which agent and question a request is about, read off its prompt. */
export function askedAbout(body: ChatBody): { agent: string; question: number } {
  const text = promptText(body);
  const agent = /2\.Agent Profile \(([^)]+)\)/.exec(text)?.[1] ?? '';
  const question = ASKED.findIndex((q) => text.includes(q.replace('[Agent]', agent)));
  return { agent, question };
}

/** The scripted reply to a request. */
export function scriptedReply(body: ChatBody): FakeReply {
  const { agent, question } = askedAbout(body);
  const content = SCRIPT[agent]?.[question];
  return content === undefined ? { status: 400, content: `unexpected prompt (agent ${agent}, question ${question})` } : { content };
}

export const RUN_KEY = 'sk-test-9f8e7d6c5b4a39281706';
export const RUN_ENV = { TRAVERSA_VLM_KEY: RUN_KEY, TRAVERSA_VLM_RETRY_MS: '1' };
/** The results folder run-model writes for model fake-vlm at budget 16. */
export const SETTING = 'fake-vlm_16f';

/**
 * Temporary folders and fake chat endpoints for one test file, removed after it (the endpoints
 * after each test), and `run-model` as a user runs it against them.
 */
export function modelRunHarness() {
  const made: string[] = [];
  const servers: FakeChat[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  const cli = (args: string[], env: Record<string, string> = RUN_ENV) => traversaWith({ limitMs: 120_000, env }, ...args);
  return {
    temp: (prefix: string) => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      made.push(d);
      return d;
    },
    serve: async (...a: Parameters<typeof startFakeChat>) => {
      const s = await startFakeChat(...a);
      servers.push(s);
      return s;
    },
    cli,
    runModel: (gt: string, url: string, out: string, more: string[] = [], env: Record<string, string> = {}) =>
      cli(['run-model', '--gt', gt, '--frames', '16', '--endpoint', url, '--model', 'fake-vlm', '--out', out, ...more], { ...RUN_ENV, ...env }),
  };
}
