import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import type { TrainingTasks } from './trainingTasks.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** Make the open project's training tasks with the Training view's settings (as `cli augment`), a scene and agent at a time. */
    'training.generate': () => Promise<void>;
    'training.cancel': () => void;
    /** The tasks shown as tasks.jsonl, byte for byte what `cli augment` writes for the same options. */
    'training.downloadTasks': () => Promise<void>;
    /** Those tasks split by scene into train/val/test with its manifest (a zip of what `cli split` writes). */
    'training.downloadSplit': () => Promise<void>;
  }
}

/** The Training view's commands (trainingTasks.ts). */
export function trainingArgCommands(training: TrainingTasks): ArgCommandsOf<'training'> {
  return {
    'training.generate': () => training.generate(),
    'training.cancel': () => training.cancel(),
    'training.downloadTasks': () => training.downloadTasks(),
    'training.downloadSplit': () => training.downloadSplit(),
  };
}
