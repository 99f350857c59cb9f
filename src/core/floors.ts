import type { NavNode } from './graph.ts';

export interface FloorBand {
  index: number;
  /** Lowest and highest node height on this floor (metres, up axis). */
  min: number;
  max: number;
  nodeIds: string[];
}

/**
 * Group nodes into floors by height: sorted heights split wherever consecutive nodes are more
 * than `gap` apart (a storey is ~2.5–3.5 m; furniture-level differences are well under 1.5 m).
 * Nodes with an assigned `floor` keep it; this is for graphs that carry none, like CapNav's.
 */
export function floorBands(nodes: readonly NavNode[], up: 'y' | 'z' = 'y', gap = 1.5): FloorBand[] {
  const sorted = [...nodes].sort((a, b) => a.position[up] - b.position[up]);
  const bands: FloorBand[] = [];
  for (const n of sorted) {
    const h = n.position[up];
    const last = bands[bands.length - 1];
    if (last && h - last.max <= gap) { last.max = h; last.nodeIds.push(n.id); }
    else bands.push({ index: bands.length, min: h, max: h, nodeIds: [n.id] });
  }
  return bands;
}

/** Floor index of every node: its assigned floor, else its height band. */
export function floorOf(nodes: readonly NavNode[], up: 'y' | 'z' = 'y'): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of floorBands(nodes, up)) for (const id of b.nodeIds) out.set(id, b.index);
  for (const n of nodes) if (n.floor !== null) out.set(n.id, n.floor);
  return out;
}

/** A node's height in the viewport's world (Y up, metres): the scan's up axis and scale applied. */
export function worldHeight(node: Pick<NavNode, 'position'>, mesh: { upAxis: 'y' | 'z'; unitScale: number } | null): number {
  return (mesh?.upAxis === 'z' ? node.position.z : node.position.y) * (mesh?.unitScale ?? 1);
}

