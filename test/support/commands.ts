import { buildCommands, type CommandDeps } from '../../src/app/commandRegistry.ts';
import type { Command } from '../../src/state/commands.ts';
import type { StudioStore } from '../../src/state/store.ts';

/**
 * The studio's own commands (the one builder the app uses) over stand-ins for the outside world:
 * a write that succeeds, notices shown as the app shows them (and kept in `told`), a drive and
 * project actions that record that they were asked.
 */
export function studioCommands(store: StudioStore, over: Partial<CommandDeps> = {}): { commands: Command[]; told: string[]; asked: string[] } {
  const told: string[] = [],
    asked: string[] = [];
  const tell = (m: string) => {
    told.push(m);
    store.setState((s) => ({ ephemeral: { ...s.ephemeral, notice: m } }));
  };
  const ask = (what: string) => () => {
    asked.push(what);
  };
  const commands = buildCommands({
    store,
    flush: async () => {},
    tell,
    drive: {
      auto: async () => {
        asked.push('drive.auto');
      },
      spawn: ask('drive.spawn'),
      replay: ask('drive.replay'),
      step: ask('drive.step'),
    },
    project: { importFolder: ask('importFolder'), openSample: ask('openSample'), exportRelease: ask('exportRelease'), exportBundle: ask('exportBundle') },
    ...over,
  });
  return { commands, told, asked };
}
