import type { AgentName } from './agents.ts';
import { buildBlockCutTree } from './blockCutTree.ts';
import { adjacency, parseSegmentKey, segmentKey } from './graph.ts';
import { labelFor, type Label } from './labels.ts';
import type { Scene } from './project.ts';
import { isHallucinated } from './project.ts';
import { resolvedWaypoints } from './questions.ts';
import { workList } from './worklist.ts';

/** One thing to decide: one agent, one directed segment, in the question it is decided for. */
export interface QueueItem {
  questionIndex: number;
  agent: AgentName;
  from: string;
  to: string;
}

export const itemKey = (i: QueueItem) => `${i.questionIndex}:${i.agent}:${segmentKey(i.from, i.to)}`;

/** Hops from `start` over the whole graph (unreachable nodes are absent). */
function distancesFrom(adj: Map<string, string[]>, start: string): Map<string, number> {
  const dist = new Map([[start, 0]]);
  const queue = [start];
  for (let h = 0; h < queue.length; h++) {
    const u = queue[h]!;
    for (const v of adj.get(u) ?? [])
      if (!dist.has(v)) {
        dist.set(v, dist.get(u)! + 1);
        queue.push(v);
      }
  }
  return dist;
}

/**
 * The labelling queue of a scene: for every benchmark question (not hallucinated, references
 * resolved), every agent, every segment of its work list — oriented the way a route from the
 * question's start walks it (nearer node first), as the release's directed keys are.
 */
export function buildQueue(scene: Scene, agents: readonly AgentName[], held: ReadonlySet<number> = new Set()): QueueItem[] {
  const bct = buildBlockCutTree(scene.graph);
  const adj = adjacency(scene.graph);
  const items: QueueItem[] = [];
  scene.questions.forEach((q, questionIndex) => {
    // `held`: generated tasks waiting for review (core/taskgen/unreviewed.ts) are not labelled yet.
    if (isHallucinated(scene, q.text) || held.has(questionIndex)) return;
    const wps = resolvedWaypoints(q);
    if (!wps) return;
    const dist = distancesFrom(adj, wps[0]!);
    const segments = workList(scene.graph, wps, bct)
      .map((k) => {
        const { from: a, to: b } = parseSegmentKey(k)!;
        return (dist.get(a) ?? Infinity) <= (dist.get(b) ?? Infinity) ? { from: a, to: b } : { from: b, to: a };
      })
      .sort((x, y) => (dist.get(x.from) ?? 0) - (dist.get(y.from) ?? 0) || (x.from < y.from ? -1 : x.from > y.from ? 1 : 0));
    for (const agent of agents) for (const s of segments) items.push({ questionIndex, agent, ...s });
  });
  return items;
}

/**
 * The label that already decides an item (one label per agent per segment, reused across
 * questions). For a named annotator on a scene others label too, an item is theirs to decide until
 * they have voted on it themselves (so each annotator labels independently, for agreement) —
 * unless the segment has been adjudicated, or only an unnamed baseline (an imported release) labels it.
 */
export function existingLabel(scene: Scene, item: QueueItem, annotator = ''): Label | undefined {
  const inForce = labelFor(scene.labels, item.agent, item.from, item.to);
  const me = annotator.trim();
  if (!me || !inForce || !scene.votes) return inForce;
  const segs = [`${item.from}|${item.to}`, `${item.to}|${item.from}`];
  if (segs.some((seg) => scene.adjudications?.[item.agent]?.[seg])) return inForce;
  const votes = segs.map((seg) => scene.votes?.[item.agent]?.[seg]).filter((v) => v !== undefined);
  const mine = votes.find((v) => v[me])?.[me];
  if (mine) return mine;
  return votes.some((v) => Object.keys(v).some((who) => who !== '')) ? undefined : inForce;
}

export interface Progress {
  done: number;
  total: number;
}

export interface QueueProgress {
  scene: Progress;
  byAgent: Record<AgentName, Progress>;
  byQuestion: Record<number, Progress>;
  byQuestionAgent: Record<string, Progress>;
}

const bump = (p: Progress | undefined, done: boolean): Progress => ({ done: (p?.done ?? 0) + (done ? 1 : 0), total: (p?.total ?? 0) + 1 });

/** Labelled out of needed, for the scene, each agent, each question, and each question × agent. */
export function queueProgress(scene: Scene, items: readonly QueueItem[], annotator = ''): QueueProgress {
  const out: QueueProgress = { scene: { done: 0, total: 0 }, byAgent: {}, byQuestion: {}, byQuestionAgent: {} };
  for (const item of items) {
    const done = existingLabel(scene, item, annotator) !== undefined;
    out.scene = bump(out.scene, done);
    out.byAgent[item.agent] = bump(out.byAgent[item.agent], done);
    out.byQuestion[item.questionIndex] = bump(out.byQuestion[item.questionIndex], done);
    const qa = `${item.questionIndex}:${item.agent}`;
    out.byQuestionAgent[qa] = bump(out.byQuestionAgent[qa], done);
  }
  return out;
}

/** The next item at or after `from` (wrapping) that has no label yet; -1 when all are labelled. */
export function nextUnlabelled(scene: Scene, items: readonly QueueItem[], from: number, annotator = ''): number {
  for (let k = 0; k < items.length; k++) {
    const i = (from + k) % items.length;
    if (!existingLabel(scene, items[i]!, annotator)) return i;
  }
  return -1;
}
