import type { NavEdge, NavGraph, NavNode } from '../../src/core/graph.ts';
import type { Label, LabelTable } from '../../src/core/labels.ts';
import type { Scene } from '../../src/core/project.ts';
import type { NavQuestion, NodeRef } from '../../src/core/questions.ts';

/** In-memory builders for core records, so unit tests can state a scene in a few lines. */

export function navNode(id: string, name: string = id): NavNode {
  return { id, name, description: '', position: { x: 0, y: 0, z: 0 }, floor: null };
}

/** Edges from `a-b` strings; ids are `e0`, `e1`, … in order. */
export function navEdges(...pairs: string[]): NavEdge[] {
  return pairs.map((p, i) => {
    const [from, to] = p.split('-') as [string, string];
    return { id: `e${i}`, from, to };
  });
}

/** A graph from edge strings `a-b`; nodes are every endpoint plus `extraNodes`, named after their ids. */
export function navGraph(pairs: string[], extraNodes: string[] = []): NavGraph {
  const ids = new Set<string>();
  for (const p of pairs) for (const id of p.split('-')) ids.add(id);
  for (const id of extraNodes) ids.add(id);
  return { nodes: [...ids].map((id) => navNode(id)), edges: navEdges(...pairs) };
}

export const ref = (raw: string, nodeId: string | null = raw): NodeRef => ({ raw, nodeId });

export function navQuestion(text: string, start: NodeRef, end: NodeRef, intermediate: NodeRef[] = []): NavQuestion {
  return { id: `q-${text.length}`, text, start, intermediate, end };
}

export const traversable = (note = 'clear floor', more: Partial<Label> = {}): Label => ({ traversable: true, note, ...more });
export const blocked = (note = 'stairs', more: Partial<Label> = {}): Label => ({ traversable: false, note, ...more });

export function sceneOf(parts: Partial<Scene> & { graph: NavGraph }): Scene {
  return { id: 'HM3D00001', questions: [], labels: {} as LabelTable, hallucinated: [], foreignEntries: [], mesh: null, ...parts };
}
