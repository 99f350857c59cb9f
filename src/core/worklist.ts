import { buildBlockCutTree, edgesOnSimplePaths, type BlockCutTree } from './blockCutTree.ts';
import type { NavGraph } from './graph.ts';

/**
 * The labelling work list of a question: every undirected edge (`a|b`, a < b) that lies on at
 * least one simple path between consecutive waypoints (start → intermediates → end), sorted.
 * Linear in the graph's size per waypoint pair, where the original tool enumerated all simple
 * paths. Pass a prebuilt tree to plan many questions of one scene.
 */
export function workList(graph: Pick<NavGraph, 'nodes' | 'edges'>, waypointIds: readonly string[], bct: BlockCutTree = buildBlockCutTree(graph)): string[] {
  const edges = new Set<string>();
  for (let i = 0; i + 1 < waypointIds.length; i++) {
    for (const k of edgesOnSimplePaths(bct, waypointIds[i]!, waypointIds[i + 1]!)) edges.add(k);
  }
  return [...edges].sort();
}

export { buildBlockCutTree };
