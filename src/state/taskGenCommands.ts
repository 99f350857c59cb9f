import type { StudioStore } from './store.ts';
import type { TaskGenSession } from './taskGen.ts';

/** Change the task panel's session state (state/taskGen.ts). */
export function setTaskGen(store: StudioStore, patch: Partial<TaskGenSession>): void {
  store.setState((s) => ({ qa: { ...s.qa, taskgen: { ...s.qa.taskgen, ...patch } } }));
}
