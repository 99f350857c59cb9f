import type { NavGraph } from '../../src/core/graph.ts';

/** A small seeded PRNG (mulberry32, the scorers' own): the same seed always yields the same graphs, so a failure can be replayed. */
export { seededRandom as mulberry32 } from '../../src/core/scoring/bootstrap.ts';

export type Rng = () => number;

export const randomInt = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

export type GraphShape = 'sparse' | 'dense' | 'blobs';
export type SmallGraph = Pick<NavGraph, 'nodes' | 'edges'> & { shape: GraphShape };

const node = (id: string) => ({ id, name: id, description: '', position: { x: 0, y: 0, z: 0 }, floor: null });

/**
 * A random small navigation graph of 1–9 nodes. Ids are sparse (`node_3`, `node_12`…) so that
 * string order differs from numeric order, as in the release. Three shapes: sparse (trees, bridges,
 * disconnected parts), dense (cycles) and blobs (dense groups joined by single bridges, i.e. cut
 * vertices). Self-loops and repeated edges (same or reversed direction) are sprinkled in.
 */
export function randomGraph(rng: Rng): SmallGraph {
  const n = randomInt(rng, 1, 9);
  const used = new Set<number>();
  while (used.size < n) used.add(randomInt(rng, 0, 20));
  const ids = [...used].map((k) => `node_${k}`);
  const shape = pick(rng, ['sparse', 'dense', 'blobs'] as const);
  const pairs: [string, string][] = [];
  const maybe = (a: string, b: string, p: number) => {
    if (rng() < p) pairs.push(rng() < 0.5 ? [a, b] : [b, a]);
  };

  if (shape === 'blobs') {
    const groups = randomInt(rng, 2, 3);
    const groupOf = ids.map(() => randomInt(rng, 0, groups - 1));
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        if (groupOf[i] === groupOf[j]) maybe(ids[i]!, ids[j]!, 0.7);
      }
    for (let g = 1; g < groups; g++) {
      const from = ids.filter((_, i) => groupOf[i]! < g);
      const to = ids.filter((_, i) => groupOf[i] === g);
      if (from.length && to.length && rng() < 0.85) pairs.push([pick(rng, from), pick(rng, to)]);
    }
  } else {
    // Dense graphs stay at ≤7 nodes so the brute-force enumeration stays fast.
    const p = shape === 'sparse' ? 0.1 + rng() * 0.25 : n <= 7 ? 0.5 + rng() * 0.4 : 0.35;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) maybe(ids[i]!, ids[j]!, p);
  }
  if (rng() < 0.3) {
    const v = pick(rng, ids);
    pairs.push([v, v]);
  }
  if (pairs.length && rng() < 0.3) {
    const [a, b] = pick(rng, pairs);
    pairs.push(rng() < 0.5 ? [a, b] : [b, a]);
  }

  return { shape, nodes: ids.map(node), edges: pairs.map(([from, to], i) => ({ id: `edge_${i}`, from, to })) };
}

export function describeGraph(g: Pick<NavGraph, 'nodes' | 'edges'>): string {
  return `nodes [${g.nodes.map((n) => n.id).join(', ')}] edges [${g.edges.map((e) => `${e.from}-${e.to}`).join(', ')}]`;
}
