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
    if (last && h - last.max <= gap) {
      last.max = h;
      last.nodeIds.push(n.id);
    } else bands.push({ index: bands.length, min: h, max: h, nodeIds: [n.id] });
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

/**
 * Why a floor cannot be given to a node (`floor` 0-based, as stored; null clears it): floors are
 * the ones the scan has (or, without a scan, the nodes' height bands), shown to people from 1.
 */
export function floorChoiceProblem(floor: number | null, count: number, from: 'scan' | 'nodes'): string | null {
  if (floor === null) return null;
  if (!Number.isInteger(floor)) return 'A floor is a whole number (1 is the lowest floor).';
  if (floor < 0) return 'Floors are numbered from 1 (the lowest floor).';
  if (floor < count) return null;
  const have = count === 0 ? 'no floors' : count === 1 ? 'one floor (1)' : `${count} floors (1–${count})`;
  return from === 'scan'
    ? `The scan has ${have}: there is no floor ${floor + 1}. Nothing was changed.`
    : `Without a scan, floors come from the nodes’ heights, and they make ${have}: there is no floor ${floor + 1}. Nothing was changed.`;
}
