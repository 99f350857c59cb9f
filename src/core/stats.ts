import { CAPNAV_AGENTS, type AgentName } from './agents.ts';
import { adjacency } from './graph.ts';
import { isFeasible } from './feasibility.ts';
import type { Project, Scene } from './project.ts';
import { isHallucinated } from './project.ts';
import { resolvedWaypoints, unresolvedRefs } from './questions.ts';

export interface AgentStats {
  /** Labelled directed segments (entries in the traverse file) for this agent. */
  labels: number;
  /** Traversable entries / entries for this agent; null when it has none. */
  edge_traversable_ratio: number | null;
  /** Non-hallucinated questions whose waypoints all resolve (the same for every agent). */
  tasks: number;
  /** Tasks with a simple start→end path of traversable hops for this agent. */
  feasible_tasks: number;
  feasible_task_ratio: number | null;
}

export interface DatasetStats {
  scenes: number;
  nodes: number;
  edges: number;
  nodes_per_scene: number | null;
  edges_per_scene: number | null;
  questions: number;
  hallucinated_questions: number;
  /** Questions with at least one start/intermediate/end reference that names no node. */
  unresolved_questions: number;
  labels: { total: number; traversable: number; not_traversable: number };
  agents: Record<AgentName, AgentStats>;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

/** One scene's share of the statistics: counts, and per agent with labels in it, labels and feasible tasks. */
interface SceneStats {
  nodes: number;
  edges: number;
  questions: number;
  hallucinated: number;
  unresolved: number;
  tasks: number;
  agents: Map<AgentName, { labels: number; traversable: number; feasible: number }>;
  /** Tasks feasible for an agent with no labels in the scene (start = end, both in the graph). */
  feasibleUnlabelled: number;
}

/**
 * Kept per scene object: scenes are immutable (an edit makes a new one), so after a label only
 * that scene is counted again, and a scene counted while an import was still reading files is
 * not counted again when the statistics are first shown.
 */
const sceneCache = new WeakMap<Scene, SceneStats>();

/** Whether a scene's statistics are counted already (the studio counts a large project's in slices). */
export const sceneStatsKnown = (scene: Scene): boolean => sceneCache.has(scene);

export function sceneStats(scene: Scene): SceneStats {
  const known = sceneCache.get(scene);
  if (known) return known;
  const agents = new Map<AgentName, { labels: number; traversable: number; feasible: number }>();
  for (const [agent, table] of Object.entries(scene.labels)) {
    let labels = 0,
      traversable = 0;
    for (const label of Object.values(table)) {
      labels++;
      if (label.traversable) traversable++;
    }
    agents.set(agent, { labels, traversable, feasible: 0 });
  }
  const out: SceneStats = {
    nodes: scene.graph.nodes.length,
    edges: scene.graph.edges.length,
    questions: 0,
    hallucinated: 0,
    unresolved: 0,
    tasks: 0,
    agents,
    feasibleUnlabelled: 0,
  };
  const adj = adjacency(scene.graph);
  for (const q of scene.questions) {
    out.questions++;
    if (unresolvedRefs(q).length) out.unresolved++;
    if (isHallucinated(scene, q.text)) {
      out.hallucinated++;
      continue;
    }
    const wps = resolvedWaypoints(q);
    if (!wps) continue;
    out.tasks++;
    const [from, to] = [wps[0]!, wps[wps.length - 1]!];
    for (const [agent, acc] of agents) if (isFeasible(scene.graph, scene.labels, agent, from, to, adj)) acc.feasible++;
    if (isFeasible(scene.graph, {}, '', from, to, adj)) out.feasibleUnlabelled++;
  }
  sceneCache.set(scene, out);
  return out;
}

/**
 * Dataset statistics with CapNav Table 1's definitions, over every scene of the project.
 * Reported agents: the five CapNav agents plus any other agent that has labels.
 */
export function datasetStats(project: Pick<Project, 'scenes'>): DatasetStats {
  const perScene = project.scenes.map(sceneStats);
  const agents = new Set<AgentName>(CAPNAV_AGENTS);
  for (const s of perScene) for (const a of s.agents.keys()) agents.add(a);
  const per = new Map([...agents].map((a) => [a, { labels: 0, traversable: 0, tasks: 0, feasible: 0 }]));
  let nodes = 0,
    edges = 0,
    questions = 0,
    hallucinated = 0,
    unresolved = 0;
  for (const s of perScene) {
    nodes += s.nodes;
    edges += s.edges;
    questions += s.questions;
    hallucinated += s.hallucinated;
    unresolved += s.unresolved;
    for (const [agent, acc] of per) {
      const own = s.agents.get(agent);
      acc.tasks += s.tasks;
      if (own) {
        acc.labels += own.labels;
        acc.traversable += own.traversable;
        acc.feasible += own.feasible;
      } else acc.feasible += s.feasibleUnlabelled;
    }
  }

  let total = 0,
    traversable = 0;
  const agentStats: Record<AgentName, AgentStats> = {};
  for (const [agent, acc] of per) {
    total += acc.labels;
    traversable += acc.traversable;
    agentStats[agent] = {
      labels: acc.labels,
      edge_traversable_ratio: ratio(acc.traversable, acc.labels),
      tasks: acc.tasks,
      feasible_tasks: acc.feasible,
      feasible_task_ratio: ratio(acc.feasible, acc.tasks),
    };
  }
  const n = project.scenes.length;
  return {
    scenes: n,
    nodes,
    edges,
    nodes_per_scene: ratio(nodes, n),
    edges_per_scene: ratio(edges, n),
    questions,
    hallucinated_questions: hallucinated,
    unresolved_questions: unresolved,
    labels: { total, traversable, not_traversable: total - traversable },
    agents: agentStats,
  };
}
