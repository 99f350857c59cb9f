import { strToU8 } from 'fflate';
import { joinBytes } from '../../../core/arrays.ts';
import { zipPieces } from '../../../formats/zip.ts';
import { agentOrder, type AgentName } from '../../../core/agents.ts';
import { augmentAgents, augmentScene, sceneTaskMaker, summariseTasks, tasksJsonlPieces, type AugmentedTask } from '../../../core/research/augment.ts';
import { planSplits, SPLIT_FILES, splitPieces } from '../../../core/research/split.ts';
import { yieldNow } from '../../../engine/yieldNow.ts';
import { download, safeName } from '../../../services/exportRelease.ts';
import type { StudioStore } from '../../../state/store.ts';
import { isCurrent, setTraining, splitSettings, trainingOptions } from '../state/training.ts';

/** Main-thread time given to augmenting at a time: a scene × agent at least, then the page paints (and Cancel is heard). */
const SLICE_MS = 12;

/**
 * Task augmentation on the graph in the studio (the Training view), at the edge of the app: the
 * open project's tasks as `cli augment` makes them (core/research/augment.ts), made one scene and
 * agent at a time between paints, so a large project shows its progress and can be cancelled;
 * tasks.jsonl and a train/val/test split downloaded byte for byte as `cli augment` and `cli split`
 * write them (tasksJsonlPieces, splitOutput).
 */
export class TrainingTasks {
  private run = 0;

  constructor(
    private store: StudioStore,
    private tell: (message: string) => void,
    /** Main-thread time between pauses for the page to paint (0: a pause before every scene × agent). */
    private sliceMs = SLICE_MS,
  ) {}

  async generate(): Promise<void> {
    const s = this.store.getState();
    if (s.training.status.state === 'running') return;
    const project = s.document.project;
    const fail = (message: string) => setTraining(this.store, { status: { state: 'error', message } });
    if (!project || !project.scenes.length) return fail('Open a project with scenes first.');
    const checked = trainingOptions(s.training, agentOrder(project.profiles));
    if ('error' in checked) return fail(checked.error);
    const { options } = checked;
    const agents = augmentAgents(project, options);
    const me = ++this.run;
    const projectId = s.workspace.projectId;
    const startedAt = performance.now();
    const total = project.scenes.length * agents.length;
    setTraining(this.store, { status: { state: 'running', done: 0, total, tasks: 0, scene: project.scenes[0]!.id, startedAt } });
    const tasks: AugmentedTask[] = [];
    let unconnected = 0,
      done = 0,
      sliceStart = performance.now();
    try {
      for (const scene of project.scenes) {
        // What every agent's tasks share (pairs, block–cut tree, routes' segments) is made once a scene.
        const maker = sceneTaskMaker(scene);
        for (const agent of agents) {
          if (performance.now() - sliceStart >= this.sliceMs) {
            setTraining(this.store, { status: { state: 'running', done, total, tasks: tasks.length, scene: scene.id, startedAt } });
            await yieldNow();
            if (me !== this.run) return;
            sliceStart = performance.now();
          }
          // One agent at a time gives augment's tasks in augment's order (augmentScene).
          const made = augmentScene(scene, [agent as AgentName], options, maker);
          unconnected += made.unconnected;
          for (const t of made.tasks) tasks.push(t);
          done++;
        }
      }
    } catch (e) {
      if (me === this.run) fail(`The tasks could not be made: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (me !== this.run) return;
    setTraining(this.store, {
      status: { state: 'idle' },
      result: {
        projectId,
        scenes: project.scenes,
        profiles: project.profiles,
        options,
        agents: checked.agents,
        tasks,
        summary: summariseTasks(tasks, project.scenes.length, unconnected),
        ms: Math.round(performance.now() - startedAt),
      },
    });
  }

  cancel(): void {
    if (this.store.getState().training.status.state !== 'running') return;
    this.run++;
    setTraining(this.store, { status: { state: 'idle', message: 'Cancelled: the tasks shown (if any) are those of the run before.' } });
  }

  /** The tasks shown, or why there are none to download (said to the user). */
  private shown() {
    const s = this.store.getState();
    const r = s.training.result;
    if (!r || r.projectId !== s.workspace.projectId) {
      this.tell('Nothing to download: generate the tasks first.');
      return null;
    }
    return { r, stale: !isCurrent(r, s.document.project) };
  }

  private fileName(what: string): string {
    return `${safeName(this.store.getState().document.project?.name ?? '') || 'traversa'}-${what}`;
  }

  /** tasks.jsonl, the lines `cli augment` writes for the same options, put together a piece at a time. */
  async downloadTasks(): Promise<void> {
    const shown = this.shown();
    if (!shown) return;
    const made = await this.preparing('tasks', async () => {
      const parts: Uint8Array[] = [];
      for (const piece of tasksJsonlPieces(shown.r.tasks)) {
        parts.push(strToU8(piece));
        await yieldNow();
      }
      download(this.fileName('tasks.jsonl'), joinBytes(parts), 'application/x-ndjson');
    });
    if (made && shown.stale) this.tell('Downloaded the tasks shown, made before the project’s latest changes: generate again for the labels as they are.');
  }

  /**
   * train.jsonl, val.jsonl, test.jsonl and manifest.json in a zip, as `cli split` writes them from
   * that tasks.jsonl (splitPieces), compressed a piece at a time (a 30-scene split is ~18 MB of text).
   */
  async downloadSplit(): Promise<void> {
    const shown = this.shown();
    if (!shown) return;
    const settings = splitSettings(this.store.getState().training.split);
    if ('error' in settings) return this.tell(settings.error);
    const made = await this.preparing('split', async () => {
      const plan = planSplits(shown.r.tasks, settings.ratios, settings.seed);
      // The files in splitPieces' order, each finished before the next starts (an empty split gives no piece: an empty file).
      const zipped = await zipPieces(null, SPLIT_FILES, splitPieces(shown.r.tasks, plan, 'tasks.jsonl'), yieldNow);
      download(this.fileName('split.zip'), zipped, 'application/zip');
    });
    if (made && shown.stale)
      this.tell('Downloaded the split of the tasks shown, made before the project’s latest changes: generate again for the labels as they are.');
  }

  /** Put a download together (one at a time, the view saying so); whether it was made. */
  private async preparing(what: 'tasks' | 'split', work: () => Promise<void>): Promise<boolean> {
    if (this.store.getState().training.preparing) return false;
    setTraining(this.store, { preparing: what });
    try {
      await yieldNow();
      await work();
      return true;
    } catch (e) {
      this.tell(`The download could not be made: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    } finally {
      setTraining(this.store, { preparing: null });
    }
  }
}
