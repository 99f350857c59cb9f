import type { FetchLike } from '../../../core/scoring/judges/http.ts';
import { askForTasks } from '../../../core/taskgen/ask.ts';
import { endpointHost } from '../../../core/scoring/judges/http.ts';
import { PROMPT_VERSION } from '../../../core/taskgen/guideline.ts';
import { buildTaskPrompt, type PromptFrame } from '../../../core/taskgen/prompt.ts';
import { checkTaskReply } from '../../../core/taskgen/reply.ts';
import { FRAME_BUDGETS, type FrameBudget, type TourPoses } from '../../../core/tour/types.ts';
import type { TraversaDb } from '../../../persistence/db.ts';
import { dbReplyCache } from '../../../persistence/replyCache.ts';
import { loadSceneVideo, type SceneVideo } from '../../../persistence/videos.ts';
import { applyEdit } from '../../../state/edits.ts';
import { selectItem } from '../../qa/state/qaItems.ts';
import type { StudioStore } from '../../../state/store.ts';
import { TASK_EDITS } from '../state/taskEdits.ts';
import { NO_VIDEO, type TaskGenReport, type VideoInfo } from '../state/taskGen.ts';
import { setTaskGen } from '../state/taskGenCommands.ts';
import { TASKGEN_KEY_STORAGE } from '../../qa/ui/taskKey.ts';

/** The video's length: its frames over its frame rate (the poses have one entry per frame). */
export const videoSeconds = (poses: Pick<TourPoses, 'fps' | 'frames'>): number => (poses.frames.length ? poses.frames.length / poses.fps : 0);

/**
 * Generating navigation tasks for the selected scene, at the edge of the app: the scene's stored
 * video's frames (one budget) and its node list go to the configured OpenAI-compatible endpoint
 * (core/taskgen/ask.ts: retries, time limit, redaction; replies cached in IndexedDB), the reply is
 * checked task by task, and the valid tasks go into the scene and the review queue as one undo
 * step, stored before the report says so. Cancel aborts the request in flight.
 */
export class TaskGenerator {
  private running: AbortController | null = null;

  constructor(
    private store: StudioStore,
    private db: TraversaDb,
    private flush: () => Promise<void>,
  ) {}

  private projectId(): string | null {
    return this.store.getState().workspace.projectId;
  }

  /** The scene's stored video, or undefined when it has none. */
  async sceneVideo(sceneId: string): Promise<SceneVideo | undefined> {
    const p = this.projectId();
    return p ? loadSceneVideo(this.db, p, sceneId) : undefined;
  }

