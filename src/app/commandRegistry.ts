import { runCommand as runIfEnabled, type Command } from '../state/commands.ts';
import { stateCommands } from './commandList.ts';
import type { CommandId } from '../state/commandIds.ts';
import type { StudioStore } from '../state/store.ts';
import { labellingCommands, type DriveActions } from '../features/labelling/app/labelling.ts';
import { reviewingCommands } from '../features/review/app/reviewing.ts';
import { tourCommands, type TourRunner } from '../features/tour/app/tour.ts';

/**
 * Every command of the studio, from one builder: the app, the shortcuts list and the tests all get
 * them here. What a command does to the outside world (files, storage, the drive) comes in `deps`,
 * so a test builds exactly the studio's commands over its own stand-ins.
 */
export interface CommandDeps {
  store: StudioStore;
  /** Write the project now; a failed write shows in `storage`. */
  flush: () => Promise<void>;
  tell: (message: string) => void;
  drive: DriveActions;
  project: {
    importFolder: () => void;
    openSample: () => void;
    exportRelease: () => void;
    exportBundle: () => void;
  };
  /** The touring video's recorder, and how to ask before a scene's stored video is replaced. */
  tour?: { runner: TourRunner; confirmReplace: (sceneId: string) => Promise<boolean> };
}

export function buildCommands(deps: CommandDeps): Command[] {
  const { store, flush, tell, drive, project } = deps;
  const hasProject = () => store.getState().document.project !== null;
  const projectCommands: Command[] = [
    { id: 'project.import', label: 'Import a CapNav release folder', shortcut: 'Mod+O', undoable: false, run: project.importFolder },
    { id: 'project.openSample', label: 'Open the sample house project', undoable: false, run: project.openSample },
    {
      id: 'project.export',
      label: 'Export the project as a CapNav release zip',
      shortcut: 'Mod+E',
      undoable: false,
      enabled: hasProject,
      run: project.exportRelease,
    },
    {
      id: 'project.exportBundle',
      label: 'Export the Traversa bundle (labels with reasons and evidence)',
      shortcut: 'Mod+Shift+E',
      undoable: false,
      enabled: hasProject,
      run: project.exportBundle,
    },
  ];
  const tour = deps.tour ? tourCommands(store, deps.tour.runner, deps.tour.confirmReplace) : [];
  return [...projectCommands, ...reviewingCommands(store, flush, tell), ...labellingCommands(store, flush, tell, drive), ...tour, ...stateCommands];
}

/** Run the command with this id if it exists and is enabled; returns whether it ran. */
export function runById(store: StudioStore, commands: readonly Command[], id: CommandId): boolean {
  const c = commands.find((x) => x.id === id);
  return c ? runIfEnabled(store, c) : false;
}
