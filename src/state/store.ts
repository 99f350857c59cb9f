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
    selection: Selection | null;
    tool: Tool;
    camera: CameraMode;
    /** Hide everything above `height` (world Y, metres) when on. */
    slice: { on: boolean; height: number };
    measureMode: MeasureMode;
  };
  ephemeral: {
    hoverNode: string | null;
    /** First node picked by the connect tool. */
    connectFrom: string | null;
    /** The measuring tool's points and result (world frame). */
    measure: Measurement | null;
    /** Bumped to ask the node panel to focus its name field (F2). */
    renameRequest: number;
  };
  /** Loading state of each scene's mesh (the three.js objects themselves live outside the store). */
  meshes: Record<string, MeshStatus>;
  history: { past: HistoryEntry[]; future: HistoryEntry[] };
  /** The report of the last import attempt (accepted with findings, or rejected). */
  importReport: ImportReport | null;
  /** Storage status as shown to the user; a failed write is never swallowed. */
  storage: { status: 'loading' | 'idle' | 'saving' | 'saved' | 'error'; message?: string; savedAt?: number };
}

export type Selection = { kind: 'node' | 'edge'; id: string };
export type Tool = 'select' | 'place' | 'connect' | 'measure';
export type CameraMode = 'orbit' | 'top' | 'first';
export type MeasureMode = 'distance' | 'width';

export interface WorldPoint { x: number; y: number; z: number }
export interface Measurement {
  mode: MeasureMode;
  points: WorldPoint[];
  /** Straight-line distance, its horizontal part and the height difference (distance mode). */
  distance?: { total: number; horizontal: number; vertical: number };
  /** Narrowest clear width through the picked point, with the two wall points (width mode). */
  width?: { width: number; a: WorldPoint; b: WorldPoint };
}

export type MeshStatus =
  | { state: 'loading'; stage: string; fraction: number; message: string }
  /** `error`: the last attempt to replace this scan failed (the loaded one is unchanged). */
  | { state: 'ready'; triangles: number; floors: number[]; warnings: string[]; error?: string }
  | { state: 'error'; file: string; message: string }
  | { state: 'missing'; message: string };

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
    session: {
      view: 'overview', sceneId: null, agent: 'WHEELCHAIR', questionIndex: null, selection: null, tool: 'select',
      camera: 'orbit', slice: { on: false, height: 2 }, measureMode: 'distance',
    },
    ephemeral: { hoverNode: null, connectFrom: null, measure: null, renameRequest: 0 },
    meshes: {},
    history: { past: [], future: [] },
    importReport: null,
    storage: { status: 'loading' },
  };
}

export function createStudioStore(state: StudioState = initialState()): StudioStore {
  return createStore<StudioState>()(() => state);
}
