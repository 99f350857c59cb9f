import { navigationCommands, type Command } from '../state/commands.ts';
import { queueCommands } from '../features/labelling/state/queueCommands.ts';
import { scoreCommands } from '../features/scoring/state/scoreCommands.ts';
import { workspaceCommands } from '../state/workspaceCommands.ts';
import { graphCommands } from '../features/scene/state/graphCommands.ts';
import { trainingCommands } from '../features/training/state/trainingCommands.ts';

/** Every command of the studio's state, in the order the shortcut list shows them. */
export const stateCommands: Command[] = [
  ...navigationCommands,
  ...queueCommands,
  ...scoreCommands,
  ...workspaceCommands,
  ...graphCommands,
  ...trainingCommands,
];
