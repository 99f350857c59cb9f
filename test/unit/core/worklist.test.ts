import { describe, expect, it } from 'vitest';
import { buildBlockCutTree, edgesOnSimplePaths } from '../../../src/core/blockCutTree.ts';
import { edgesByEnumeration } from '../../../src/core/simplePaths.ts';
import { workList } from '../../../src/core/worklist.ts';
import { describeGraph, mulberry32, pick, randomGraph, randomInt, type SmallGraph } from '../../support/random.ts';
import { navGraph } from '../../support/sceneBuilder.ts';

/** What the original tool would ask the annotator to label: edges of every simple path, pair by pair. */
function bruteForceWorkList(graph: SmallGraph, waypoints: readonly string[]): string[] {
  const keys = new Set<string>();
  for (let i = 0; i + 1 < waypoints.length; i++) {
    for (const k of edgesByEnumeration(graph, waypoints[i]!, waypoints[i + 1]!).edges) keys.add(k);
  }
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function isCanonical(list: readonly string[]): boolean {
  return list.every((key, i) => {
    const parts = key.split('|');
    return parts.length === 2 && parts[0]! < parts[1]! && (i === 0 || list[i - 1]! < key);
  });
}

function expectCanonicalKeys(list: readonly string[]): void {
  for (const key of list) {
    const [a, b, ...rest] = key.split('|');
    expect(rest, key).toEqual([]);
    expect(a! < b!, `${key} is not written smaller id first`).toBe(true);
  }
  for (let i = 1; i < list.length; i++) expect(list[i - 1]! < list[i]!, `${list[i - 1]} before ${list[i]}`).toBe(true);
}

const SEEDS = Array.from({ length: 40 }, (_, i) => 1000 + i * 7919);
const GRAPHS_PER_SEED = 12;

describe('the labelling work list of a question agrees with enumerating every simple path', () => {
  it('on random small houses, for every start and end (including start = end)', () => {
    let pairs = 0,
      nonEmpty = 0,
      partial = 0;
    const shapes = new Set<string>();
    for (const seed of SEEDS) {
      const rng = mulberry32(seed);
      for (let g = 0; g < GRAPHS_PER_SEED; g++) {
        const graph = randomGraph(rng);
        shapes.add(graph.shape);
        const bct = buildBlockCutTree(graph);
        const allEdges = new Set(bruteForceAllEdges(graph));
        for (const s of graph.nodes)
          for (const t of graph.nodes) {
            const expected = bruteForceWorkList(graph, [s.id, t.id]);
            const actual = workList(graph, [s.id, t.id], bct);
            // Build the failure message only when the lists differ: this loop runs thousands of times.
            if (!sameList(actual, expected)) {
              expect(actual, `seed ${seed} graph #${g} ${describeGraph(graph)} from ${s.id} to ${t.id}`).toEqual(expected);
            }
            if (!isCanonical(actual)) expectCanonicalKeys(actual);
            pairs++;
            if (actual.length) nonEmpty++;
            if (actual.length && actual.length < allEdges.size) partial++;
          }
      }
    }
    // The corpus must exercise the interesting cases, not just empty answers or whole graphs.
    expect(shapes).toEqual(new Set(['sparse', 'dense', 'blobs']));
    expect(pairs).toBeGreaterThan(5000);
    expect(nonEmpty).toBeGreaterThan(pairs / 4);
    expect(partial).toBeGreaterThan(pairs / 10);
  });

  it('for a route through intermediate waypoints, is the union over consecutive legs', () => {
    const rng = mulberry32(424242);
    let legsWithEdges = 0;
    for (let g = 0; g < 300; g++) {
      const graph = randomGraph(rng);
      const ids = graph.nodes.map((n) => n.id);
      const route = Array.from({ length: randomInt(rng, 3, 5) }, () => pick(rng, ids));
      const expected = bruteForceWorkList(graph, route);
      expect(workList(graph, route), `graph #${g} ${describeGraph(graph)} route ${route.join(' → ')}`).toEqual(expected);
      if (expected.length) legsWithEdges++;
    }
    expect(legsWithEdges).toBeGreaterThan(100);
  });
});

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Every distinct undirected edge between two different existing nodes. */
function bruteForceAllEdges(graph: SmallGraph): string[] {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const keys = new Set<string>();
  for (const e of graph.edges) {
    if (e.from === e.to || !ids.has(e.from) || !ids.has(e.to)) continue;
    keys.add(e.from < e.to ? `${e.from}|${e.to}` : `${e.to}|${e.from}`);
  }
  return [...keys];
}

describe('hand-drawn floor plans', () => {
  it('a corridor of rooms: only the rooms between start and end are labelled', () => {
    const corridor = navGraph(['a-b', 'b-c', 'c-d', 'd-e']);
    expect(workList(corridor, ['b', 'd'])).toEqual(['b|c', 'c|d']);
    expect(workList(corridor, ['d', 'b'])).toEqual(['b|c', 'c|d']);
  });

  it('a ring of rooms: every wall opening lies on one way round or the other', () => {
    const ring = navGraph(['a-b', 'b-c', 'c-d', 'd-e', 'e-a']);
    expect(workList(ring, ['a', 'c'])).toEqual(['a|b', 'a|e', 'b|c', 'c|d', 'd|e']);
  });

  it('two rings sharing a hallway: the ring the route never enters is not labelled', () => {
    // Ring 1: a-b-h; ring 2: h-x-y. The hallway h is a cut vertex.
    const house = navGraph(['a-b', 'b-h', 'h-a', 'h-x', 'x-y', 'y-h']);
    expect(workList(house, ['a', 'b'])).toEqual(['a|b', 'a|h', 'b|h']);
    expect(workList(house, ['a', 'x'])).toEqual(['a|b', 'a|h', 'b|h', 'h|x', 'h|y', 'x|y']);
    expect(workList(house, ['h', 'y'])).toEqual(['h|x', 'h|y', 'x|y']);
  });

  it('a barbell: crossing the bridge labels it, and the far blob stays out of the work list', () => {
    // Left blob l1-l2-l3, bridge l3-r1, right blob r1-r2-r3; a stub r3-s hangs off the right blob.
    const barbell = navGraph(['l1-l2', 'l2-l3', 'l3-l1', 'l3-r1', 'r1-r2', 'r2-r3', 'r3-r1', 'r3-s']);
    expect(workList(barbell, ['l1', 'r1'])).toEqual(['l1|l2', 'l1|l3', 'l2|l3', 'l3|r1']);
    expect(workList(barbell, ['l1', 'l2'])).toEqual(['l1|l2', 'l1|l3', 'l2|l3']);
    expect(workList(barbell, ['l2', 's'])).toContain('l3|r1');
    expect(workList(barbell, ['l2', 's'])).toHaveLength(8);
  });

  it('rooms in different buildings, or an unknown room, need no labels at all', () => {
    const twoBuildings = navGraph(['a-b', 'c-d'], ['lonely']);
    expect(workList(twoBuildings, ['a', 'd'])).toEqual([]);
    expect(workList(twoBuildings, ['a', 'lonely'])).toEqual([]);
    expect(workList(twoBuildings, ['a', 'ghost'])).toEqual([]);
    expect(workList(twoBuildings, ['a', 'a'])).toEqual([]);
  });

  it('a self-loop and a doubled corridor are labelled once, as one undirected edge', () => {
    const g = navGraph(['a-a', 'a-b', 'b-a', 'b-c']);
    expect(workList(g, ['a', 'c'])).toEqual(['a|b', 'b|c']);
  });

  it('ids compare as strings: node_10 sorts before node_9', () => {
    const g = navGraph(['node_9-node_10', 'node_10-node_100']);
    expect(workList(g, ['node_9', 'node_100'])).toEqual(['node_10|node_100', 'node_10|node_9']);
  });

  it('a 30×30 grid of rooms, corner to corner: every one of the 1740 openings is labelled', () => {
    // Enumerating simple paths here would never finish; the test timeout holds the work list to linear time.
    const pairs: string[] = [];
    const id = (r: number, c: number) => `r${r}c${c}`;
    for (let r = 0; r < 30; r++)
      for (let c = 0; c < 30; c++) {
        if (c + 1 < 30) pairs.push(`${id(r, c)}-${id(r, c + 1)}`);
        if (r + 1 < 30) pairs.push(`${id(r, c)}-${id(r + 1, c)}`);
      }
    const grid = navGraph(pairs);
    const list = workList(grid, [id(0, 0), id(29, 29)]);
    expect(list).toHaveLength(2 * 30 * 29);
    expect(isCanonical(list)).toBe(true);
  });

  it('a block–cut tree built once answers many questions of one scene', () => {
    const house = navGraph(['a-b', 'b-h', 'h-a', 'h-x']);
    const bct = buildBlockCutTree(house);
    expect([...edgesOnSimplePaths(bct, 'x', 'a')].sort()).toEqual(['a|b', 'a|h', 'b|h', 'h|x']);
    expect([...edgesOnSimplePaths(bct, 'h', 'x')]).toEqual(['h|x']);
  });
});
