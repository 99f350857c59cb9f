import { runCommand as runIfEnabled, type Command } from '../state/commands.ts';
import { stateCommands } from './commandList.ts';
import type { ArgCommands, CommandId } from '../state/commandIds.ts';
import type { StudioStore } from '../state/store.ts';
import { labellingCommands, type DriveActions } from '../features/labelling/app/labelling.ts';
import { reviewingCommands } from '../features/review/app/reviewing.ts';
import { tourCommands, type TourRunner } from '../features/tour/app/tour.ts';
import type { Project } from '../core/project.ts';
import type { TeamSync } from '../persistence/teamSync.ts';
import type { MeshManager } from '../services/meshManager.ts';
import type { Importer } from '../features/projects/app/importRelease.ts';
import type { Projects } from '../features/projects/app/projects.ts';
import type { SuggestionRunner } from '../features/suggestions/app/suggestions.ts';
import type { ScoringRunner } from '../features/scoring/app/scoring.ts';
import type { QaAnswersRunner } from '../features/scoring/app/qaScoring.ts';
import type { TaskGenerator } from '../features/tasks/app/taskGeneration.ts';
import type { SetOfMarkRun } from '../features/qa/app/setOfMark.ts';
import { projectArgCommands } from '../features/projects/app/commands.ts';
import { teamArgCommands } from '../features/team/app/commands.ts';
import { scanArgCommands } from '../features/scene/app/commands.ts';
import { suggestionArgCommands } from '../features/suggestions/app/commands.ts';
import { scoringArgCommands } from '../features/scoring/app/commands.ts';
import { qaArgCommands } from '../features/qa/app/commands.ts';
import { taskArgCommands } from '../features/tasks/app/commands.ts';
import { tourArgCommands } from '../features/tour/app/commands.ts';
import { trainingArgCommands } from '../features/training/app/commands.ts';
import type { TrainingTasks } from '../features/training/app/trainingTasks.ts';

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

/**
 * The commands with arguments, from each feature's builder: every id the features declare must be
 * supplied (the type says so) and by one feature only (a second would silently replace the first).
 */
export function composeArgCommands<P extends Partial<ArgCommands>[]>(...parts: P): AllOf<P[number]> {
  const all: Record<string, unknown> = {};
  for (const part of parts)
    for (const [id, run] of Object.entries(part)) {
      if (Object.hasOwn(all, id)) throw new Error(`two features supply the command ${id}`);
      all[id] = run;
    }
  return all as AllOf<P[number]>;
}

/** Every member of a union at once: what all the builders supply together (assigned to ArgCommands, a missing id does not compile). */
type AllOf<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The controllers the commands with arguments run (src/app/main.tsx makes them; a test passes stand-ins). */
export interface ArgCommandDeps {
  store: StudioStore;
  flush: () => Promise<void>;
  tell: (message: string) => void;
  projects: Projects;
  importer: Importer;
  /** The open project's team database, once storage has opened (null before). */
  team: () => TeamSync | null;
  /** Changes to a synced project not sent to its team server yet. */
  unsent: (projectId: string) => Promise<number>;
  meshes: MeshManager;
  suggestions: SuggestionRunner;
  scorer: ScoringRunner;
  qaAnswers: QaAnswersRunner;
  tasks: TaskGenerator;
  tour: TourRunner;
  training: TrainingTasks;
  setOfMark: (project: Project) => Promise<SetOfMarkRun>;
}

/** Every command with arguments of the studio, from each feature's builder. */
export function buildArgCommands(d: ArgCommandDeps): ArgCommands {
  return composeArgCommands(
    projectArgCommands(d.projects, d.importer, { forgetTeamMirror: async (id) => d.team()?.forget(id), unsent: d.unsent }),
    teamArgCommands(d.team),
    scanArgCommands(d.meshes),
    suggestionArgCommands(d.suggestions),
    scoringArgCommands(d.store, d.scorer, d.qaAnswers, d.tell),
    qaArgCommands(d.store, { flush: d.flush, tell: d.tell, setOfMark: d.setOfMark }),
    taskArgCommands(d.tasks),
    tourArgCommands(d.tour),
    trainingArgCommands(d.training),
  );
}
