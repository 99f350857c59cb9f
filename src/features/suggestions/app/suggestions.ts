import type { AgentProfile } from '../../../core/agents.ts';
import type { Vec3 } from '../../../core/graph.ts';
import { suggestionBasis } from '../../../core/suggestionBasis.ts';
import type { LoadedMesh } from '../../../engine/mesh/load.ts';
import type { DriveDecision } from '../../../engine/planner/decide.ts';
import { prepareGeometry, type SceneSuggestions } from '../../../engine/suggest/index.ts';
import { packGeometry } from '../../../engine/suggest/transfer.ts';
import type { SuggestReply, SuggestRequest } from '../../../engine/suggest/workerMessages.ts';
import { createSceneService } from '../../../engine/suggest/sceneService.ts';
import { READY_TIMEOUT_MS, WorkerPort, type WorkerLike } from '../../../engine/workerPort.ts';
import type { TraversaDb } from '../../../persistence/db.ts';
import { keepSuggestions, loadSuggestionsOf } from '../../../persistence/suggestionStore.ts';
import type { StudioStore, SuggestionView, SuggestionsState } from '../../../state/store.ts';
import type { MeshManager } from '../../../services/meshManager.ts';

/** The scene worker (the `new Worker(new URL(…))` shape stays literal for Vite), or null where none can start. */
function startSceneWorker(): WorkerLike | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('../../../workers/suggest.worker.ts', import.meta.url), { type: 'module', name: 'suggest' });
  } catch {
    return null; // e.g. a policy that forbids workers: the page does the work itself
  }
}

type Waiting = { onProgress?: (f: number, m: string) => void; resolve: (r: SuggestReply) => void; reject: (e: Error) => void; resend: () => void };

/**
 * The page's side of the scene worker: suggestions for a scene's scan and reference routes for the
 * auto-drive. Suggestions are derived data — only a confirmed label enters the document — kept in
 * IndexedDB beside the project (by scene and scan) and read back when the project opens or a scene
 * gets another scan; their basis tells the views when the scene has changed under them. Navmeshes and probes of a large scan take seconds; the page stays responsive.
 * The scan crosses once (with its BVH); later requests about it name it by key.
 */
export class SuggestionRunner {
  private port: WorkerPort<SuggestRequest, SuggestReply> | null = null;
  private nextId = 1;
  /** The key the worker knows a scan by, with the frame it was sent in (a new frame is a new scan to it). */
  private keys = new WeakMap<LoadedMesh, { key: number; frame: string }>();
  private nextKey = 1;
  /** The scan the worker holds (it keeps one). */
  private held: number | null = null;
  /** Scene → the id of its suggestion run in progress. */
  private running = new Map<string, number>();
  private waiting = new Map<number, Waiting>();
  /** Scene → what was last read back for it: the scan asked about and the suggestions shown then. */
  private looked = new Map<string, { meshKey: string | null; state: SuggestionsState | undefined }>();
  private reading = new Set<Promise<void>>();

  private startWorker: () => WorkerLike | null;
  private readyTimeoutMs: number;

  constructor(
    private store: StudioStore,
    private meshes: MeshManager,
    private db: TraversaDb,
    options: { startWorker?: () => WorkerLike | null; readyTimeoutMs?: number } = {},
  ) {
    this.startWorker = options.startWorker ?? startSceneWorker;
    this.readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    store.subscribe((s, prev) => {
      if (s.document !== prev.document) void this.restore();
    });
  }

  /**
   * Read back the kept suggestions of every scene whose shown suggestions are not for its scan
   * (none yet, or its scan was replaced, or an undo brought the old scan back). Resolves when
   * every read in progress has finished.
   */
  restore(): Promise<void> {
    const { document, suggestions } = this.store.getState();
    const wanted: { sceneId: string; meshKey: string | null }[] = [];
    for (const scene of document.project?.scenes ?? []) {
      const meshKey = scene.mesh?.key ?? null;
      const shown = suggestions[scene.id];
      if (shown?.state === 'running' || (shown?.state === 'ready' && shown.basis.meshKey === meshKey)) continue;
      const last = this.looked.get(scene.id);
      if (last && last.meshKey === meshKey && last.state === shown) continue;
      this.looked.set(scene.id, { meshKey, state: shown });
      wanted.push({ sceneId: scene.id, meshKey });
    }
    if (wanted.length) {
      // Every scene in one read: a project of 1,000 scenes opens with one query, not 1,000.
      const read = this.readBack(wanted).finally(() => this.reading.delete(read));
      this.reading.add(read);
    }
    return Promise.all(this.reading).then(() => undefined);
  }

  private async readBack(wanted: readonly { sceneId: string; meshKey: string | null }[]): Promise<void> {
    let found: Awaited<ReturnType<typeof loadSuggestionsOf>>;
    try {
      found = await loadSuggestionsOf(this.db, wanted);
    } catch (e) {
      for (const { sceneId } of wanted) {
        if (!this.store.getState().suggestions[sceneId])
          this.set(sceneId, { state: 'error', message: `Kept suggestions could not be read: ${e instanceof Error ? e.message : String(e)}` });
      }
      return;
    }
    for (const { sceneId, meshKey } of wanted) {
      const shown = this.store.getState().suggestions[sceneId];
      if (shown?.state === 'running') continue; // a computation started meanwhile: it wins
      const { kept, setAside } = found.get(sceneId)!;
      const better = kept && (shown?.state !== 'ready' || (kept.basis.meshKey === meshKey && shown.basis.meshKey !== meshKey));
      if (better) this.set(sceneId, { state: 'ready', ...kept, kept: true });
      else if (!kept && setAside.length && !shown) this.set(sceneId, { state: 'error', message: setAside.join(' ') });
    }
  }

