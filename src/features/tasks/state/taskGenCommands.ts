import type { StudioStore } from '../../../state/store.ts';
import type { TaskGenSession } from './taskGen.ts';

/** Change the task panel's session state (features/tasks/state/taskGen.ts). */
export function setTaskGen(store: StudioStore, patch: Partial<TaskGenSession>): void {
  store.setState((s) => ({ taskgen: { ...s.taskgen, ...patch } }));
}
