import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import type { PickedFile } from '../../../ui/pickedFiles.ts';
import type { Importer } from './importRelease.ts';
import type { Projects } from './projects.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** Read picked or dropped files as a release; a project open asks whether to open it as new or merge. */
    'import.read': (files: PickedFile[]) => Promise<boolean>;
    'import.openAsNew': () => Promise<boolean>;
    'import.previewMerge': () => void;
    /** Merge, the import winning the conflicts whose keys are in `theirs`. */
    'import.confirmMerge': (theirs: ReadonlySet<string>) => boolean;
    'import.cancel': () => void;
    'projects.open': (id: string) => Promise<void>;
    'projects.new': () => Promise<void>;
    /** Open the sample house project (made from the bundled files the first time). */
    'projects.openSample': () => Promise<void>;
    'projects.rename': (id: string, name: string) => Promise<void>;
    'projects.duplicate': (id: string) => Promise<void>;
    /** Delete for good (the list has asked for confirmation), with its team mirror. */
    'projects.remove': (id: string) => Promise<void>;
    /** Changes made here to a synced project that have not reached its team server yet (its outbox). */
    'projects.unsent': (id: string) => Promise<number>;
  }
}

/** The project list's and the import's commands. */
export function projectArgCommands(
  projects: Projects,
  importer: Importer,
  io: { forgetTeamMirror: (id: string) => Promise<void>; unsent: (id: string) => Promise<number> },
): ArgCommandsOf<'import' | 'projects'> {
  return {
    'import.read': (files) => importer.read(files),
    'import.openAsNew': () => importer.openAsNew(),
    'import.previewMerge': () => importer.previewMerge(),
    'import.confirmMerge': (theirs) => importer.confirmMerge(theirs),
    'import.cancel': () => importer.cancel(),
    'projects.open': (id) => projects.open(id),
    'projects.new': () => projects.newProject(),
    'projects.openSample': () => projects.openSample(),
    'projects.rename': (id, name) => projects.rename(id, name),
    'projects.duplicate': (id) => projects.duplicate(id),
    // A deleted project's team mirror goes with it (the team database itself stays on the server).
    'projects.remove': async (id) => {
      await io.forgetTeamMirror(id);
      await projects.remove(id);
    },
    'projects.unsent': io.unsent,
  };
}
