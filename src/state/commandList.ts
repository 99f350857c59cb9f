import { navigationCommands, type Command } from './commands.ts';
import { queueCommands } from './queueCommands.ts';
import { scoreCommands } from './scoreCommands.ts';
import { workspaceCommands } from './workspaceCommands.ts';

/** Every command of the studio's state, in the order the shortcut list shows them. */
export const stateCommands: Command[] = [...navigationCommands, ...queueCommands, ...scoreCommands, ...workspaceCommands];
