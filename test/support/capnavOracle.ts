import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An independent reading of the CapNav release for tests: straight from the JSON files with the
 * definitions of the format document, sharing no code with src/. Tests compare Traversa against it.
 */

export interface ReleaseFile {
  path: string;
  text: string;
}

/** Every .json file under `dir`, paths relative to it with forward slashes, sorted. */
export function readTree(dir: string): ReleaseFile[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((p) => p.split('\\').join('/'))
    .filter((p) => p.endsWith('.json'))
    .sort()
    .map((path) => ({ path, text: readFileSync(join(dir, path), 'utf8') }));
}

export interface OracleNode {
  id: string;
  name: string;
}
export interface OracleQuestion {
  question: string;
  nodes_involved: { start: string; intermediate?: string[] | null; end: string };
}
export interface OracleLabel {
  traversable: boolean;
}
export interface OracleScene {
  id: string;
  nodes: OracleNode[];
  edges: { from: string; to: string }[];
  questions: OracleQuestion[];
  traverse: Record<string, unknown>;
}

export function loadScenes(dir: string): OracleScene[] {
  const json = (p: string) => JSON.parse(readFileSync(join(dir, p), 'utf8')) as unknown;
  return readdirSync(join(dir, 'graphs'))
    .filter((f) => f.endsWith('-graph.json'))
    .sort()
    .map((f) => {
      const id = f.slice(0, -'-graph.json'.length);
      const graph = json(`graphs/${f}`) as { nodes: OracleNode[]; edges: { from: string; to: string }[] };
      const qa = json(`qa/${id}_QA.json`) as OracleQuestion[] | { questions: OracleQuestion[] };
      return {
        id,
        nodes: graph.nodes,
        edges: graph.edges,
        questions: Array.isArray(qa) ? qa : qa.questions,
        traverse: json(`traverse/${id}-traverse.json`) as Record<string, unknown>,
      };
    });
}

const fold = (s: string) => s.trim().split(/\s+/).join(' ').toLowerCase();

/**
 * The node a reference names: a node id, else a name shared by no other node (any case),
 * else `id — name` / `id – name` / `id - name` with an existing id. Null when none applies.
 */
export function resolveIndependently(raw: string, nodes: readonly OracleNode[]): string | null {
  const text = raw.trim();
  if (nodes.some((n) => n.id === text)) return text;
  const named = nodes.filter((n) => fold(n.name) === fold(text));
  if (named.length === 1) return named[0]!.id;
  if (named.length > 1) return null;
  const dash = text.match(/^(\S+?)\s*[\u2014\u2013]\s*\S/) ?? text.match(/^(\S+)\s+-\s+\S/);
  if (dash && nodes.some((n) => n.id === dash[1])) return dash[1]!;
  return null;
}

export const refsOf = (q: OracleQuestion): string[] => [q.nodes_involved.start, ...(q.nodes_involved.intermediate ?? []), q.nodes_involved.end];

export const AGENT_OF_KEY: Record<string, string> = {
  HUMAN: 'HUMAN',
  WHEELCHAIR: 'WHEELCHAIR',
  ROBOT: 'HUMANOID',
  QUADRUPEDAL: 'QUADRUPEDAL',
  SWEEPER: 'SWEEPER',
};

/** agent → directed `from|to` key → traversable, ignoring keys that are not of that form. */
export function segmentLabels(scene: OracleScene): Map<string, Map<string, boolean>> {
  const out = new Map<string, Map<string, boolean>>();
  for (const [key, table] of Object.entries(scene.traverse)) {
    if (key === '_hallucinatedQuestions') continue;
    const agent = AGENT_OF_KEY[key] ?? key;
    const m = new Map<string, boolean>();
    for (const [seg, label] of Object.entries(table as Record<string, OracleLabel>)) if (seg.includes('|')) m.set(seg, label.traversable === true);
    out.set(agent, m);
  }
  return out;
}

/** Breadth-first search over hops u→v allowed by the label u|v, else v|u. */
export function reachable(scene: OracleScene, labels: Map<string, boolean> | undefined, start: string, end: string): boolean {
  if (start === end) return true;
  const ok = (u: string, v: string) => labels?.get(`${u}|${v}`) ?? labels?.get(`${v}|${u}`) ?? false;
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const u = queue.shift()!;
    for (const e of scene.edges) {
      const v = e.from === u ? e.to : e.to === u ? e.from : null;
      if (v === null || seen.has(v) || !ok(u, v)) continue;
      if (v === end) return true;
      seen.add(v);
      queue.push(v);
    }
  }
  return false;
}

export interface OracleStats {
  scenes: number;
  nodes: number;
  edges: number;
  questions: number;
  hallucinated: number;
  unresolved: number;
  labels: { total: number; traversable: number };
  agents: Record<string, { labels: number; traversable: number; tasks: number; feasible: number }>;
}

export function oracleStats(scenes: readonly OracleScene[]): OracleStats {
  const agentNames = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'];
  const s: OracleStats = {
    scenes: scenes.length,
    nodes: 0,
    edges: 0,
    questions: 0,
    hallucinated: 0,
    unresolved: 0,
    labels: { total: 0, traversable: 0 },
    agents: Object.fromEntries(agentNames.map((a) => [a, { labels: 0, traversable: 0, tasks: 0, feasible: 0 }])),
  };
  for (const scene of scenes) {
    s.nodes += scene.nodes.length;
    s.edges += scene.edges.length;
    const byAgent = segmentLabels(scene);
    for (const [agent, m] of byAgent) {
      const acc = (s.agents[agent] ??= { labels: 0, traversable: 0, tasks: 0, feasible: 0 });
      acc.labels += m.size;
      acc.traversable += [...m.values()].filter(Boolean).length;
    }
    const hallucinated = (scene.traverse._hallucinatedQuestions as string[] | undefined) ?? [];
    for (const q of scene.questions) {
      s.questions++;
      const ids = refsOf(q).map((r) => resolveIndependently(r, scene.nodes));
      if (ids.includes(null)) s.unresolved++;
      if (hallucinated.includes(q.question)) {
        s.hallucinated++;
        continue;
      }
      if (ids.includes(null)) continue;
      for (const [agent, acc] of Object.entries(s.agents)) {
        acc.tasks++;
        if (reachable(scene, byAgent.get(agent), ids[0]!, ids[ids.length - 1]!)) acc.feasible++;
      }
    }
  }
  for (const a of Object.values(s.agents)) {
    s.labels.total += a.labels;
    s.labels.traversable += a.traversable;
  }
  return s;
}
