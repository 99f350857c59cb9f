import { agentOrder, type AgentName } from '../agents.ts';
import { buildBlockCutTree } from '../blockCutTree.ts';
import { feasibleRoute } from '../feasibility.ts';
import { adjacency, parseSegmentKey, segmentKey } from '../graph.ts';
import { labelFor } from '../labels.ts';
import type { Project, Scene } from '../project.ts';
import type { ReasonCategory } from '../rules.ts';
import { seededRandom } from '../scoring/bootstrap.ts';
import { obstacleCategories } from '../scoring/paper/groundTruth.ts';
import { sortCategories } from '../scoring/judges/categories.ts';
import { workList } from '../worklist.ts';

/**
 * Task augmentation on the navigation graph (issue 27 §1; CapNav §5 expanded its tasks "from 2K to
 * 13K" this way): every ordered pair of nodes of a labelled scene that the graph connects, per
 * agent, with the answer the labels give, a shortest feasible route, and — where infeasible — the
 * not-traversable segments that block it with their measured or written reasons. The answer is
 * exactly the scorer's ground truth for the same start and end (core/feasibility.ts), so a model
 * trained on these tasks is scored by the rule it was trained on.
 */
export interface AugmentedTask {
  /** `<scene>/<agent>/<start id>><end id>`: unique in a run, stable across runs. */
  id: string;
  scene: string;
  agent: AgentName;
  start: { id: string; name: string };
  end: { id: string; name: string };
  /** In CapNav's words ("Can [Agent] move from the Foyer to the Sunroom?"); `[Agent]` is left for the runner. */
  question: string;
  feasible: boolean;
  /** The fewest-hop route over segments labelled traversable for the agent (node ids); null when infeasible. */
  route: string[] | null;
  /** Infeasible: the categories and the segments that block every route (on a simple path from start to end, labelled not traversable). */
  blocking: { categories: ReasonCategory[]; segments: { segment: string; reason: ReasonCategory[]; note: string }[] } | null;
  /** Where it came from: the labels of this scene, and the release question it repeats (if any). */
  provenance: { method: 'graph-pairs'; labelledSegments: number; releaseQuestion: number | null };
}

export interface AugmentOptions {
  /** Agents to make tasks for (default: every profile). */
  agents?: readonly string[];
  /** At most this many tasks per scene and agent, sampled with `seed` (default: every pair). */
  budget?: number;
  seed?: number;
  /** Balance: as many feasible as infeasible answers per scene and agent; obstacle types taken in turn among the infeasible. */
  balance?: { answers?: boolean; obstacles?: boolean };
}

export interface AugmentSummary {
  tasks: number;
  scenes: number;
  /** Pairs the graph does not connect at all (no route whatever the agent): left out, there is nothing to ask. */
  unconnectedPairs: number;
  byAgent: Record<string, { tasks: number; feasible: number; infeasible: number }>;
  /** Infeasible tasks by the obstacle categories that block them (a task counts once per category). */
  byObstacle: Record<string, number>;
}

/**
 * One scene's task maker: what does not depend on the agent — its pairs, components, block–cut
 * tree and the segments on each pair's routes — worked out once and shared by every agent's tasks
 * (the studio asks an agent at a time, and made all of it again for each).
 */
export interface SceneTaskMaker {
  /** Ordered pairs the graph does not connect at all, per agent. */
  unconnected: number;
  /** The agent's tasks (before budget and balance), by start then end. */
  tasksOf(agent: AgentName): AugmentedTask[];
}

