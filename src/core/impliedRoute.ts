import type { NavGraph } from './graph.ts';
import { resolveRef, type NavQuestion, type NodeRef } from './questions.ts';

/**
 * The route a navigation question implies: from its start through its intermediate nodes to its
 * end, each leg the shortest way through the graph (edge length = the straight distance between
 * the two nodes' positions; ties go to fewer hops, then to the graph's node order). A reviewer
 * checks a question against it: does the route the question names exist, and does it pass where
 * the reason says it does?
 *
 * References that name no node are left out of the route and named, with why; the route then
 * joins the waypoints that resolved. A leg with no way through the graph is named too.
 */
export interface ImpliedRoute {
  /** The walked nodes, start to end (a node reached twice in a row appears once). Empty when fewer than one waypoint resolved. */
  nodes: string[];
  /** The waypoints as the question gives them, resolved or not. */
  waypoints: { role: 'start' | 'intermediate' | 'end'; raw: string; nodeId: string | null }[];
  /** Each leg between consecutive resolved waypoints: its nodes, or null when the graph does not connect them. */
  legs: { from: string; to: string; path: string[] | null }[];
  /** Waypoints that resolve to no node, with the reason in words. */
  unresolved: { role: 'start' | 'intermediate' | 'end'; raw: string; reason: string }[];
}

type Refs = Pick<NavQuestion, 'start' | 'intermediate' | 'end'>;

export function impliedRoute(graph: Pick<NavGraph, 'nodes' | 'edges'>, q: Refs): ImpliedRoute {
  const waypoints = [
    { role: 'start' as const, ref: q.start },
    ...q.intermediate.map((ref) => ({ role: 'intermediate' as const, ref })),
    { role: 'end' as const, ref: q.end },
  ].map(({ role, ref }) => ({ role, raw: ref.raw, nodeId: known(graph, ref) }));
  const unresolved = waypoints.filter((w) => w.nodeId === null).map((w) => ({ role: w.role, raw: w.raw, reason: whyUnresolved(graph, w.raw) }));
  const stops = waypoints.map((w) => w.nodeId).filter((id): id is string => id !== null);
  const legs: ImpliedRoute['legs'] = [];
  const nodes: string[] = stops.length ? [stops[0]!] : [];
  const ways = shortestWays(graph);
  for (let i = 1; i < stops.length; i++) {
    const from = stops[i - 1]!,
      to = stops[i]!;
    const path = ways(from, to);
    legs.push({ from, to, path });
    // A broken leg still moves the route on to its next waypoint (drawn apart by the viewer).
    for (const id of path ? path.slice(1) : [to]) if (nodes.at(-1) !== id) nodes.push(id);
  }
  return { nodes, waypoints, legs, unresolved };
}

/** The node a reference stands for, when the graph has it (a stored reference may name a node since deleted). */
function known(graph: Pick<NavGraph, 'nodes'>, ref: NodeRef): string | null {
  if (ref.nodeId !== null) return graph.nodes.some((n) => n.id === ref.nodeId) ? ref.nodeId : null;
  const r = resolveRef(ref.raw, graph.nodes);
  return r.nodeId;
}

function whyUnresolved(graph: Pick<NavGraph, 'nodes'>, raw: string): string {
  const r = resolveRef(raw, graph.nodes);
  return r.nodeId === null ? r.reason : `"${raw}" names a node the graph no longer has`;
}

/** Shortest paths by Dijkstra over the undirected graph, one search per source, kept for the route's legs. */
function shortestWays(graph: Pick<NavGraph, 'nodes' | 'edges'>): (from: string, to: string) => string[] | null {
  const order = new Map(graph.nodes.map((n, i) => [n.id, i]));
  const pos = new Map(graph.nodes.map((n) => [n.id, n.position]));
  const adj = new Map<string, { to: string; w: number }[]>();
  for (const n of graph.nodes) adj.set(n.id, []);
  for (const e of graph.edges) {
    const a = pos.get(e.from),
      b = pos.get(e.to);
    if (!a || !b || e.from === e.to) continue;
    const w = Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
    adj.get(e.from)!.push({ to: e.to, w });
    adj.get(e.to)!.push({ to: e.from, w });
  }
  const searched = new Map<string, Map<string, { d: number; hops: number; prev: string | null }>>();
  function search(src: string) {
    const best = new Map<string, { d: number; hops: number; prev: string | null }>([[src, { d: 0, hops: 0, prev: null }]]);
    const done = new Set<string>();
    // Graphs are small (tens of nodes): a linear scan for the nearest open node is plenty.
    for (;;) {
      let u: string | null = null;
      for (const [id, v] of best) {
        if (done.has(id)) continue;
        const b = u === null ? null : best.get(u)!;
        if (!b || v.d < b.d - 1e-9 || (Math.abs(v.d - b.d) <= 1e-9 && (v.hops < b.hops || (v.hops === b.hops && order.get(id)! < order.get(u!)!)))) u = id;
      }
      if (u === null) break;
      done.add(u);
      const du = best.get(u)!;
      for (const { to, w } of adj.get(u) ?? []) {
        if (done.has(to)) continue;
        const cand = { d: du.d + w, hops: du.hops + 1, prev: u };
        const cur = best.get(to);
        if (!cur || cand.d < cur.d - 1e-9 || (Math.abs(cand.d - cur.d) <= 1e-9 && cand.hops < cur.hops)) best.set(to, cand);
      }
    }
    return best;
  }
  return (from, to) => {
    if (!order.has(from) || !order.has(to)) return null;
    let best = searched.get(from);
    if (!best) searched.set(from, (best = search(from)));
    if (!best.has(to)) return null;
    const path: string[] = [];
    for (let at: string | null = to; at !== null; at = best.get(at)!.prev) path.push(at);
    return path.reverse();
  };
}
