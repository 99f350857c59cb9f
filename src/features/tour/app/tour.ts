import { selectedScene } from '../../../state/commands.ts';
import { formatVideoTime } from '../../../core/vqa/citedTimes.ts';
import type { Command } from '../../../state/commands.ts';
import type { StudioState, StudioStore } from '../../../state/store.ts';
import { setTourStatus, type TourStatus } from '../state/tourSession.ts';
import type { TourSettings } from '../../../core/tour/settings.ts';
import type { WorldPose } from '../../../engine/tour/poses.ts';
import type { TraversaDb } from '../../../persistence/db.ts';
import { loadSceneVideo, saveSceneVideo, type SceneVideo } from '../../../persistence/videos.ts';
import { settingsProblem, TOUR_DEFAULTS } from '../../../core/tour/settings.ts';
import { tourReleaseFiles, videoExtension } from '../../../formats/capnav/tourFiles.ts';
import { zipFolder } from '../../../formats/zip.ts';
import { strToU8 } from 'fflate';
import { download, safeName, sceneTourBytes } from '../../../services/exportRelease.ts';
import { viewportHandle } from '../../../viewport/viewportHandle.ts';
import type { MeshManager } from '../../../services/meshManager.ts';

/**
 * Recording a scene's touring video in the studio: the automatic tour, or a path walked by hand in
 * the walk view (its camera sampled while the user walks). Either is rendered and encoded by the
 * engine (engine/video/record.ts, the code `cli tour` runs too) and stored with the project
 * (persistence/videos.ts), replacing the scene's earlier video. The engine's video code (three,
 * mediabunny) loads on first use.
 */

/** How often the walk view's camera is sampled while a path is walked (the video is resampled at its own fps). */
const WALK_SAMPLE_MS = 50;

export class TourRunner {
  private abort: AbortController | null = null;
  private walk: { samples: WorldPose[]; timer: ReturnType<typeof setInterval>; sceneId: string; camera: StudioState['session']['camera'] } | null = null;

  constructor(
    private store: StudioStore,
    private meshes: MeshManager,
    private db: TraversaDb,
  ) {
    // The settings are the user's, kept in this browser (not in the project).
    try {
      const kept = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null') as TourSettings | null;
      if (kept && !settingsProblem({ ...TOUR_DEFAULTS, ...kept })) this.set({ settings: { ...TOUR_DEFAULTS, ...kept } });
    } catch {
      /* the defaults, then */
    }
    store.subscribe((s, prev) => {
      if (s.tour.settings !== prev.tour.settings)
        try {
          localStorage.setItem(SETTINGS_KEY, JSON.stringify(s.tour.settings));
        } catch {
          /* not kept */
        }
    });
  }

