import { loadMesh, MeshLoadError, reframeMesh, type LoadedMesh } from '../engine/mesh/load.ts';
import { readUpAxis, upAxisHint } from '../engine/mesh/upAxis.ts';
import type { SceneMesh } from '../core/project.ts';
import type { TraversaDb } from '../persistence/db.ts';
import { errorText } from '../persistence/projectStorage.ts';
import { judgeRoom, loadMeshFiles, saveMeshFiles, storageRoom, type MeshFile } from '../persistence/meshStore.ts';
import { applyEdit } from '../state/edits.ts';
import { SCAN_EDITS } from '../state/scanEdits.ts';
import type { MeshStatus, StudioStore } from '../state/store.ts';
import type { PickedFile } from '../ui/pickedFiles.ts';
import type { MeshRegistry } from '../viewport/meshRuntime.ts';

const MAIN = /\.(glb|gltf|ply|obj)$/i;

/**
 * Scans from HM3D/glTF are Y-up; Matterport and most PLY/OBJ scans are Z-up: the convention, which
 * the scan's own level surfaces overrule when they are clear (engine/mesh/upAxis.ts). The user can change it.
 */
export const guessUpAxis = (name: string): 'y' | 'z' => (/\.(glb|gltf)$/i.test(name) ? 'y' : 'z');

interface Entry {
  key: string;
  file: string;
  upAxis: 'y' | 'z';
  unitScale: number;
  loaded: LoadedMesh;
  /** What the load (and the storage check) said; kept when the frame changes. */
  warnings: string[];
  /** Share of the view the scan covered when last drawn after appearing or turning; unknown until then. */
  coverage?: number;
  /** Why the last attempt to replace this scan failed; shown until the next attempt. */
  failedReplace?: string;
}

/**
 * Below this share of the view a loaded scan "draws almost nothing". The camera frames the scan's
 * bounds when it appears, so a scan that draws at all covers far more (the small Open3D fragment
 * about a tenth of the view); what falls under it is back faces only, zero-area or NaN triangles, a
 * wrong unit scale (a room read in millimetres is a speck) or a wrong up axis (a floor seen edge-on).
 */
export const DRAWS_NOTHING_BELOW = 0.005;

/**
 * Owns the loaded scans (three.js objects outside the store): loads a scene's stored scan when it
 * is opened, attaches new ones (stored before the document points at them), follows the
 * document's frame settings and undo/redo of attachments, and reports progress and errors.
 */
export class MeshManager implements MeshRegistry {
  private entries = new Map<string, Entry>();
  private loading = new Map<string, string>(); // sceneId → key being loaded
  private listeners = new Set<() => void>();
  private v = 0;

  constructor(
    private store: StudioStore,
    private db: TraversaDb,
  ) {
    store.subscribe((s, prev) => {
      if (s.document !== prev.document || s.session.sceneId !== prev.session.sceneId) this.sync();
    });
  }