export function sceneTaskMaker(scene: Scene): SceneTaskMaker {
  const adj = adjacency(scene.graph);
  const nodes = scene.graph.nodes;
  const bct = buildBlockCutTree(scene.graph);
  const component = components(adj);
  const asked = new Map<string, number>();
  scene.questions.forEach((q, i) => {
    if (q.start.nodeId && q.end.nodeId && !asked.has(`${q.start.nodeId}>${q.end.nodeId}`)) asked.set(`${q.start.nodeId}>${q.end.nodeId}`, i);
  });
  let unconnected = 0;
  const pairs: [string, string][] = [];
  for (const a of nodes)
    for (const b of nodes) {
      if (a.id === b.id) continue;
      if (component.get(a.id) !== component.get(b.id)) unconnected++;
      else pairs.push([a.id, b.id]);
    }
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const blockersOf = new Map<string, string[]>();
  const tasksOf = (agent: AgentName): AugmentedTask[] => {
    const tasks: AugmentedTask[] = [];
    const table = scene.labels[agent] ?? {};
    const labelled = Object.keys(table).length;
    for (const [s, t] of pairs) {
      const route = feasibleRoute(scene.graph, scene.labels, agent, s, t);
      let blocking: AugmentedTask['blocking'] = null;
      if (!route) {
        const key = s < t ? `${s}>${t}` : `${t}>${s}`;
        let onPaths = blockersOf.get(key);
        if (!onPaths) {
          onPaths = workList(scene.graph, [s, t], bct);
          blockersOf.set(key, onPaths);
        }
        const segments: NonNullable<AugmentedTask['blocking']>['segments'] = [];
        const cats = new Set<ReasonCategory>();
        for (const edge of onPaths) {
          const { from, to } = parseSegmentKey(edge)!;
          const l = labelFor(scene.labels, agent, from, to);
          if (!l) {
            segments.push({ segment: segmentKey(from, to), reason: [], note: 'not labelled' });
            continue;
          }
          if (l.traversable) continue;
          const reason = obstacleCategories(l);
          for (const c of reason) cats.add(c);
          segments.push({ segment: segmentKey(from, to), reason, note: l.note });
        }
        blocking = { categories: sortCategories(cats), segments };
      }
      const start = byId.get(s)!,
        end = byId.get(t)!;
      tasks.push({
        id: `${scene.id}/${agent}/${s}>${t}`,
        scene: scene.id,
        agent,
        start: { id: s, name: start.name },
        end: { id: t, name: end.name },
        question: `Can [Agent] move from the ${start.name.trim() || s} to the ${end.name.trim() || t}?`,
        feasible: route !== null,
        route,
        blocking,
        provenance: { method: 'graph-pairs', labelledSegments: labelled, releaseQuestion: asked.get(`${s}>${t}`) ?? null },
      });
    }
    return tasks;
  };
  return { unconnected, tasksOf };
}

/** The agents a run makes tasks for: those asked for, in their order, or every profile. */
export const augmentAgents = (project: Project, options: AugmentOptions = {}): AgentName[] =>
  (options.agents?.length ? options.agents : agentOrder(project.profiles)) as AgentName[];

/**
 * One scene's tasks under the options (budget and balance per agent). `augment` is this for every
 * scene in turn, and a scene's tasks for several agents are its tasks for each agent in turn, so a
 * caller may go scene by scene and agent by agent (the studio, painting between them) and get the
 * same tasks in the same order; such a caller makes the scene's `maker` once for all its agents.
 */
export function augmentScene(
  scene: Scene,
  agents: readonly AgentName[],
  options: AugmentOptions = {},
  maker: SceneTaskMaker = sceneTaskMaker(scene),
): { tasks: AugmentedTask[]; unconnected: number } {
  const out: AugmentedTask[] = [];
  for (const agent of agents) for (const t of choose(maker.tasksOf(agent), options, `${scene.id}/${agent}`)) out.push(t);
  return { tasks: out, unconnected: maker.unconnected * agents.length };
}

/** The tasks of a project under the options, with their summary. */
export function augment(project: Project, options: AugmentOptions = {}): { tasks: AugmentedTask[]; summary: AugmentSummary } {
  const agents = augmentAgents(project, options);
  const out: AugmentedTask[] = [];
  let unconnected = 0;
  for (const scene of project.scenes) {
    const made = augmentScene(scene, agents, options);
    unconnected += made.unconnected;
    for (const t of made.tasks) out.push(t);
  }
  return { tasks: out, summary: summariseTasks(out, project.scenes.length, unconnected) };
}

/** What balancing can be asked for (`--balance answers,obstacles`, the studio's two boxes). */
export const BALANCE_KINDS = ['answers', 'obstacles'] as const;
export type BalanceKind = (typeof BALANCE_KINDS)[number];

/**
 * The options of a run as `cli augment` and the studio's Training view give them (checked already):
 * no agents for every profile, no budget for every pair, seed 1 by default, and balance only when
 * some is asked for (an empty balance is not the same as none: it interleaves the answers).
 */
export function augmentOptionsOf(a: { agents: readonly string[]; budget?: number; seed?: number; balance: readonly BalanceKind[] }): AugmentOptions {
  return {
    ...(a.agents.length ? { agents: [...a.agents] } : {}),
    ...(a.budget !== undefined ? { budget: a.budget } : {}),
    seed: a.seed ?? 1,
    ...(a.balance.length ? { balance: { answers: a.balance.includes('answers'), obstacles: a.balance.includes('obstacles') } } : {}),
  };
}

