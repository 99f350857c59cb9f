import { prepareGeometry, suggestScene } from '../engine/suggest/index.ts';
import type { StudioStore, SuggestionView, SuggestionsState } from '../state/store.ts';
import type { MeshManager } from './meshManager.ts';

/**
 * Runs the suggestion engine on a scene's loaded scan with progress, and keeps the result in the
 * session (suggestions are derived data: only a confirmed label enters the document).
 */
export class SuggestionRunner {
  private running = new Map<string, AbortController>();

  constructor(private store: StudioStore, private meshes: MeshManager) {}

  private set(sceneId: string, state: SuggestionsState) {
    this.store.setState((s) => ({ suggestions: { ...s.suggestions, [sceneId]: state } }));
  }

  async compute(sceneId: string): Promise<void> {
    const { document } = this.store.getState();
    const scene = document.project?.scenes.find((s) => s.id === sceneId);
    const loaded = this.meshes.get(sceneId);
    if (!scene || !document.project) return;
    if (!loaded) { this.set(sceneId, { state: 'error', message: 'The scan is not loaded yet: open the scene and wait for it.' }); return; }
    this.running.get(sceneId)?.abort();
    const abort = new AbortController();
    this.running.set(sceneId, abort);
    this.set(sceneId, { state: 'running', fraction: 0, message: 'Preparing the scan…' });
    try {
      const geom = prepareGeometry(loaded);
      const result = await suggestScene(geom, scene.graph, document.project.profiles, {
        signal: abort.signal,
        onProgress: (p: { fraction: number; message: string }) => this.set(sceneId, { state: 'running', fraction: p.fraction, message: p.message }),
      });
      const agents: Record<string, Record<string, SuggestionView>> = {};
      for (const [agent, byEdge] of Object.entries(result.agents)) {
        agents[agent] = {};
        for (const [edge, sug] of Object.entries(byEdge)) {
          agents[agent][edge] = { traversable: sug.traversable, reason: sug.reason, note: sug.note, measured: { ...sug.measured } as Record<string, number | number[]>, navmeshRoute: sug.navmeshRoute };
        }
      }
      if (!abort.signal.aborted) this.set(sceneId, { state: 'ready', agents, computedAt: Date.now() });
    } catch (e) {
      if (!abort.signal.aborted) this.set(sceneId, { state: 'error', message: `Suggestions failed: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      if (this.running.get(sceneId) === abort) this.running.delete(sceneId);
    }
  }
}