  // Arrow properties: React calls these detached (useSyncExternalStore).
  get = (sceneId: string) => this.entries.get(sceneId)?.loaded;
  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };
  version = () => this.v;
  private changed() {
    this.v++;
    for (const fn of this.listeners) fn();
  }

  private setStatus(sceneId: string, status: MeshStatus | undefined) {
    this.store.setState((s) => {
      const meshes = { ...s.meshes };
      if (status) meshes[sceneId] = status;
      else delete meshes[sceneId];
      return { meshes };
    });
  }

  private readyStatus(e: Entry): Extract<MeshStatus, { state: 'ready' }> {
    const hint = e.loaded.levels ? upAxisHint(readUpAxis(e.loaded.levels), e.upAxis) : null;
    const status = {
      state: 'ready' as const,
      triangles: e.loaded.stats.triangles,
      floors: e.loaded.floors,
      warnings: [...e.warnings, ...notices(e)],
      ...(hint ? { upHint: hint } : {}),
    };
    return e.failedReplace ? { ...status, error: e.failedReplace } : status;
  }

  /** The viewport measured how much of the view the scan covers (after it appeared or turned). */
  reportCoverage = (sceneId: string, share: number) => {
    const e = this.entries.get(sceneId);
    if (!e || e.coverage === share) return;
    e.coverage = share;
    this.showKept(sceneId, e);
  };

  /** The kept scan's status, unless a replacement is loading: its progress stays until it ends (and then says all). */
  private showKept(sceneId: string, e: Entry) {
    if (this.store.getState().meshes[sceneId]?.state !== 'loading') this.setStatus(sceneId, this.readyStatus(e));
  }

  /** Bring the loaded scans in line with the document: the selected scene's scan loaded, frames current, removed ones dropped. */
  sync(): void {
    const { document, session } = this.store.getState();
    const scenes = document.project?.scenes ?? [];
    for (const [sceneId, e] of this.entries) {
      const binding = scenes.find((s) => s.id === sceneId)?.mesh;
      if (!binding || binding.key !== e.key) {
        e.loaded.dispose();
        this.entries.delete(sceneId);
        this.setStatus(sceneId, undefined);
        this.changed();
        continue;
      }
      if (binding.upAxis !== e.upAxis || binding.unitScale !== e.unitScale) this.reframe(sceneId, e, binding);
    }
    const current = scenes.find((s) => s.id === session.sceneId);
    if (current?.mesh && !this.entries.has(current.id) && this.loading.get(current.id) !== current.mesh.key) void this.loadStored(current.id, current.mesh);
  }

  /**
   * The scene's up axis or scale changed (an edit, or its undo): the loaded scan turns in place —
   * the shared frame matrix moves the drawn scan, picking and collision queries at once — and its
   * floors and sidedness are measured again. No reload.
   */
  private reframe(sceneId: string, e: Entry, binding: SceneMesh) {
    e.upAxis = binding.upAxis;
    e.unitScale = binding.unitScale;
    reframeMesh(e.loaded, binding.upAxis, binding.unitScale);
    delete e.coverage; // measured again once drawn in its new pose
    this.showKept(sceneId, e);
    this.changed();
  }

  private async loadStored(sceneId: string, binding: SceneMesh) {
    this.loading.set(sceneId, binding.key);
    try {
      const files = await loadMeshFiles(this.db, binding.key);
      if (!files) {
        this.setStatus(sceneId, {
          state: 'missing',
          message: `The scan ${binding.mainFile} is not stored in this browser any more. Load it again with “Replace scan…”.`,
        });
        return;
      }
      const loaded = await this.load(sceneId, files, binding.upAxis, binding.unitScale);
      if (this.loading.get(sceneId) !== binding.key) {
        loaded.dispose();
        return;
      }
      const e: Entry = {
        key: binding.key,
        file: binding.mainFile,
        upAxis: binding.upAxis,
        unitScale: binding.unitScale,
        loaded,
        warnings: loaded.warnings ?? [],
      };
      this.entries.set(sceneId, e);
      this.setStatus(sceneId, this.readyStatus(e));
      this.changed();
    } catch (err) {
      this.setStatus(sceneId, errorStatus(err, binding.mainFile));
    } finally {
      if (this.loading.get(sceneId) === binding.key) this.loading.delete(sceneId);
    }
  }

  private load(sceneId: string, files: MeshFile[], upAxis: 'y' | 'z', unitScale: number): Promise<LoadedMesh> {
    return loadMesh({ files: files.map((f) => ({ name: f.name, data: f.blob })) }, { upAxis, unitScale }, (p) =>
      this.setStatus(sceneId, { state: 'loading', stage: p.stage, fraction: p.fraction, message: p.message }),
    );
  }

  /** Load picked files as the scene's scan. On any failure the scene keeps what it had. */
  async attach(sceneId: string, picked: PickedFile[], key = `mesh-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`): Promise<boolean> {
    const main = picked.find((p) => MAIN.test(p.file.name));
    const current = this.entries.get(sceneId);
    if (current) delete current.failedReplace;
    // The failure stays with the scan loaded when it is known (another pick may have replaced the
    // first meanwhile), so redrawing or turning that scan does not wipe the message.
    const fail = (status: MeshStatus) => {
      const kept = this.entries.get(sceneId);
      if (kept) kept.failedReplace = `${statusText(status)} — the current scan is unchanged.`;
      this.setStatus(sceneId, kept ? this.readyStatus(kept) : status);
      return false;
    };
    if (!main) return fail({ state: 'error', file: picked[0]?.file.name ?? 'file', message: 'none of the chosen files is a scan (.glb, .gltf, .ply or .obj)' });
    const bytes = picked.reduce((n, p) => n + p.file.size, 0);
    const room = judgeRoom(bytes, await storageRoom());
    if (!room.ok) return fail({ state: 'error', file: main.file.name, message: room.message });
    const files: MeshFile[] = picked.map((p) => ({ name: p.file.name, type: p.file.type, blob: p.file }));
    const guessed = guessUpAxis(main.file.name);
    let loaded: LoadedMesh;
    try {
      loaded = await this.load(sceneId, files, guessed, 1);
    } catch (err) {
      return fail(errorStatus(err, main.file.name));
    }
    // The scan's own level surfaces decide when they are clear; the file type's convention otherwise.
    const reading = loaded.levels ? readUpAxis(loaded.levels) : null;
    const upAxis = reading?.confident ? reading.axis : guessed;
    if (upAxis !== guessed) reframeMesh(loaded, upAxis, 1);
    try {
      await saveMeshFiles(this.db, key, files);
    } catch (err) {
      loaded.dispose();
      return fail({ state: 'error', file: main.file.name, message: `it loaded but this browser could not store it (${errorText(err)})` });
    }
    const e: Entry = {
      key,
      file: main.file.name,
      upAxis,
      unitScale: 1,
      loaded,
      warnings: [...(loaded.warnings ?? []), ...(room.warning ? [room.warning] : [])],
    };
    this.entries.get(sceneId)?.loaded.dispose(); // the scan this one replaces, which another pick may have loaded meanwhile
    this.entries.set(sceneId, e);
    applyEdit(this.store, SCAN_EDITS.attach, {
      sceneId,
      mesh: { key, mainFile: main.file.name, files: picked.map((p) => ({ name: p.file.name, bytes: p.file.size })), upAxis, unitScale: 1 },
    });
    this.setStatus(sceneId, this.readyStatus(e));
    this.changed();
    return true;
  }

  remove(sceneId: string): void {
    applyEdit(this.store, SCAN_EDITS.remove, { sceneId });
  }
}

/** What the scan bar says about how the scan is drawn, next to the load's own warnings. */
function notices(e: Entry): string[] {
  const out: string[] = [];
  if (e.loaded.doubleSided) out.push(`${e.file} is drawn double-sided: almost none of its surfaces face up, so from above only their backs would show`);
  if (e.coverage !== undefined && e.coverage < DRAWS_NOTHING_BELOW) {
    out.push(
      `${e.file} draws almost nothing in this view (${(e.coverage * 100).toFixed(1)} % of it): its triangles may have no area, or the up axis or unit scale may be wrong`,
    );
  }
  return out;
}

function errorStatus(err: unknown, file: string): MeshStatus {
  if (err instanceof MeshLoadError) return { state: 'error', file: err.file, message: err.reason };
  return { state: 'error', file, message: err instanceof Error ? err.message : String(err) };
}

const statusText = (s: MeshStatus) => (s.state === 'error' ? `${s.file}: ${s.message}` : s.state === 'missing' ? s.message : '');
