import { z } from 'zod';
import type { NavNode } from './graph.ts';

/** A reference from a question to a graph node, as written in the file and as resolved. */
export const NodeRefSchema = z.object({
  /** The text the question file used: a node id, a node name, or `id — name`. */
  raw: z.string(),
  /** The node it names, or null when it names none (reported, never guessed). */
  nodeId: z.string().nullable(),
});
export type NodeRef = z.infer<typeof NodeRefSchema>;

export const NavQuestionSchema = z.object({
  /** Stable id inside the scene (`q0`, `q1`, … in file order at import). */
  id: z.string().min(1),
  /** The question text; `[Agent]` stands for the agent's name. Labels and hallucination lists refer to it. */
  text: z.string(),
  sceneType: z.string().optional(),
  /** The generator's justification. */
  reason: z.string().optional(),
  start: NodeRefSchema,
  startDetail: z.string().optional(),
  intermediate: z.array(NodeRefSchema),
  end: NodeRefSchema,
  endDetail: z.string().optional(),
  /** Unmodelled fields of the question and of its `nodes_involved`, written back unchanged. */
  extra: z.record(z.string(), z.unknown()).optional(),
  nodesInvolvedExtra: z.record(z.string(), z.unknown()).optional(),
});
export type NavQuestion = z.infer<typeof NavQuestionSchema>;

export type RefResolution = { nodeId: string; via: 'id' | 'name' | 'id-name'; warning?: string } | { nodeId: null; reason: string };

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
/** `node_128 — Living room`, `node_128 – Living room`, `node_128 - Living room` (hyphen must be spaced). */
const ID_NAME = /^(\S+?)\s*[—–]\s*(.+)$|^(\S+)\s+-\s+(.+)$/;

interface NodeIndex {
  byId: Map<string, NavNode>;
  byName: Map<string, NavNode[]>;
}
/** Node lookups per graph (graphs are never changed in place, so the array identifies them): a release resolves every reference of every question against its graph. */
const indexes = new WeakMap<readonly NavNode[], NodeIndex>();
function indexOf(nodes: readonly NavNode[]): NodeIndex {
  let index = indexes.get(nodes);
  if (index) return index;
  index = { byId: new Map(), byName: new Map() };
  for (const n of nodes) {
    if (!index.byId.has(n.id)) index.byId.set(n.id, n);
    const key = norm(n.name);
    const list = index.byName.get(key);
    if (list) list.push(n);
    else index.byName.set(key, [n]);
  }
  indexes.set(nodes, index);
  return index;
}

/**
 * Resolve a question's node reference. The release uses three forms: the node id, the node's
 * name in any case, and `id — name` (em dash, en dash or spaced hyphen). Anything else, or a
 * name shared by several nodes, is unresolved: the tool never picks a node by guessing.
 */
export function resolveRef(raw: string, nodes: readonly NavNode[]): RefResolution {
  const text = raw.trim();
  if (text === '') return { nodeId: null, reason: 'empty reference' };
  const index = indexOf(nodes);
  const byId = index.byId.get(text);
  if (byId) return { nodeId: byId.id, via: 'id' };
  const named = index.byName.get(norm(text)) ?? [];
  if (named.length === 1) return { nodeId: named[0]!.id, via: 'name' };
  if (named.length > 1) {
    return { nodeId: null, reason: `"${raw}" is the name of ${named.length} nodes (${named.map((n) => n.id).join(', ')})` };
  }
  const m = ID_NAME.exec(text);
  if (m) {
    const id = m[1] ?? m[3]!;
    const name = m[2] ?? m[4]!;
    const node = index.byId.get(id);
    if (node) {
      const warning = norm(node.name) === norm(name) ? undefined : `names ${id} "${name}" but that node is called "${node.name}"`;
      return warning ? { nodeId: node.id, via: 'id-name', warning } : { nodeId: node.id, via: 'id-name' };
    }
    return { nodeId: null, reason: `"${raw}" names node id ${id}, which is not in the graph` };
  }
  return { nodeId: null, reason: `"${raw}" matches no node id or name` };
}

/** The question's waypoints in order: start, intermediates, end. */
export function waypoints(q: Pick<NavQuestion, 'start' | 'intermediate' | 'end'>): NodeRef[] {
  return [q.start, ...q.intermediate, q.end];
}

/** The resolved waypoint node ids, or null when any reference is unresolved. */
export function resolvedWaypoints(q: Pick<NavQuestion, 'start' | 'intermediate' | 'end'>): string[] | null {
  const ids = waypoints(q).map((r) => r.nodeId);
  return ids.every((id): id is string => id !== null) ? ids : null;
}

export function unresolvedRefs(q: Pick<NavQuestion, 'start' | 'intermediate' | 'end'>): string[] {
  return waypoints(q)
    .filter((r) => r.nodeId === null)
    .map((r) => r.raw);
}
