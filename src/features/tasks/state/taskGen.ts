import type { TaskProblem } from '../../../core/taskgen/reply.ts';
import type { FrameBudget } from '../../../core/tour/types.ts';
import { registerSlice } from '../../../state/store.ts';

export type { VideoInfo } from '../../../core/tour/types.ts';

/**
 * Task generation in the studio (session state; the run itself is features/tasks/app/taskGeneration.ts): the
 * endpoint settings (the key is kept in localStorage, like the judge's), how many tasks and which
 * frame budget, the run's progress, and the last run's report.
 */
export interface TaskGenSession {
  open: boolean;
  baseUrl: string;
  model: string;
  timeoutMs: number;
  /** Ask for at least this many tasks. */
  minTasks: number;
  budget: FrameBudget;
  status: { state: 'idle' } | { state: 'running'; stage: string; startedAt: number } | { state: 'done' } | { state: 'error'; message: string };
  report: TaskGenReport | null;
}

/** What a run did: the tasks kept (their items) and every problem, by task. */
export interface TaskGenReport {
  sceneId: string;
  model: string;
  at: string;
  /** The reply came from the cache (the same prompt, frames and model were asked before). */
  cached: boolean;
  /** Tasks in the reply, valid or not. */
  total: number;
  /** Items of the tasks kept, in task order. */
  itemIds: string[];
  problems: TaskProblem[];
  frames: { budget: FrameBudget; count: number };
}

export const TASKGEN_TIMEOUT_MS = 180_000;

/** What the studio says when a scene has no touring video to generate from or to review with. */
export const NO_VIDEO = 'Record the scene’s touring video first (Tour panel).';

export function initialTaskGen(): TaskGenSession {
  return { open: false, baseUrl: '', model: '', timeoutMs: TASKGEN_TIMEOUT_MS, minTasks: 10, budget: '16', status: { state: 'idle' }, report: null };
}

// The task panel's slice of the state (this user's, in this tab; its settings stay when another project opens).
declare module '../../../state/store.ts' {
  interface FeatureSlices {
    taskgen: TaskGenSession;
  }
}
registerSlice('taskgen', 'session', initialTaskGen);
