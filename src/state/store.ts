import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentName } from '../core/agents.ts';
import type { Problem } from '../core/problems.ts';
import type { Project } from '../core/project.ts';

/**
 * The studio's state, split by what happens to it:
 * - `document`: the project — saved, exported and undoable;
 * - `session`: selection and view — survives nothing but the session;
 * - `ephemeral`: hover and previews — never saved.
 * `history` holds document snapshots for undo; `notices` are what the user must be told.
 */
export interface StudioState {
  document: { project: Project | null };
  session: {
    view: 'overview' | 'scene' | 'problems';
    sceneId: string | null;
    agent: AgentName;
    questionIndex: number | null;
  };
  ephemeral: { hoverNode: string | null };
  history: { past: HistoryEntry[]; future: HistoryEntry[] };
  /** The report of the last import attempt (accepted with findings, or rejected). */
  importReport: ImportReport | null;
  /** Storage status as shown to the user; a failed write is never swallowed. */
  storage: { status: 'loading' | 'idle' | 'saving' | 'saved' | 'error'; message?: string; savedAt?: number };
}

export interface HistoryEntry {
  label: string;
  project: Project | null;
}

export interface ImportReport {
  source: string;
  accepted: boolean;
  /** Whether the import replaced an earlier project (kept, and restorable). */
  replaced: boolean;
  problems: Problem[];
  at: number;
}

export type StudioStore = StoreApi<StudioState>;

export function initialState(): StudioState {
  return {
    document: { project: null },
    session: { view: 'overview', sceneId: null, agent: 'WHEELCHAIR', questionIndex: null },
    ephemeral: { hoverNode: null },
    history: { past: [], future: [] },
    importReport: null,
    storage: { status: 'loading' },
  };
}

export function createStudioStore(state: StudioState = initialState()): StudioStore {
  return createStore<StudioState>()(() => state);
}
