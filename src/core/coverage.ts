import type { AgentName } from './agents.ts';
import { buildBlockCutTree } from './blockCutTree.ts';
import { undirectedKey, parseSegmentKey } from './graph.ts';
import type { Scene } from './project.ts';
import { isHallucinated } from './project.ts';
import { resolvedWaypoints } from './questions.ts';
import { workList } from './worklist.ts';

export interface AgentCoverage {
  agent: AgentName;
  /** Undirected edges some benchmark question needs labelled. */
  needed: number;
  /** Of those, how many carry a label for this agent in at least one direction. */
  labelled: number;
  traversable: number;
  notTraversable: number;
}

/** The union of the work lists of a scene's benchmark questions (not hallucinated, all references resolved). */
export function neededEdges(scene: Scene): Set<string> {
  const bct = buildBlockCutTree(scene.graph);
  const needed = new Set<string>();
  for (const q of scene.questions) {
    if (isHallucinated(scene, q.text)) continue;
    const wps = resolvedWaypoints(q);
    if (wps) for (const k of workList(scene.graph, wps, bct)) needed.add(k);
  }
  return needed;
}

/** Per-agent label coverage of the edges the scene's questions need. */
export function labelCoverage(scene: Scene, agents: readonly AgentName[]): AgentCoverage[] {
  const needed = neededEdges(scene);
  return agents.map((agent) => {
    const labelled = new Set<string>();
    let traversable = 0,
      notTraversable = 0;
    for (const [key, label] of Object.entries(scene.labels[agent] ?? {})) {
      const seg = parseSegmentKey(key);
      if (!seg) continue;
      const k = undirectedKey(seg.from, seg.to);
      if (needed.has(k)) labelled.add(k);
      if (label.traversable) traversable++;
      else notTraversable++;
    }
    return { agent, needed: needed.size, labelled: labelled.size, traversable, notTraversable };
  });
}