/** One task as a line of tasks.jsonl: what `cli augment` writes and the studio downloads, byte for byte. */
export const taskLine = (t: AugmentedTask): string => JSON.stringify(t) + '\n';

/** tasks.jsonl in pieces of `lines` lines (30 scenes give ~30,000 lines, an HM3D-sized release many more): joined, the file. */
export function* tasksJsonlPieces(tasks: readonly AugmentedTask[], lines = 2000): Generator<string> {
  for (let i = 0; i < tasks.length; i += lines)
    yield tasks
      .slice(i, i + lines)
      .map(taskLine)
      .join('');
}

/** Budget and balance for one scene and agent: a seeded sample, kept in the fixed order. */
function choose(tasks: AugmentedTask[], o: AugmentOptions, salt: string): AugmentedTask[] {
  if (!o.budget && !o.balance?.answers && !o.balance?.obstacles) return tasks;
  const random = seededRandom(hash(`${o.seed ?? 1}/${salt}`));
  const shuffled = tasks
    .map((t) => [random(), t] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, t]) => t);
  let yes = shuffled.filter((t) => t.feasible);
  let no = shuffled.filter((t) => !t.feasible);
  if (o.balance?.obstacles) no = roundRobin(no);
  if (o.balance?.answers) {
    const n = Math.min(yes.length, no.length);
    yes = yes.slice(0, n);
    no = no.slice(0, n);
  }
  let picked = o.balance ? interleave(yes, no) : shuffled;
  if (o.budget !== undefined) picked = picked.slice(0, o.budget);
  const order = new Map(tasks.map((t, i) => [t, i]));
  return picked.sort((a, b) => order.get(a)! - order.get(b)!);
}

/** Infeasible tasks taken one obstacle category at a time, so a budget keeps the rare ones. */
function roundRobin(tasks: AugmentedTask[]): AugmentedTask[] {
  const groups = new Map<string, AugmentedTask[]>();
  for (const t of tasks) {
    const k = t.blocking?.categories[0] ?? 'unlabelled';
    const g = groups.get(k);
    if (g) g.push(t);
    else groups.set(k, [t]);
  }
  const lists = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, l]) => l);
  const out: AugmentedTask[] = [];
  for (let i = 0; out.length < tasks.length; i++) for (const l of lists) if (l[i]) out.push(l[i]!);
  return out;
}

const interleave = <T>(a: T[], b: T[]): T[] => {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== undefined) out.push(a[i]!);
    if (b[i] !== undefined) out.push(b[i]!);
  }
  return out;
};

export const UNLABELLED = 'unlabelled';

/** The categories a "no" task counts under (the summary's and the Training view's one rule). */
export const obstaclesOf = (t: AugmentedTask): readonly string[] => (t.blocking?.categories.length ? t.blocking.categories : [UNLABELLED]);

/** The summary of a run's tasks: by agent and by obstacle (a task counts once per category that blocks it; "unlabelled" when none). */
export function summariseTasks(tasks: readonly AugmentedTask[], scenes: number, unconnectedPairs: number): AugmentSummary {
  const byAgent: AugmentSummary['byAgent'] = {};
  const byObstacle: Record<string, number> = {};
  for (const t of tasks) {
    const a = (byAgent[t.agent] ??= { tasks: 0, feasible: 0, infeasible: 0 });
    a.tasks++;
    if (t.feasible) a.feasible++;
    else {
      a.infeasible++;
      for (const c of obstaclesOf(t)) byObstacle[c] = (byObstacle[c] ?? 0) + 1;
    }
  }
  return { tasks: tasks.length, scenes, unconnectedPairs, byAgent, byObstacle };
}

/** Connected components of the graph (node → component number). */
function components(adj: Map<string, string[]>): Map<string, number> {
  const comp = new Map<string, number>();
  let n = 0;
  for (const start of adj.keys()) {
    if (comp.has(start)) continue;
    const stack = [start];
    comp.set(start, n);
    while (stack.length)
      for (const v of adj.get(stack.pop()!) ?? [])
        if (!comp.has(v)) {
          comp.set(v, n);
          stack.push(v);
        }
    n++;
  }
  return comp;
}

/** FNV-1a of a string: the seed of one scene and agent's sample. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
