/**
 * The order an automatic tour visits the graph's nodes in: an open path (it need not come back)
 * through every node, short by a cheap heuristic — nearest neighbour from every start, the
 * shortest kept, then 2-opt until no reversal shortens it. Exact answers are not worth it: a
 * house has tens of nodes and the walk between them is what the video shows.
 */

/** `dist(i, j)`: the walking distance between nodes i and j (symmetric, finite). */
export function tourOrder(count: number, dist: (i: number, j: number) => number): number[] {
  if (count <= 2) return Array.from({ length: count }, (_, i) => i);
  const d: number[][] = Array.from({ length: count }, (_, i) => Array.from({ length: count }, (_, j) => (i === j ? 0 : dist(i, j))));
  let best: number[] = [];
  let bestLength = Infinity;
  for (let start = 0; start < count; start++) {
    const order = nearestNeighbour(d, start);
    const length = pathLength(d, order);
    // Ties keep the earlier start, so the same graph always gives the same tour.
    if (length < bestLength - 1e-9) {
      best = order;
      bestLength = length;
    }
  }
  return twoOpt(d, best);
}

function nearestNeighbour(d: number[][], start: number): number[] {
  const seen = new Set([start]);
  const order = [start];
  while (order.length < d.length) {
    const at = order[order.length - 1]!;
    let next = -1;
    for (let j = 0; j < d.length; j++) if (!seen.has(j) && (next < 0 || d[at]![j]! < d[at]![next]!)) next = j;
    seen.add(next);
    order.push(next);
  }
  return order;
}

function pathLength(d: number[][], order: readonly number[]): number {
  let n = 0;
  for (let k = 1; k < order.length; k++) n += d[order[k - 1]!]![order[k]!]!;
  return n;
}

/** Reverse stretches of an open path while that shortens it (either end may move too). */
function twoOpt(d: number[][], start: number[]): number[] {
  const order = start.slice();
  const n = order.length;
  const at = (k: number) => order[k]!;
  for (let improved = true, rounds = 0; improved && rounds < 100; rounds++) {
    improved = false;
    for (let i = 0; i < n - 1; i++) {
      for (let j = i + 1; j < n; j++) {
        // Reversing order[i..j] changes the edges (i-1, i) and (j, j+1) into (i-1, j) and (i, j+1).
        const before = (i > 0 ? d[at(i - 1)]![at(i)]! : 0) + (j < n - 1 ? d[at(j)]![at(j + 1)]! : 0);
        const after = (i > 0 ? d[at(i - 1)]![at(j)]! : 0) + (j < n - 1 ? d[at(i)]![at(j + 1)]! : 0);
        if (after < before - 1e-9) {
          order.splice(i, j - i + 1, ...order.slice(i, j + 1).reverse());
          improved = true;
        }
      }
    }
  }
  return order;
}
