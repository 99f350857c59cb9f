import { undirectedKey } from '../../../core/graph.ts';
import type { QueueItem } from '../../../core/queue.ts';
import { staleReason, suggestionBasis, type SuggestionBasis } from '../../../core/suggestionBasis.ts';
import type { Scene } from '../../../core/project.ts';
import type { StudioState, SuggestionView } from '../../../state/store.ts';

// Fingerprinting a graph walks every node: once per (graph, mesh binding, profiles), not per store update.
let basisCache: { graph: Scene['graph']; mesh: Scene['mesh']; profiles: unknown; basis: SuggestionBasis | null } | null = null;
function currentBasis(s: StudioState, scene: Scene): SuggestionBasis | null {
  const profiles = s.document.project?.profiles ?? [];
  if (basisCache && basisCache.graph === scene.graph && basisCache.mesh === scene.mesh && basisCache.profiles === profiles) return basisCache.basis;
  basisCache = { graph: scene.graph, mesh: scene.mesh, profiles, basis: suggestionBasis(scene, profiles) };
  return basisCache.basis;
}

/**
 * Why a scene's suggestions no longer describe it (its scan replaced or removed, its graph edited,
 * the agents changed), or null when they do or there are none. Stale suggestions are not offered.
 */
export function suggestionsStale(s: StudioState, sceneId: string): string | null {
  const sug = s.suggestions[sceneId];
  const scene = s.document.project?.scenes.find((x) => x.id === sceneId);
  if (sug?.state !== 'ready' || !scene) return null;
  return staleReason(sug.basis, currentBasis(s, scene));
}

/** The suggestions of a scene that still describe it, per agent and undirected edge. */
export function freshSuggestions(s: StudioState, sceneId: string): Record<string, Record<string, SuggestionView>> | null {
  const sug = s.suggestions[sceneId];
  return sug?.state === 'ready' && !suggestionsStale(s, sceneId) ? sug.agents : null;
}

/** The fresh suggestion for a queue item, if any. */
export function suggestionFor(s: StudioState, sceneId: string, item: QueueItem): SuggestionView | undefined {
  return freshSuggestions(s, sceneId)?.[item.agent]?.[undirectedKey(item.from, item.to)];
}
