import { adjacency, undirectedKey, type NavGraph } from './graph.ts';

/**
 * Brute force, as the original annotation tool did it: enumerate every simple path from `s` to
 * `t` and collect their edges. Exponential in the worst case; kept as the reference the linear
 * work list is tested and benchmarked against. Stops after `maxPaths` paths (then `complete` is false).
 */
export function edgesByEnumeration(
  graph: Pick<NavGraph, 'nodes' | 'edges'>,
  s: string,
  t: string,
  maxPaths = Infinity,
): { edges: Set<string>; paths: number; complete: boolean } {
  const adj = adjacency(graph);
  const edges = new Set<string>();
  let paths = 0;
  if (!adj.has(s) || !adj.has(t) || s === t) return { edges, paths, complete: true };
  const onPath = new Set([s]);
  const path = [s];
  let stopped = false;
  const visit = (u: string): void => {
    for (const v of adj.get(u)!) {
      if (stopped) return;
      if (onPath.has(v)) continue;
      path.push(v);
      if (v === t) {
        paths++;
        for (let i = 0; i + 1 < path.length; i++) edges.add(undirectedKey(path[i]!, path[i + 1]!));
        if (paths >= maxPaths) stopped = true;
      } else {
        onPath.add(v);
        visit(v);
        onPath.delete(v);
      }
      path.pop();
    }
  };
  visit(s);
  return { edges, paths, complete: !stopped };
}