  /** Download the stored video, its poses, or its frame sets (a zip in the release layout's frames/ folders). */
  async download(sceneId: string, what: 'video' | 'poses' | 'frames'): Promise<void> {
    const tell = (notice: string) => this.store.setState((s) => ({ ephemeral: { ...s.ephemeral, notice } }));
    try {
      const v = await this.load(sceneId);
      if (!v) {
        tell('This scene has no stored tour video: record one first.');
        return;
      }
      const name = safeName(sceneId) || 'scene';
      if (what === 'video') download(`${name}.${videoExtension(v.mime)}`, new Uint8Array(await v.blob.arrayBuffer()), v.mime);
      else if (what === 'poses') download(`${name}.poses.json`, strToU8(JSON.stringify(v.poses, null, 2) + '\n'), 'application/json');
      else {
        const files = tourReleaseFiles(sceneId, await sceneTourBytes(v)).filter((f) => f.path.startsWith('frames/'));
        download(`${name}-frames.zip`, zipFolder(`${name}-frames`, files));
      }
    } catch (e) {
      tell(`Download failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private set(patch: Partial<TourStatus>) {
    setTourStatus(this.store, patch);
  }

  busy = (): boolean => this.abort !== null || this.walk !== null;

  /** The scene's stored video, or undefined; a stored row that cannot be read throws with the reason. */
  load(sceneId: string): Promise<SceneVideo | undefined> {
    const projectId = this.store.getState().workspace.projectId;
    return projectId ? loadSceneVideo(this.db, projectId, sceneId) : Promise.resolve(undefined);
  }

  /** Render and store the scene's video: the automatic tour, or `path` when given. */
  async record(sceneId: string, settings: TourSettings, path?: WorldPose[]): Promise<void> {
    if (this.busy()) return;
    const state = this.store.getState();
    const scene = state.document.project?.scenes.find((s) => s.id === sceneId);
    const projectId = state.workspace.projectId;
    const loaded = this.meshes.get(sceneId);
    if (!scene || !projectId) return;
    if (!loaded) {
      this.set({ sceneId, phase: 'failed', fraction: 0, message: 'Load the scene’s scan first: the tour is rendered from it.' });
      return;
    }
    if (!path && scene.graph.nodes.length === 0) {
      this.set({ sceneId, phase: 'failed', fraction: 0, message: 'Draw the graph first: the automatic tour walks through every node.' });
      return;
    }
    const abort = (this.abort = new AbortController());
    this.set({ sceneId, phase: 'recording', fraction: 0, message: 'Starting…' });
    try {
      const { recordTour } = await import('../../../engine/video/record.ts');
      const rec = await recordTour(loaded, scene.graph, settings, {
        ...(path ? { path } : {}),
        signal: abort.signal,
        onProgress: (p) => this.set({ fraction: p.fraction, message: p.message }),
      });
      await saveSceneVideo(this.db, projectId, sceneId, { blob: rec.blob, mime: rec.mime, poses: rec.poses, frameSets: rec.frameSets });
      const notes = [
        ...(rec.poses.cuts ?? []).map((c) => `no walkable route from ${c.from} to ${c.to} (${c.why}): not walked, the video cuts at ${formatVideoTime(c.t)}`),
        rec.plan.unseen.length ? `never in view: ${rec.plan.unseen.join(', ')}` : '',
      ].filter(Boolean);
      const secs = rec.timings.frames / settings.fps;
      this.set({
        phase: 'done',
        fraction: 1,
        message: `Recorded ${rec.timings.frames} frames (${secs.toFixed(1)} s of video) in ${((rec.timings.planMs + rec.timings.renderMs) / 1000).toFixed(1)} s${notes.length ? `; ${notes.join('; ')}` : ''}.`,
        stored: this.store.getState().tour.stored + 1,
      });
    } catch (e) {
      if (abort.signal.aborted) this.set({ phase: 'cancelled', fraction: 0, message: 'Recording cancelled; the stored video is unchanged.' });
      else this.set({ phase: 'failed', fraction: 0, message: `The tour could not be recorded: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      this.abort = null;
    }
  }

  cancel(): void {
    this.abort?.abort(new DOMException('The recording was cancelled', 'AbortError'));
  }

  /** Start recording the walk view's camera (switching to the walk view). */
  startWalk(sceneId: string): void {
    if (this.busy()) return;
    const camera = this.store.getState().session.camera;
    this.store.setState((s) => ({ session: { ...s.session, camera: 'first' } }));
    const samples: WorldPose[] = [];
    const t0 = performance.now();
    const timer = setInterval(() => {
      const pose = viewportHandle.walkPose?.();
      if (pose) samples.push({ t: (performance.now() - t0) / 1000, eye: pose.eye, yawRad: pose.yawRad, pitchRad: pose.pitchRad });
    }, WALK_SAMPLE_MS);
    this.walk = { samples, timer, sceneId, camera };
    this.set({ sceneId, phase: 'walking', fraction: 0, message: 'Recording your walk: walk with the arrow keys, drag to look; stop to render it.' });
  }

  /** Stop the walk; render it unless `discard`. */
  async stopWalk(settings: TourSettings, discard = false): Promise<void> {
    const w = this.walk;
    if (!w) return;
    clearInterval(w.timer);
    this.walk = null;
    // Back to the view the user walked from.
    this.store.setState((s) => ({ session: { ...s.session, camera: w.camera } }));
    if (discard || w.samples.length < 2) {
      this.set({ phase: 'idle', message: w.samples.length < 2 && !discard ? 'Nothing was walked: the walk view did not move.' : '' });
      return;
    }
    await this.record(w.sceneId, settings, w.samples);
  }
}

const SETTINGS_KEY = 'traversa.tour.settings';

const hasTourableScene = (s: StudioState) => {
  const scene = selectedScene(s);
  return !!scene && s.meshes[scene.id]?.state === 'ready';
};

/** The tour's named commands (buttons and keys run the same ones), with the settings the panel shows. */
export function tourCommands(store: StudioStore, runner: TourRunner, confirmReplace: (sceneId: string) => Promise<boolean>): Command[] {
  const settings = () => store.getState().tour.settings;
  const idle = (s: StudioState) => s.tour.phase !== 'recording' && s.tour.phase !== 'walking';
  const sceneId = () => selectedScene(store.getState())!.id;
  const replaceOk = async (id: string) => !(await runner.load(id).catch(() => undefined)) || confirmReplace(id);
  return [
    {
      id: 'tour.record',
      label: 'Record the automatic tour video of the scene (every node, walking pace)',
      shortcut: 'Shift+R',
      undoable: false,
      views: ['scene'],
      enabled: (s) => hasTourableScene(s) && idle(s) && selectedScene(s)!.graph.nodes.length > 0 && !settingsProblem(s.tour.settings),
      run: () => {
        const id = sceneId();
        void replaceOk(id).then((ok) => {
          if (ok) void runner.record(id, settings());
        });
      },
    },
    {
      id: 'tour.walk',
      label: 'Record a tour by walking it (walk view); again to stop and render it',
      shortcut: 'Shift+W',
      undoable: false,
      views: ['scene'],
      enabled: (s) => hasTourableScene(s) && (idle(s) || s.tour.phase === 'walking') && !settingsProblem(s.tour.settings),
      run: (st) => {
        if (st.getState().tour.phase === 'walking') {
          void runner.stopWalk(settings());
          return;
        }
        const id = sceneId();
        void replaceOk(id).then((ok) => {
          if (ok) runner.startWalk(id);
        });
      },
    },
    {
      id: 'tour.cancel',
      label: 'Cancel the tour being recorded or walked',
      undoable: false,
      views: ['scene'],
      enabled: (s) => !idle(s),
      run: (st) => {
        if (st.getState().tour.phase === 'walking') void runner.stopWalk(settings(), true);
        else runner.cancel();
      },
    },
  ];
}
