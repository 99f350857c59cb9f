import { adjacency, undirectedKey, type NavGraph } from './graph.ts';

/**
 * The block–cut tree of an undirected graph: its biconnected components ("blocks"), its cut
 * vertices, and the tree joining each block to the cut vertices it contains. Built once in
 * O(V + E) with an iterative Hopcroft–Tarjan search (no recursion, so graphs of any depth work).
 */
export interface BlockCutTree {
  ids: string[];
  index: Map<string, number>;
  /** Each block's edges as undirected keys `a|b` (a < b). */
  blockEdges: string[][];
  /** Tree node of each vertex: its cut-vertex node if it is one, else its only block; -1 if isolated. */
  treeNodeOf: Int32Array;
  /** Tree adjacency; nodes 0..blocks-1 are blocks, the rest cut vertices. */
  tree: number[][];
  blockCount: number;
}

export function buildBlockCutTree(graph: Pick<NavGraph, 'nodes' | 'edges'>): BlockCutTree {
  const adjById = adjacency(graph);
  const ids = [...adjById.keys()];
  const index = new Map(ids.map((id, i) => [id, i]));
  const adj = ids.map((id) => adjById.get(id)!.map((w) => index.get(w)!));
  const n = ids.length;

  const disc = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const blocks: number[][] = []; // flattened pairs [u0, v0, u1, v1, ...]
  const edgeStack: number[] = [];
  let time = 0;
  // Explicit DFS stack: vertex, parent, next neighbour position.
  const sv: number[] = [];
  const sp: number[] = [];
  const si: number[] = [];

  for (let root = 0; root < n; root++) {
    if (disc[root] !== -1) continue;
    disc[root] = low[root] = time++;
    sv.push(root);
    sp.push(-1);
    si.push(0);
    while (sv.length) {
      const top = sv.length - 1;
      const v = sv[top]!;
      const nbrs = adj[v]!;
      if (si[top]! < nbrs.length) {
        const w = nbrs[si[top]!++]!;
        if (disc[w] === -1) {
          edgeStack.push(v, w);
          disc[w] = low[w] = time++;
          sv.push(w);
          sp.push(v);
          si.push(0);
        } else if (w !== sp[top] && disc[w]! < disc[v]!) {
          edgeStack.push(v, w); // back edge
          low[v] = Math.min(low[v]!, disc[w]!);
        }
        continue;
      }
      sv.pop();
      sp.pop();
      si.pop();
      if (!sv.length) break;
      const p = sv[sv.length - 1]!;
      low[p] = Math.min(low[p]!, low[v]!);
      if (low[v]! >= disc[p]!) {
        // p separates v's subtree: the edges above (p, v) on the stack form one block.
        const block: number[] = [];
        for (;;) {
          const b = edgeStack.pop()!;
          const a = edgeStack.pop()!;
          block.push(a, b);
          if (a === p && b === v) break;
        }
        blocks.push(block);
      }
    }
  }

  const blocksOfVertex: number[][] = ids.map(() => []);
  blocks.forEach((block, bi) => {
    for (const u of block) {
      const list = blocksOfVertex[u]!;
      if (list[list.length - 1] !== bi) list.push(bi);
    }
  });
  // Within a block a vertex can appear several times non-consecutively; dedupe properly.
  for (let u = 0; u < n; u++) blocksOfVertex[u] = [...new Set(blocksOfVertex[u])];

  const blockCount = blocks.length;
  const tree: number[][] = blocks.map(() => []);
  const treeNodeOf = new Int32Array(n).fill(-1);
  for (let u = 0; u < n; u++) {
    const bs = blocksOfVertex[u]!;
    if (bs.length === 1) treeNodeOf[u] = bs[0]!;
    else if (bs.length > 1) {
      const c = tree.length;
      tree.push([...bs]);
      for (const b of bs) tree[b]!.push(c);
      treeNodeOf[u] = c;
    }
  }
  const blockEdges = blocks.map((block) => {
    const keys: string[] = [];
    for (let i = 0; i < block.length; i += 2) keys.push(undirectedKey(ids[block[i]!]!, ids[block[i + 1]!]!));
    return keys;
  });
  return { ids, index, blockEdges, treeNodeOf, tree, blockCount };
}

/**
 * Every undirected edge lying on at least one simple path from `s` to `t`: exactly the edges of
 * the blocks on the block–cut tree path between them (each block on that path is entered and left
 * through different vertices, and a biconnected block has a simple path between any two of its
 * vertices through any of its edges). Empty when s = t or they are not connected.
 */
export function edgesOnSimplePaths(bct: BlockCutTree, s: string, t: string): Set<string> {
  const out = new Set<string>();
  const si = bct.index.get(s);
  const ti = bct.index.get(t);
  if (si === undefined || ti === undefined || si === ti) return out;
  const from = bct.treeNodeOf[si]!;
  const to = bct.treeNodeOf[ti]!;
  if (from < 0 || to < 0) return out;
  const parent = new Int32Array(bct.tree.length).fill(-2);
  parent[from] = -1;
  const queue = [from];
  for (let head = 0; head < queue.length && parent[to] === -2; head++) {
    const x = queue[head]!;
    for (const y of bct.tree[x]!)
      if (parent[y] === -2) {
        parent[y] = x;
        queue.push(y);
      }
  }
  if (parent[to] === -2) return out;
  for (let x = to; x !== -1; x = parent[x]!) {
    if (x < bct.blockCount) for (const k of bct.blockEdges[x]!) out.add(k);
  }
  return out;
}
