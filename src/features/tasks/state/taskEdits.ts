import { insertTasks, type TaskInsertion } from '../../../core/taskgen/insert.ts';
import { defineEdit } from '../../../state/edits.ts';

/** All the tasks of one generation run go in as one undo step: the scene's new questions and their items. */
export const TASK_EDITS = {
  add: defineEdit('qa.tasks.add', 'Add generated tasks', (p, a: TaskInsertion) => insertTasks(p, a).project),
} as const;