  private set(sceneId: string, state: SuggestionsState) {
    this.store.setState((s) => ({ suggestions: { ...s.suggestions, [sceneId]: state } }));
  }

  private post(msg: SuggestRequest, transfer: Transferable[] = []) {
    this.port ??= this.open();
    this.port.post(msg, transfer);
  }

  /**
   * The scene worker, or the same service on this thread when no worker starts (engine/workerPort.ts:
   * none can be made, it fails to load, or it is not ready within `readyTimeoutMs`).
   */
  private open(): WorkerPort<SuggestRequest, SuggestReply> {
    const port: WorkerPort<SuggestRequest, SuggestReply> = new WorkerPort({
      name: 'the scene worker',
      start: this.startWorker,
      here: (reply) => createSceneService(reply),
      readyTimeoutMs: this.readyTimeoutMs,
      onReply: (m) => this.onReply(m),
      // A worker that stopped mid-work (out of memory?): its requests fail, the next one starts another.
      onCrash: (reason) => {
        if (this.port !== port) return;
        for (const w of this.waiting.values()) w.reject(new Error(reason));
        this.waiting.clear();
        this.port = null;
        this.held = null;
      },
    });
    return port;
  }

  /** Where the scene service runs now (null before the first request). */
  get runsIn(): 'worker' | 'main' | null {
    const where = this.port?.where;
    return where === 'worker' || where === 'main' ? where : null;
  }

  private onReply(m: SuggestReply) {
    if (m.type === 'ready') return;
    const w = this.waiting.get(m.id);
    if (!w) return;
    if (m.type === 'progress') {
      w.onProgress?.(m.fraction, m.message);
      return;
    }
    if (m.type === 'missing') {
      this.held = null;
      w.resend();
      return;
    }
    this.waiting.delete(m.id);
    if (m.type === 'failed') w.reject(Object.assign(new Error(m.message), { aborted: m.aborted }));
    else w.resolve(m);
  }

  /** Ask the worker about a scan: the geometry goes along unless the worker holds it already. */
  private ask(
    loaded: LoadedMesh,
    build: (id: number, key: number) => SuggestRequest,
    onProgress?: Waiting['onProgress'],
  ): { id: number; reply: Promise<SuggestReply> } {
    // The up axis or scale can change under a loaded scan (reframeMesh); the worker's copy has the old frame.
    const frame = loaded.frame.elements.join(',');
    let known = this.keys.get(loaded);
    if (known?.frame !== frame) {
      known = { key: this.nextKey++, frame };
      this.keys.set(loaded, known);
    }
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

  /** Drive an agent from node position a to b (mesh frame) with the motion planner, in the worker. */
  async drive(loaded: LoadedMesh, profile: AgentProfile, a: Vec3, b: Vec3): Promise<DriveDecision> {
    const r = await this.ask(loaded, (id, key) => ({ type: 'drive', id, key, profile, a, b })).reply;
    if (r.type !== 'drive') throw new Error('the scene worker answered a drive with something else');
    return r.decision;
  }

  async compute(sceneId: string): Promise<void> {
    const { document } = this.store.getState();
    const scene = document.project?.scenes.find((s) => s.id === sceneId);
    const loaded = this.meshes.get(sceneId);
    if (!scene || !document.project) return;
    const basis = suggestionBasis(scene, document.project.profiles);
    if (!loaded || !basis) {
      this.set(sceneId, { state: 'error', message: 'The scan is not loaded yet: open the scene and wait for it.' });
      return;
    }
    const previous = this.running.get(sceneId);
    if (previous !== undefined) this.post({ type: 'abort', id: previous });
    this.set(sceneId, { state: 'running', fraction: 0, message: 'Preparing the scan…' });
    const profiles = document.project.profiles;
    const graph = { nodes: scene.graph.nodes, edges: scene.graph.edges };
    let id = -1;
    const current = () => this.running.get(sceneId) === id;
    try {
      const asked = this.ask(
        loaded,
        (i, key) => ({ type: 'run', id: i, key, graph, profiles }),
        (fraction, message) => {
          if (current()) this.set(sceneId, { state: 'running', fraction, message });
        },
      );
      id = asked.id;
      this.running.set(sceneId, id);
      const r = await asked.reply;
      if (r.type !== 'done') return;
      if (!current()) return;
      const ready = { state: 'ready' as const, agents: views(r.result), computedAt: Date.now(), basis };
      this.set(sceneId, ready);
      const outcome = await keepSuggestions(this.db, sceneId, { computedAt: ready.computedAt, basis, agents: ready.agents }).then(
        () => ({ kept: true }),
        (e: unknown) => ({ unsaved: `They are not kept with the project (${e instanceof Error ? e.message : String(e)}): a reload loses them.` }),
      );
      this.store.setState((s) => (s.suggestions[sceneId] === ready ? { suggestions: { ...s.suggestions, [sceneId]: { ...ready, ...outcome } } } : {}));
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
      agents[agent][edge] = {
        traversable: sug.traversable,
        reason: sug.reason,
        note: sug.note,
        measured: { ...sug.measured } as Record<string, number | number[]>,
        navmeshRoute: sug.navmeshRoute,
        doubt: sug.doubt,
      };
    }
  }
  return agents;
}