  async videoInfo(sceneId: string): Promise<VideoInfo> {
    try {
      const v = await this.sceneVideo(sceneId);
      if (!v) return { state: 'none' };
      const budgets = FRAME_BUDGETS.flatMap((budget) => (v.frameSets[budget] ? [{ budget, count: v.frameSets[budget]!.frames.length }] : []));
      return { state: 'ready', seconds: videoSeconds(v.poses), budgets };
    } catch (e) {
      return { state: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  cancel(): void {
    this.running?.abort();
  }

  async run(): Promise<void> {
    if (this.running) return;
    const s = this.store.getState();
    const project = s.document.project;
    const sceneId = s.session.sceneId;
    const scene = project?.scenes.find((x) => x.id === sceneId);
    const settings = s.taskgen;
    const fail = (message: string) => setTaskGen(this.store, { status: { state: 'error', message } });
    if (!project || !scene) return fail('Choose a scene first.');
    if (!settings.baseUrl.trim() || !settings.model.trim()) return fail('Give the endpoint URL and the model.');
    const control = new AbortController();
    this.running = control;
    const startedAt = Date.now();
    const stage = (text: string) => setTaskGen(this.store, { status: { state: 'running', stage: text, startedAt } });
    try {
      stage('Reading the scene’s video…');
      let video: SceneVideo | undefined;
      try {
        video = await this.sceneVideo(scene.id);
      } catch (e) {
        return fail(`The stored video cannot be read: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (!video) return fail(NO_VIDEO);
      const set = video.frameSets[settings.budget];
      if (!set) {
        const have = FRAME_BUDGETS.filter((b) => video!.frameSets[b]);
        return fail(`The video has no ${budgetText(settings.budget)} frame set${have.length ? `; it has ${have.map(budgetText).join(', ')}` : ''}.`);
      }
      const frames: PromptFrame[] = [];
      for (let i = 0; i < set.jpegs.length; i++) {
        if (control.signal.aborted) return fail('Cancelled: nothing was asked.');
        stage(`Reading frames (${i + 1}/${set.jpegs.length})…`);
        frames.push({ t: set.frames[i]!.t, url: await dataUrl(set.jpegs[i]!) });
      }
      const seconds = videoSeconds(video.poses);
      const prompt = buildTaskPrompt({ nodes: scene.graph.nodes, frames, minTasks: settings.minTasks, videoSeconds: seconds });
      const baseUrl = settings.baseUrl.trim(),
        model = settings.model.trim();
      const host = endpointHost(baseUrl);
      let attempt = 0;
      const counted: FetchLike = (url, init) => {
        attempt++;
        stage(`Asking ${model} at ${host}${attempt > 1 ? ` (attempt ${attempt})` : ''}: ${frames.length} frames, at least ${settings.minTasks} tasks…`);
        return fetch(url, init as RequestInit) as ReturnType<FetchLike>;
      };
      stage(`Asking ${model} at ${host}…`);
      const reply = await askForTasks(
        {
          baseUrl,
          model,
          apiKey: localStorage.getItem(TASKGEN_KEY_STORAGE) || undefined,
          timeoutMs: settings.timeoutMs,
          fetch: counted,
          sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
          cancel: control.signal,
        },
        prompt,
        dbReplyCache(this.db),
      );
      if ('error' in reply) return fail(reply.error === 'cancelled' ? 'Cancelled: no tasks were added.' : `No tasks: ${reply.error}.`);

      // Checked against the scene as it is now (it may have changed while the endpoint thought).
      const now = this.store.getState().document.project?.scenes.find((x) => x.id === scene.id);
      if (!now) return fail('The scene is gone; no tasks were added.');
      const check = checkTaskReply(reply.content, { nodes: now.graph.nodes, minTasks: settings.minTasks, existing: now.questions, videoSeconds: seconds });
      const at = new Date().toISOString();
      const before = new Set(this.store.getState().document.project!.qa.items.map((i) => i.id));
      if (check.tasks.length) {
        applyEdit(this.store, TASK_EDITS.add, {
          sceneId: scene.id,
          tasks: check.tasks,
          requiredReviews: this.store.getState().qa.importReviews,
          provenance: {
            model,
            promptVersion: PROMPT_VERSION,
            endpoint: host,
            frames: { budget: settings.budget, times: frames.map((f) => f.t) },
            generatedAt: at,
          },
        });
      }
      const itemIds = (this.store.getState().document.project?.qa.items ?? []).filter((i) => !before.has(i.id)).map((i) => i.id);
      const report: TaskGenReport = {
        sceneId: scene.id,
        model,
        at,
        cached: reply.cached,
        total: check.total,
        itemIds,
        problems: check.problems,
        frames: { budget: settings.budget, count: frames.length },
      };
      if (itemIds.length) {
        await this.flush();
        selectItem(this.store, itemIds[0]!);
      }
      setTaskGen(this.store, { status: { state: 'done' }, report });
    } catch (e) {
      fail(`Task generation failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      if (this.running === control) this.running = null;
    }
  }
}

export const budgetText = (b: FrameBudget): string => (b === '1fps' ? 'one-per-second' : `${b}-frame`);

/** A JPEG blob as a `data:` URL, as chat endpoints take images. */
async function dataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${blob.type || 'image/jpeg'};base64,${btoa(binary)}`;
}
