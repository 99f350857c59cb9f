import { adjacency, type NavGraph } from './graph.ts';

export type PathError =
  | { kind: 'empty' }
  | { kind: 'unknown-node'; index: number; node: string }
  | { kind: 'no-edge'; index: number; from: string; to: string }
  | { kind: 'wrong-start'; expected: string; got: string }
  | { kind: 'wrong-end'; expected: string; got: string }
  | { kind: 'repeated-node'; index: number; node: string };

/**
 * Path validity (CapNav §3.4): every node exists, consecutive nodes share an edge, the path
 * starts at `src` and ends at `tgt`, and no node repeats. Returns every error, in path order.
 */
export function pathErrors(
  graph: Pick<NavGraph, 'nodes' | 'edges'>,
  path: readonly string[],
  src: string,
  tgt: string,
  adj: Map<string, string[]> = adjacency(graph),
): PathError[] {
  if (path.length === 0) return [{ kind: 'empty' }];
  const errors: PathError[] = [];
  if (path[0] !== src) errors.push({ kind: 'wrong-start', expected: src, got: path[0]! });
  if (path[path.length - 1] !== tgt) errors.push({ kind: 'wrong-end', expected: tgt, got: path[path.length - 1]! });
  const seen = new Set<string>();
  path.forEach((node, i) => {
    if (!adj.has(node)) errors.push({ kind: 'unknown-node', index: i, node });
    if (seen.has(node)) errors.push({ kind: 'repeated-node', index: i, node });
    seen.add(node);
    const next = path[i + 1];
    if (next !== undefined && adj.has(node) && adj.has(next) && !adj.get(node)!.includes(next)) {
      errors.push({ kind: 'no-edge', index: i, from: node, to: next });
    }
  });
  return errors;
}

export function isValidPath(graph: Pick<NavGraph, 'nodes' | 'edges'>, path: readonly string[], src: string, tgt: string): boolean {
  return pathErrors(graph, path, src, tgt).length === 0;
}
