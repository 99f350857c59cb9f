import type { Vec3 } from '../core/graph.ts';
import type { LoadedMesh } from '../engine/mesh/load.ts';
import { prepareGeometry, type SceneSuggestions } from '../engine/suggest/index.ts';
import { packGeometry } from '../engine/suggest/transfer.ts';
import type { SuggestReply, SuggestRequest } from '../engine/suggest/workerMessages.ts';
import type { StudioStore, SuggestionView, SuggestionsState } from '../state/store.ts';
import type { MeshManager } from './meshManager.ts';

type Waiting = { onProgress?: (f: number, m: string) => void; resolve: (r: SuggestReply) => void; reject: (e: Error) => void; resend: () => void };

/**
 * The page's side of the scene worker: suggestions for a scene's scan (kept in the session:
 * suggestions are derived data, only a confirmed label enters the document) and reference routes
 * for the auto-drive. Navmeshes and probes of a large scan take seconds; the page stays responsive.
 * The scan crosses once (with its BVH); later requests about it name it by key.
 */
export class SuggestionRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  /** The key the worker knows a scan by, with the frame it was sent in (a new frame is a new scan to it). */
  private keys = new WeakMap<LoadedMesh, { key: number; frame: string }>();
  private nextKey = 1;
  /** The scan the worker holds (it keeps one). */
  private held: number | null = null;
  /** Scene → the id of its suggestion run in progress. */
  private running = new Map<string, number>();
  private waiting = new Map<number, Waiting>();

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
        this.held = null;
      });
    }
    this.worker.postMessage(msg, transfer);
  }

  private onReply(m: SuggestReply) {
    if (m.type === 'ready') return;
    const w = this.waiting.get(m.id);
    if (!w) return;
    if (m.type === 'progress') { w.onProgress?.(m.fraction, m.message); return; }
    if (m.type === 'missing') { this.held = null; w.resend(); return; }
    this.waiting.delete(m.id);
    if (m.type === 'failed') w.reject(Object.assign(new Error(m.message), { aborted: m.aborted }));
    else w.resolve(m);
  }

  /** Ask the worker about a scan: the geometry goes along unless the worker holds it already. */
  private ask(loaded: LoadedMesh, build: (id: number, key: number) => SuggestRequest, onProgress?: Waiting['onProgress']): { id: number; reply: Promise<SuggestReply> } {
    // The up axis or scale can change under a loaded scan (reframeMesh); the worker's copy has the old frame.
    const frame = loaded.frame.elements.join(',');
    let known = this.keys.get(loaded);
    if (known?.frame !== frame) { known = { key: this.nextKey++, frame }; this.keys.set(loaded, known); }
    const key = known.key;
    const id = this.nextId++;
    const send = (withGeometry: boolean) => {
      const msg = build(id, key);
      if (withGeometry && msg.type !== 'abort') {
        const { packed, transfer } = packGeometry(prepareGeometry(loaded));
        this.held = key;
        this.post({ ...msg, geometry: packed }, transfer as Transferable[]);
      } else this.post(msg);
    };
    const reply = new Promise<SuggestReply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, ...(onProgress ? { onProgress } : {}), resend: () => send(true) });
    });
    send(this.held !== key);
    return { id, reply };
  }

  /** The reference route between two points of the scan (mesh frame), in world coordinates; null when there is none. */
  async route(loaded: LoadedMesh, a: Vec3, b: Vec3): Promise<Vec3[] | null> {
    const r = await this.ask(loaded, (id, key) => ({ type: 'route', id, key, a, b })).reply;
    return r.type === 'route' ? r.route : null;
  }

  async compute(sceneId: string): Promise<void> {
    const { document } = this.store.getState();
    const scene = document.project?.scenes.find((s) => s.id === sceneId);
    const loaded = this.meshes.get(sceneId);
    if (!scene || !document.project) return;
    if (!loaded) { this.set(sceneId, { state: 'error', message: 'The scan is not loaded yet: open the scene and wait for it.' }); return; }
    const previous = this.running.get(sceneId);
    if (previous !== undefined) this.post({ type: 'abort', id: previous });
    this.set(sceneId, { state: 'running', fraction: 0, message: 'Preparing the scan…' });
    const profiles = document.project.profiles;
    const graph = { nodes: scene.graph.nodes, edges: scene.graph.edges };
    let id = -1;
    const current = () => this.running.get(sceneId) === id;
    try {
      const asked = this.ask(loaded, (i, key) => ({ type: 'run', id: i, key, graph, profiles }), (fraction, message) => { if (current()) this.set(sceneId, { state: 'running', fraction, message }); });
      id = asked.id;
      this.running.set(sceneId, id);
      const r = await asked.reply;
      if (r.type !== 'done') return;
      if (current()) this.set(sceneId, { state: 'ready', agents: views(r.result), computedAt: Date.now() });
    } catch (e) {
      if (current()) this.set(sceneId, { state: 'error', message: `Suggestions failed: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      if (current()) this.running.delete(sceneId);
    }
  }
}

function views(result: SceneSuggestions): Record<string, Record<string, SuggestionView>> {
  const agents: Record<string, Record<string, SuggestionView>> = {};
  for (const [agent, byEdge] of Object.entries(result.agents)) {
    agents[agent] = {};
    for (const [edge, sug] of Object.entries(byEdge)) {
      agents[agent][edge] = { traversable: sug.traversable, reason: sug.reason, note: sug.note, measured: { ...sug.measured } as Record<string, number | number[]>, navmeshRoute: sug.navmeshRoute };
    }
  }
  return agents;
}
