import { adjacency, undirectedKey } from '../graph.ts';
import { isFeasible } from '../feasibility.ts';
import { edgeLabelState, isTraversable } from '../labels.ts';
import type { Project, Scene } from '../project.ts';
import type { QaItem } from './item.ts';
import { standsForQuestion } from './hallucination.ts';

/**
 * A navigation question (a CapNav question, or a generated navigation task) is not a yes/no VQA
 * item answered "yes": its answer depends on the agent, and the traversability labels decide it.
 * Its item carries the reviewers' check of the question (real, reworded, or hallucinated); the
 * answer per agent is read from the labels whenever it is needed, so it follows them when they
 * change, and an agent whose labels do not settle it gets no answer at all.
 *
 * Decided: "yes" when a route of hops labelled traversable joins start and end (as the scorer's
 * ground truth); "no" when none would even if every unlabelled hop were traversable. Anything
 * between waits for labels.
 */
export interface AgentAnswer {
  agent: string;
  /** true / false as the labels decide it; null when they do not (yet). */
  answer: boolean | null;
  /** Why there is no answer (unresolved place names, unlabelled hops). */
  why?: string;
}

export const isNavigationItem = standsForQuestion;

/** The question text for one agent: CapNav's `[Agent]` placeholder filled in. */
export const questionFor = (text: string, agent: string): string => text.replace(/\[agent\]/gi, agent);

/** Each agent's answer to the navigation question the item stands for (empty when it stands for none). */
export function navigationAnswers(
  scene: Pick<Scene, 'graph' | 'labels' | 'questions'>,
  item: Pick<QaItem, 'capnavQuestion'>,
  agents: readonly string[],
): AgentAnswer[] {
  const q = item.capnavQuestion === undefined ? undefined : scene.questions[item.capnavQuestion];
  if (!q) return [];
  const src = q.start.nodeId,
    tgt = q.end.nodeId;
  if (src === null || tgt === null) {
    const why = `the question's ${src === null ? `start "${q.start.raw}"` : `end "${q.end.raw}"`} names no node of the graph`;
    return agents.map((agent) => ({ agent, answer: null, why }));
  }
  const adj = adjacency(scene.graph);
  return agents.map((agent) => {
    if (isFeasible(scene.graph, scene.labels, agent, src, tgt, adj)) return { agent, answer: true };
    // Would a route exist were the unlabelled hops traversable? Then the labels do not settle it yet.
    const open = new Set<string>();
    for (const e of scene.graph.edges) {
      const state = edgeLabelState(scene.labels, agent, e.from, e.to);
      if (state === 'unlabelled' || state === 'conflict') open.add(undirectedKey(e.from, e.to));
    }
    if (open.size === 0 || !reachableThrough(adj, src, tgt, (u, v) => open.has(undirectedKey(u, v)) || isTraversable(scene.labels, agent, u, v))) {
      return { agent, answer: false };
    }
    return {
      agent,
      answer: null,
      why: `${open.size} segment${open.size === 1 ? ' is' : 's are'} not labelled for ${agent} (or labelled both ways), and the answer depends on them`,
    };
  });
}

/** Per agent of the project, for the scene the item belongs to (empty when the scene is gone). */
export function projectNavigationAnswers(project: Pick<Project, 'scenes' | 'profiles'>, item: Pick<QaItem, 'sceneId' | 'capnavQuestion'>): AgentAnswer[] {
  const scene = project.scenes.find((s) => s.id === item.sceneId);
  return scene
    ? navigationAnswers(
        scene,
        item,
        project.profiles.map((p) => p.name),
      )
    : [];
}

function reachableThrough(adj: Map<string, string[]>, src: string, tgt: string, passable: (u: string, v: string) => boolean): boolean {
  if (src === tgt) return true;
  const seen = new Set([src]);
  const queue = [src];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head]!;
    for (const v of adj.get(u) ?? []) {
      if (seen.has(v) || !passable(u, v)) continue;
      if (v === tgt) return true;
      seen.add(v);
      queue.push(v);
    }
  }
  return false;
}

/** A benchmark item: an accepted item, or one agent's record of an accepted navigation question. */
export type BenchmarkItem = QaItem & { navigation?: { item: string; agent: string; answerFrom: 'labels' } };

export interface NavigationTally {
  items: number;
  records: number;
  undecided: { item: string; agent: string; why: string }[];
}

/**
 * What a benchmark holds and is scored on: the accepted items, each accepted navigation question
 * as one yes/no item per agent the labels decide (`<id>:<agent>`, `[Agent]` filled in, the agent
 * anchored) — never the question's own item, whose "yes" nobody decided. The bundle export, the
 * Score view and `score-qa` on a project file all take their items from here.
 */
export function benchmarkItems(project: Pick<Project, 'scenes' | 'profiles' | 'qa'>): { items: BenchmarkItem[]; navigation: NavigationTally } {
  const navigation: NavigationTally = { items: 0, records: 0, undecided: [] };
  const items = project.qa.items
    .filter((i) => i.status === 'accepted')
    .flatMap((item): BenchmarkItem[] => {
      if (!isNavigationItem(item)) return [item];
      navigation.items++;
      return projectNavigationAnswers(project, item).flatMap(({ agent, answer, why }) => {
        if (answer === null) {
          navigation.undecided.push({ item: item.id, agent, why: why ?? '' });
          return [];
        }
        navigation.records++;
        return [
          {
            ...item,
            id: `${item.id}:${agent}`,
            question: questionFor(item.question, agent),
            answer: { kind: 'yesno', correct: answer },
            anchors: { ...item.anchors, agent },
            navigation: { item: item.id, agent, answerFrom: 'labels' },
          },
        ];
      });
    });
  return { items, navigation };
}
