import { z } from 'zod';

export const Vec3Schema = z.object({ x: z.number(), y: z.number(), z: z.number() });
export type Vec3 = z.infer<typeof Vec3Schema>;

const Extra = z.record(z.string(), z.unknown()).optional();

export const NavNodeSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().default(''),
  /** In the scan's own frame, metres. */
  position: Vec3Schema,
  /** Floor index (0 = lowest), when assigned. */
  floor: z.number().int().nullable().default(null),
  extra: Extra,
});
export type NavNode = z.infer<typeof NavNodeSchema>;

/** An undirected walkable connection; `from`/`to` order carries no meaning. */
export const NavEdgeSchema = z.object({
  id: z.string().min(1),
  from: z.string().min(1),
  to: z.string().min(1),
  extra: Extra,
});
export type NavEdge = z.infer<typeof NavEdgeSchema>;

export const NavGraphSchema = z.object({
  nodes: z.array(NavNodeSchema),
  edges: z.array(NavEdgeSchema),
});
export type NavGraph = z.infer<typeof NavGraphSchema>;

/** Undirected edge key `a|b` with `a < b` in string order. */
export function undirectedKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/**
 * The graph's distinct edges between two different nodes it has, each once as `[a, b]` with
 * `a < b` (its key is `a|b`), in the order they first appear: what the suggestions and the drive
 * decide, one per edge.
 */
export function edgePairs(graph: Pick<NavGraph, 'nodes' | 'edges'>): [string, string][] {
  const nodes = new Set(graph.nodes.map((n) => n.id));
  const seen = new Set<string>();
  const out: [string, string][] = [];
  for (const e of graph.edges) {
    const key = undirectedKey(e.from, e.to);
    if (e.from === e.to || !nodes.has(e.from) || !nodes.has(e.to) || seen.has(key)) continue;
    seen.add(key);
    out.push(e.from < e.to ? [e.from, e.to] : [e.to, e.from]);
  }
  return out;
}

/** Directed segment key `from|to`, as the CapNav traverse files write it. */
export function segmentKey(from: string, to: string): string {
  return `${from}|${to}`;
}

/** Split `from|to`; null when the key is not of that form (the release contains a few such keys). */
export function parseSegmentKey(key: string): { from: string; to: string } | null {
  const i = key.indexOf('|');
  if (i <= 0 || i === key.length - 1 || key.indexOf('|', i + 1) !== -1) return null;
  return { from: key.slice(0, i), to: key.slice(i + 1) };
}

/**
 * Neighbour lists of the undirected graph. Self-loops are dropped (they never lie on a simple
 * path) and parallel edges collapse to one neighbour entry.
 */
export function adjacency(graph: Pick<NavGraph, 'nodes' | 'edges'>): Map<string, string[]> {
  const adj = new Map<string, string[]>();
  for (const n of graph.nodes) adj.set(n.id, []);
  const seen = new Set<string>();
  for (const e of graph.edges) {
    if (e.from === e.to || !adj.has(e.from) || !adj.has(e.to)) continue;
    const key = undirectedKey(e.from, e.to);
    if (seen.has(key)) continue;
    seen.add(key);
    adj.get(e.from)!.push(e.to);
    adj.get(e.to)!.push(e.from);
  }
  return adj;
}
