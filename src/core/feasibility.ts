import type { AgentName } from './agents.ts';
import { adjacency, type NavGraph } from './graph.ts';
import { isTraversable, type LabelTable } from './labels.ts';

/**
 * Agent-conditioned feasibility: is there a simple path from `src` to `tgt` whose every hop is
 * labelled traversable for the agent (in the direction walked, else the reverse label)?
 * A missing label counts as not traversable; `src === tgt` is feasible. Reachability over the
 * traversable hops is equivalent to the existence of such a simple path.
 */
export function isFeasible(
  graph: Pick<NavGraph, 'nodes' | 'edges'>,
  labels: LabelTable,
  agent: AgentName,
  src: string,
  tgt: string,
  adj: Map<string, string[]> = adjacency(graph),
): boolean {
  if (!adj.has(src) || !adj.has(tgt)) return false;
  if (src === tgt) return true;
  const seen = new Set([src]);
  const queue = [src];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head]!;
    for (const v of adj.get(u)!) {
      if (seen.has(v) || !isTraversable(labels, agent, u, v)) continue;
      if (v === tgt) return true;
      seen.add(v);
      queue.push(v);
    }
  }
  return false;
}

/**
 * One feasible route for the agent (fewest hops over traversable hops), or null when the task is
 * infeasible: what the path preview shows beside a model's route.
 */
export function feasibleRoute(graph: Pick<NavGraph, 'nodes' | 'edges'>, labels: LabelTable, agent: AgentName, src: string, tgt: string): string[] | null {
  const adj = adjacency(graph);
  if (!adj.has(src) || !adj.has(tgt)) return null;
  const prev = new Map<string, string | null>([[src, null]]);
  const queue = [src];
  for (let head = 0; head < queue.length && !prev.has(tgt); head++) {
    const u = queue[head]!;
    for (const v of adj.get(u)!)
      if (!prev.has(v) && isTraversable(labels, agent, u, v)) {
        prev.set(v, u);
        queue.push(v);
      }
  }
  if (!prev.has(tgt)) return null;
  const route: string[] = [];
  for (let x: string | null = tgt; x !== null; x = prev.get(x)!) route.unshift(x);
  return route;
}
