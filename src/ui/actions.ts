import { createContext, useContext } from 'react';
import type { Command } from '../state/commands.ts';
import type { VideoInfo } from '../core/tour/types.ts';
import type { PickedFile } from './pickedFiles.ts';
import type { CommandId } from '../state/commandIds.ts';

/** What the UI asks of the composition root: the IO actions and the full command list. */
export interface StudioActions {
  importFiles: (files: PickedFile[]) => Promise<boolean>;
  exportRelease: () => void;
  /** An import read and waiting for a choice (importRelease.ts Importer). */
  imports: {
    openAsNew: () => Promise<boolean>;
    previewMerge: () => void;
    /** Merge, the import winning the conflicts whose keys are in `theirs`. */
    confirmMerge: (theirs: ReadonlySet<string>) => boolean;
    cancel: () => void;
  };
  /** The project list (features/projects/app/projects.ts). */
  projects: {
    open: (id: string) => Promise<void>;
    newProject: () => Promise<void>;
    rename: (id: string, name: string) => Promise<void>;
    duplicate: (id: string) => Promise<void>;
    /** Delete for good (the list has asked for confirmation). */
    remove: (id: string) => Promise<void>;
    /** Changes made here to a synced project that have not reached its team server yet (its outbox). */
    unsent: (id: string) => Promise<number>;
  };
  /** The open project's team database (persistence/teamSync.ts); each returns the problem in words, or null. */
  team: {
    connect: (url: string, user: string, password: string) => Promise<string | null>;
    join: (url: string, user: string, password: string, progress: (done: number, total: number) => void) => Promise<string | null>;
    signIn: (password: string) => Promise<void>;
    signOut: () => void;
    disconnect: () => Promise<void>;
    keep: (key: string, rev: string) => Promise<string | null>;
  };
  /** Load a scan (main file plus side files) for a scene; nothing changes if it cannot be read. */
  attachMesh: (sceneId: string, files: PickedFile[]) => Promise<boolean>;
  /** Forget a scene's scan (its stored files are deleted once nothing refers to them). */
  removeMesh: (sceneId: string) => void;
  /** Open the sample house project (made from the bundled files the first time). */
  openSample: () => Promise<void>;
  /** Run a command by id, if it is enabled (buttons use the same commands as the keys). */
  runCommand: (id: CommandId) => void;
  /** Measure the scene's scan and suggest a label for every edge and agent. */
  computeSuggestions: (sceneId: string) => Promise<void>;
  scoring: {
    loadFiles: (files: PickedFile[]) => Promise<void>;
    addBaseline: (kind: 'random' | 'oracle') => void;
    run: () => Promise<void>;
    /** Stop asking the HTTP judge; the run finishes with the records not yet judged marked "judge cancelled". */
    cancel: () => void;
    /** Fetch a record in full (it stays where it was scored) for the preview. */
    open: (model: string, i: number) => Promise<void>;
    /** Fetch the route viewer's compared model's record of the same task as this one. */
    openCompare: (record: import('../core/scoring/paper/types.ts').ScoredRecord | null) => Promise<void>;
    exportJson: () => Promise<void>;
    exportCsv: () => Promise<void>;
    /** The paper's Table 2 of the scored models (the same as `score --table2`), as CSV or LaTeX. */
    exportTable2: (format: 'csv' | 'tex') => void;
    /** The files of the last run under the released scorer's conventions, as `score --compat reference` writes them. */
    referenceFiles: () => { name: string; text: string; type: string }[];
    /** Save a file the view made (a chart as SVG or PNG), named after the project. */
    saveFile: (name: string, bytes: Uint8Array, type: string) => void;
  };
  /** A model's answers to the accepted QA items: load answer files (JSONL), export the report. */
  qaAnswers: {
    load: (files: PickedFile[]) => Promise<void>;
    clear: () => void;
    exportJson: () => void;
    /** The reasoning judge (FoMER RA): imported scores from a file, the HTTP judge, or none; cancel the HTTP judge. */
    loadReasoningScores: (files: PickedFile[]) => Promise<void>;
    setReasoningJudge: (judge: 'none' | 'imported' | 'http') => void;
    cancelReasoning: () => void;
  };
  qa: {
    /** Import generated items (JSON / JSONL) and CapNav question files as items to review; all or nothing. */
    importFiles: (files: PickedFile[]) => Promise<boolean>;
    /** Download the accepted items as a benchmark bundle zip (refused while an accepted item has an error). */
    exportBundle: () => Promise<boolean>;
    /** Compare the project's traversability labels with another labelling (a release folder). */
    compareLabels: (files: PickedFile[]) => Promise<boolean>;
    /** Replace the project's taxonomy with one from a JSON file (a taxonomy, or a QA bundle's manifest). */
    importTaxonomy: (file: PickedFile) => Promise<boolean>;
  };
  /** Navigation tasks generated from the selected scene's video (features/tasks/app/taskGeneration.ts), and the video for review. */
  tasks: {
    /** Ask the endpoint for tasks with the task panel's settings; the valid ones join the review queue (one undo step). */
    generate: () => Promise<void>;
    cancel: () => void;
    /** What the scene's stored video offers (its length and frame sets), or that it has none. */
    videoInfo: (sceneId: string) => Promise<VideoInfo>;
    /** The scene's stored video file and its length in seconds, or null when it has none. */
    videoFile: (sceneId: string) => Promise<{ blob: Blob; seconds: number } | null>;
  };
  /** The scenes' touring videos (features/tour/app/tour.ts): read the stored one, download its parts. */
  tour: {
    load: (sceneId: string) => Promise<import('../persistence/videos.ts').SceneVideo | undefined>;
    download: (sceneId: string, what: 'video' | 'poses' | 'frames') => void;
  };
  commands: readonly Command[];
}

export const ActionsContext = createContext<StudioActions | null>(null);

export function useActions(): StudioActions {
  const a = useContext(ActionsContext);
  if (!a) throw new Error('ActionsContext is missing');
  return a;
}
