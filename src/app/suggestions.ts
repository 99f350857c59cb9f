import { prepareGeometry, type SceneSuggestions } from '../engine/suggest/index.ts';
import { packGeometry } from '../engine/suggest/transfer.ts';
import type { SuggestReply, SuggestRequest } from '../engine/suggest/workerMessages.ts';
import type { StudioStore, SuggestionView, SuggestionsState } from '../state/store.ts';
import type { MeshManager } from './meshManager.ts';

/**
 * Runs the suggestion engine on a scene's loaded scan in a worker, with progress, and keeps the
 * result in the session (suggestions are derived data: only a confirmed label enters the document).
 * The page stays responsive: navmeshes and probes of a large scan take seconds.
 */
export class SuggestionRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  /** Scene → the id of its run in progress. */
  private running = new Map<string, number>();
  private waiting = new Map<number, { onProgress: (f: number, m: string) => void; resolve: (r: SceneSuggestions) => void; reject: (e: Error) => void }>();

  constructor(private store: StudioStore, private meshes: MeshManager) {}

  private set(sceneId: string, state: SuggestionsState) {
    this.store.setState((s) => ({ suggestions: { ...s.suggestions, [sceneId]: state } }));
  }

  private post(msg: SuggestRequest, transfer: Transferable[] = []) {
    if (!this.worker) {
      this.worker = new Worker(new URL('../workers/suggest.worker.ts', import.meta.url), { type: 'module', name: 'suggest' });
      this.worker.addEventListener('message', (e: MessageEvent<SuggestReply>) => this.onReply(e.data));
      this.worker.addEventListener('error', (e) => {
        for (const w of this.waiting.values()) w.reject(new Error(e.message || 'the suggestion worker stopped'));
        this.waiting.clear();
        this.worker = null;
      });
    }
    this.worker.postMessage(msg, transfer);
  }

  private onReply(m: SuggestReply) {
    if (m.type === 'ready') return;
    const w = this.waiting.get(m.id);
    if (!w) return;
    if (m.type === 'progress') { w.onProgress(m.fraction, m.message); return; }
    this.waiting.delete(m.id);
    if (m.type === 'done') w.resolve(m.result);
    else w.reject(Object.assign(new Error(m.message), { aborted: m.aborted }));
  }

  async compute(sceneId: string): Promise<void> {
    const { document } = this.store.getState();
    const scene = document.project?.scenes.find((s) => s.id === sceneId);
    const loaded = this.meshes.get(sceneId);
    if (!scene || !document.project) return;
    if (!loaded) { this.set(sceneId, { state: 'error', message: 'The scan is not loaded yet: open the scene and wait for it.' }); return; }
    const previous = this.running.get(sceneId);
    if (previous !== undefined) this.post({ type: 'abort', id: previous });
    const id = this.nextId++;
    this.running.set(sceneId, id);
    this.set(sceneId, { state: 'running', fraction: 0, message: 'Preparing the scan…' });
    const current = () => this.running.get(sceneId) === id;
    try {
      const { packed, transfer } = packGeometry(prepareGeometry(loaded));
      const result = await new Promise<SceneSuggestions>((resolve, reject) => {
        this.waiting.set(id, { resolve, reject, onProgress: (fraction, message) => { if (current()) this.set(sceneId, { state: 'running', fraction, message }); } });
        this.post({ type: 'run', id, geometry: packed, graph: { nodes: scene.graph.nodes, edges: scene.graph.edges }, profiles: document.project!.profiles }, transfer as Transferable[]);
      });
      const agents: Record<string, Record<string, SuggestionView>> = {};
      for (const [agent, byEdge] of Object.entries(result.agents)) {
        agents[agent] = {};
        for (const [edge, sug] of Object.entries(byEdge)) {
          agents[agent][edge] = { traversable: sug.traversable, reason: sug.reason, note: sug.note, measured: { ...sug.measured } as Record<string, number | number[]>, navmeshRoute: sug.navmeshRoute };
        }
      }
      if (current()) this.set(sceneId, { state: 'ready', agents, computedAt: Date.now() });
    } catch (e) {
      if (current()) this.set(sceneId, { state: 'error', message: `Suggestions failed: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      if (current()) this.running.delete(sceneId);
    }
  }
}
