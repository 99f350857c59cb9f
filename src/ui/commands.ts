import { createContext, useContext } from 'react';
import type { Command } from '../state/commands.ts';
import type { ArgCommands, CommandId, Runnable } from '../state/commandIds.ts';

/** The studio's commands as panels reach them: the list (keys, buttons, the shortcuts list) and those with arguments. */
export interface StudioCommands {
  list: readonly Command[];
  /** Run a command without arguments by id, if it is enabled. */
  run: (id: CommandId) => void;
  withArgs: ArgCommands;
}

export const CommandsContext = createContext<StudioCommands | null>(null);

function useStudioCommands(): StudioCommands {
  const c = useContext(CommandsContext);
  if (!c) throw new Error('CommandsContext is missing');
  return c;
}

/** The studio's commands without arguments (for keys, menus and the shortcuts list). */
export function useCommandList(): readonly Command[] {
  return useStudioCommands().list;
}

/**
 * A command by id, typed by it: `useCommand('view.score')()` runs a command without arguments (if
 * it is enabled), `useCommand('projects.open')(id)` one with arguments and gives its answer.
 */
export function useCommand<K extends keyof Runnable>(id: K): Runnable[K] {
  const c = useStudioCommands();
  return (Object.hasOwn(c.withArgs, id) ? c.withArgs[id as keyof ArgCommands] : () => c.run(id as CommandId)) as Runnable[K];
}

/** Run a command without arguments by id, if it is enabled (for ids made at the click, e.g. `qa.reject.${reason}`). */
export function useRunCommand(): (id: CommandId) => void {
  return useStudioCommands().run;
}
