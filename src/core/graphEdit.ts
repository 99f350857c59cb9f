import { undirectedKey, type NavEdge, type NavNode, type Vec3 } from './graph.ts';
import { dropSegments, mapLabelTables } from './labelVotes.ts';
import type { Scene } from './project.ts';

/**
 * Edits of a scene's navigation graph, as pure functions from scene to scene. New ids follow the
 * release's style (`node_<n>`, `edge_<n>`, one above the highest number in use) so exports look
 * like the files annotators already know.
 */

function nextId(prefix: string, ids: readonly string[]): string {
  let max = 0;
  for (const id of ids) {
    const m = new RegExp(`^${prefix}_(\\d+)$`).exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `${prefix}_${max + 1}`;
}

export function addNode(scene: Scene, at: Vec3, name?: string, floor: number | null = null): { scene: Scene; id: string } {
  const id = nextId(
    'node',
    scene.graph.nodes.map((n) => n.id),
  );
  const node: NavNode = { id, name: name ?? `Area ${id.slice(5)}`, description: '', position: { ...at }, floor };
  return { scene: { ...scene, graph: { ...scene.graph, nodes: [...scene.graph.nodes, node] } }, id };
}

function updateNode(scene: Scene, id: string, fn: (n: NavNode) => NavNode): Scene {
  let changed = false;
  const nodes = scene.graph.nodes.map((n) => {
    if (n.id !== id) return n;
    const next = fn(n);
    changed ||= next !== n;
    return next;
  });
  return changed ? { ...scene, graph: { ...scene.graph, nodes } } : scene;
}

export const moveNode = (scene: Scene, id: string, to: Vec3): Scene =>
  updateNode(scene, id, (n) => (n.position.x === to.x && n.position.y === to.y && n.position.z === to.z ? n : { ...n, position: { ...to } }));

export const renameNode = (scene: Scene, id: string, name: string): Scene => updateNode(scene, id, (n) => (n.name === name ? n : { ...n, name }));

export const describeNode = (scene: Scene, id: string, description: string): Scene =>
  updateNode(scene, id, (n) => (n.description === description ? n : { ...n, description }));

export function assignFloor(scene: Scene, ids: readonly string[], floor: number | null): Scene {
  return ids.reduce((s, id) => updateNode(s, id, (n) => (n.floor === floor ? n : { ...n, floor })), scene);
}

/** Connect two nodes; unchanged (and `id` null) when they are the same node or already connected. */
export function connect(scene: Scene, a: string, b: string): { scene: Scene; id: string | null } {
  const ids = new Set(scene.graph.nodes.map((n) => n.id));
  if (a === b || !ids.has(a) || !ids.has(b)) return { scene, id: null };
  const key = undirectedKey(a, b);
  if (scene.graph.edges.some((e) => undirectedKey(e.from, e.to) === key)) return { scene, id: null };
  const edge: NavEdge = {
    id: nextId(
      'edge',
      scene.graph.edges.map((e) => e.id),
    ),
    from: a,
    to: b,
  };
  return { scene: { ...scene, graph: { ...scene.graph, edges: [...scene.graph.edges, edge] } }, id: edge.id };
}

export function deleteEdges(scene: Scene, edgeIds: readonly string[]): Scene {
  const gone = new Set(edgeIds);
  const removed = scene.graph.edges.filter((e) => gone.has(e.id));
  if (!removed.length) return scene;
  const stillThere = new Set(scene.graph.edges.filter((e) => !gone.has(e.id)).map((e) => undirectedKey(e.from, e.to)));
  const keys = new Set(removed.map((e) => undirectedKey(e.from, e.to)).filter((k) => !stillThere.has(k)));
  // Labels (votes, decisions) of segments that are no longer edges go with the edge; undo brings both back.
  return mapLabelTables({ ...scene, graph: { ...scene.graph, edges: scene.graph.edges.filter((e) => !gone.has(e.id)) } }, dropSegments(keys));
}

/** Delete nodes with their edges (and those edges' labels). Questions that named them become unresolved-to-missing and are reported. */
export function deleteNodes(scene: Scene, nodeIds: readonly string[]): Scene {
  const gone = new Set(nodeIds);
  if (!scene.graph.nodes.some((n) => gone.has(n.id))) return scene;
  const withoutEdges = deleteEdges(
    scene,
    scene.graph.edges.filter((e) => gone.has(e.from) || gone.has(e.to)).map((e) => e.id),
  );
  return { ...withoutEdges, graph: { ...withoutEdges.graph, nodes: withoutEdges.graph.nodes.filter((n) => !gone.has(n.id)) } };
}
