import { pyJsonLoads } from './pyJson.ts';
import { pyStr } from './pyText.ts';
import { isDict, pyTruthy, type PyValue } from './pyValue.ts';
import type { CompatGroundTruth, CompatInputFile, CompatLabel, CompatSceneTruth } from './types.ts';

export interface GroundTruthRead {
  groundTruth: CompatGroundTruth;
  /** Files that could not be used, with why: the released scorer would have crashed on them. */
  problems: { path: string; message: string }[];
}

const GRAPH = /(?:^|\/)([^/]+)-graph\.json$/;
const TRAVERSE = /(?:^|\/)([^/]+)-traverse\.json$/;

/**
 * The scorer's ground truth from the release files (any of them may be passed; only
 * `<SCENE>-graph.json` and `<SCENE>-traverse.json` are read, matched by file name).
 * A scene is known when its graph is; without a traverse file it has no labels.
 * Python truthiness applies: `traversable` counts when truthy; a note that is not a string is no note.
 * Nodes or edges whose ids are not strings, and label entries that are not objects, are left out.
 */
export function groundTruthFromRelease(files: readonly CompatInputFile[]): GroundTruthRead {
  const problems: GroundTruthRead['problems'] = [];
  const graphs = new Map<string, Pick<CompatSceneTruth, 'nodes' | 'edges'>>();
  const traverses = new Map<string, CompatSceneTruth['traverse']>();
  for (const file of files) {
    const path = file.path.replace(/\\/g, '/');
    const g = GRAPH.exec(path),
      t = TRAVERSE.exec(path);
    if (!g && !t) continue;
    const parsed = pyJsonLoads(file.text);
    if (!parsed.ok) {
      problems.push({ path: file.path, message: `not valid JSON: ${parsed.message} at offset ${parsed.offset}` });
      continue;
    }
    if (g) {
      const graph = readGraph(parsed.value);
      if (graph) graphs.set(g[1]!, graph);
      else problems.push({ path: file.path, message: 'expected an object with "nodes" and "edges" lists' });
    } else {
      const traverse = readTraverse(parsed.value);
      if (traverse) traverses.set(t![1]!, traverse);
      else problems.push({ path: file.path, message: 'expected an object keyed by agent' });
    }
  }
  const groundTruth = new Map<string, CompatSceneTruth>();
  for (const [scene, graph] of graphs) groundTruth.set(scene, { ...graph, traverse: traverses.get(scene) ?? {} });
  return { groundTruth, problems };
}

function readGraph(v: PyValue): Pick<CompatSceneTruth, 'nodes' | 'edges'> | null {
  if (!isDict(v)) return null;
  const nodes = v.get('nodes'),
    edges = v.get('edges');
  if (!Array.isArray(nodes) || !Array.isArray(edges)) return null;
  const out: { nodes: { id: string; name: string }[]; edges: { from: string; to: string }[] } = { nodes: [], edges: [] };
  for (const n of nodes) {
    if (!isDict(n)) continue;
    const id = n.get('id'),
      name = n.get('name');
    if (typeof id === 'string') out.nodes.push({ id, name: name === undefined ? '' : pyStr(name) });
  }
  for (const e of edges) {
    if (!isDict(e)) continue;
    const from = e.get('from'),
      to = e.get('to');
    if (typeof from === 'string' && typeof to === 'string') out.edges.push({ from, to });
  }
  return out;
}

function readTraverse(v: PyValue): CompatSceneTruth['traverse'] | null {
  if (!isDict(v)) return null;
  // Null-prototype objects: a key such as `__proto__` is an ordinary key, as in a Python dict.
  const out: Record<string, Record<string, CompatLabel>> = Object.create(null);
  for (const [agent, table] of v) {
    // `_hallucinatedQuestions` is a list, not a table; the released scorer never excludes them.
    if (!isDict(table)) continue;
    const labels: Record<string, CompatLabel> = Object.create(null);
    for (const [key, entry] of table) {
      if (!isDict(entry)) continue;
      const note = entry.get('note');
      labels[key] = {
        traversable: pyTruthy(entry.get('traversable')),
        note: typeof note === 'string' ? note : null,
        ...(entry.size === 0 ? { empty: true } : {}),
      };
    }
    out[agent] = labels;
  }
  return out;
}
