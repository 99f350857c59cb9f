import type { StudioStore } from '../../../state/store.ts';
import type { TaskGenSession } from './taskGen.ts';
import { patchState } from '../../../state/patch.ts';

/** Change the task panel's session state (features/tasks/state/taskGen.ts). */
export function setTaskGen(store: StudioStore, patch: Partial<TaskGenSession>): void {
  patchState(store, 'taskgen', patch);
}
