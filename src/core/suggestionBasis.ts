import type { AgentProfile } from './agents.ts';
import type { Scene } from './project.ts';

/**
 * What a scene's suggestions were computed from: the scan (its stored key and how it is placed),
 * the graph's geometry (node positions and edges) and the agent profiles. Suggestions are derived
 * data: kept with the project, but only trusted while their basis is still the scene's.
 */
export interface SuggestionBasis {
  meshKey: string;
  upAxis: 'y' | 'z';
  unitScale: number;
  /** Fingerprint of node ids and positions and of the edges' ends (names and floors do not change a suggestion). */
  graph: string;
  /** Fingerprint of the agent profiles. */
  agents: string;
}

/** 53-bit string hash (cyrb53): enough to tell two graphs apart, not a security measure. */
function hash(text: string): string {
  let h1 = 0xdeadbeef,
    h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

export function graphFingerprint(graph: Scene['graph']): string {
  const nodes = graph.nodes.map((n) => `${n.id}@${n.position.x},${n.position.y},${n.position.z}`).sort();
  const edges = graph.edges.map((e) => (e.from < e.to ? `${e.from}|${e.to}` : `${e.to}|${e.from}`)).sort();
  return hash(`${nodes.join(';')}#${edges.join(';')}`);
}

export const agentsFingerprint = (profiles: readonly AgentProfile[]): string => hash(JSON.stringify(profiles));

/** The basis suggestions computed now would have; null for a scene without a scan (nothing to compute from). */
export function suggestionBasis(scene: Pick<Scene, 'graph' | 'mesh'>, profiles: readonly AgentProfile[]): SuggestionBasis | null {
  if (!scene.mesh) return null;
  return {
    meshKey: scene.mesh.key,
    upAxis: scene.mesh.upAxis,
    unitScale: scene.mesh.unitScale,
    graph: graphFingerprint(scene.graph),
    agents: agentsFingerprint(profiles),
  };
}

/** Why suggestions computed on `stored` no longer describe the scene as it is (`current`); null while they do. */
export function staleReason(stored: SuggestionBasis, current: SuggestionBasis | null): string | null {
  if (!current) return 'they were computed on a scan this scene no longer has';
  if (stored.meshKey !== current.meshKey) return 'they were computed on another scan (the scan was replaced since)';
  if (stored.upAxis !== current.upAxis || stored.unitScale !== current.unitScale) return 'the scan’s up axis or scale changed since they were computed';
  if (stored.graph !== current.graph) return 'the graph was edited since they were computed (nodes moved, added or removed, or edges changed)';
  if (stored.agents !== current.agents) return 'the agent profiles changed since they were computed';
  return null;
}
