import { CAPNAV_AGENTS, type AgentName } from './agents.ts';
import { adjacency } from './graph.ts';
import { isFeasible } from './feasibility.ts';
import type { Project } from './project.ts';
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

/**
 * Dataset statistics with CapNav Table 1's definitions, over every scene of the project.
 * Reported agents: the five CapNav agents plus any other agent that has labels.
 */
export function datasetStats(project: Pick<Project, 'scenes'>): DatasetStats {
  const agents = new Set<AgentName>(CAPNAV_AGENTS);
  for (const s of project.scenes) for (const a of Object.keys(s.labels)) agents.add(a);
  const per = new Map([...agents].map((a) => [a, { labels: 0, traversable: 0, tasks: 0, feasible: 0 }]));
  let nodes = 0, edges = 0, questions = 0, hallucinated = 0, unresolved = 0;

  for (const scene of project.scenes) {
    nodes += scene.graph.nodes.length;
    edges += scene.graph.edges.length;
    for (const [agent, table] of Object.entries(scene.labels)) {
      const acc = per.get(agent)!;
      for (const label of Object.values(table)) {
        acc.labels++;
        if (label.traversable) acc.traversable++;
      }
    }
    const adj = adjacency(scene.graph);
    for (const q of scene.questions) {
      questions++;
      if (unresolvedRefs(q).length) unresolved++;
      if (isHallucinated(scene, q.text)) { hallucinated++; continue; }
      const wps = resolvedWaypoints(q);
      if (!wps) continue;
      for (const [agent, acc] of per) {
        acc.tasks++;
        if (isFeasible(scene.graph, scene.labels, agent, wps[0]!, wps[wps.length - 1]!, adj)) acc.feasible++;
      }
    }
  }

  let total = 0, traversable = 0;
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
    scenes: n, nodes, edges,
    nodes_per_scene: ratio(nodes, n), edges_per_scene: ratio(edges, n),
    questions, hallucinated_questions: hallucinated, unresolved_questions: unresolved,
    labels: { total, traversable, not_traversable: total - traversable },
    agents: agentStats,
  };
}
