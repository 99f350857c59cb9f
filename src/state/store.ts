import type { MergeConflict } from '../core/records/merge.ts';
import type { Change } from '../core/records/records.ts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentName } from '../core/agents.ts';
import type { ReasonCategory } from '../core/rules.ts';
import type { SuggestionBasis } from '../core/suggestionBasis.ts';
import type { BootstrapSettings } from '../core/scoring/bootstrap.ts';
import type { LiteReport } from '../core/scoring/paper/lite.ts';
import { JUDGE_TIMEOUT_MS } from '../core/scoring/judges/http.ts';
import { DEFAULT_PAPER_SETTINGS } from '../core/scoring/pipeline.ts';
import type { ScoredRecord } from '../core/scoring/paper/types.ts';
import type { CompatSummaries } from '../core/scoring/compat/folders.ts';

/** A scored prediction's route as the viewport draws it (node ids; hops judged against the ground truth). */
export interface PathPreview {
  hops: { from: string | null; to: string | null; state: 'traversable' | 'blocked' | 'unlabelled' | 'invalid' }[];
  gtRoute: string[] | null;
  wrongStart: string | null;
  wrongEnd: string | null;
  /** The route viewer's additions: the hop stepped to, a second model's route, the camera fitted to the route and the slice to its floors. */
  focusHop?: number | null;
  /** What is written beside the stepped-to hop in 3D (its state and the label's note). */
  focusNote?: string | null;
  compare?: { from: string | null; to: string | null; state: PathPreview['hops'][number]['state'] }[] | null;
  /** Nodes the camera is fitted to (the route's, else the question's ends); `key` changes when the fit should be done again. */
  frame?: { nodes: string[]; key: string } | null;
  slice?: { on: boolean; height: number; below: number | null } | null;
}
import type { Problem } from '../core/problems.ts';
import type { Project } from '../core/project.ts';
import type { LabelComparison } from '../core/labelComparison.ts';
import { ANY_SCOPE, type ItemScope } from '../core/vqa/itemFilters.ts';

/**
 * The studio's state, split by what happens to it:
 * - `document`: the project — saved, exported and undoable;
 * - `session`: selection and view — survives nothing but the session;
 * - `ephemeral`: hover and previews — never saved.
 * `history` holds the record changes of each undo step; `notices` are what the user must be told.
 */
/** One undo step: the records it changed, from what to what (history.ts moves the document along them). */
export interface HistoryStep {
  label: string;
  changes: Change[];
}

/**
 * The parts of the state a feature adds. Each is declared in the feature's own state/ folder, by
 * declaration merging —
 *   declare module '…/state/store.ts' { interface FeatureSlices { taskgen: TaskGenSession } }
 * — and registered there with `registerSlice` (its scope and initial value), so this file names no
 * feature of them. The studio loads every registering module before it makes its store
 * (src/app/features.ts): a panel that reads a slice for its type alone does not load it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FeatureSlices {}

export interface StudioState extends FeatureSlices {
  document: { project: Project | null };
  session: {
    view: 'overview' | 'scene' | 'label' | 'score' | 'qa' | 'problems' | 'training';
    sceneId: string | null;
    agent: AgentName;
    questionIndex: number | null;
    selection: Selection | null;
    tool: Tool;
    camera: CameraMode;
    /** Hide everything above `height` (world Y, metres) when on. */
    slice: { on: boolean; height: number };
    /**
     * In the label view the slice follows the current segment's floor (see slice.ts) until the
     * annotator sets one by hand (L, PageUp/PageDown, the floor buttons); moving the queue follows again.
     */
    sliceFollowsItem: boolean;
    measureMode: MeasureMode;
    /** Position in the selected scene's labelling queue. */
    queueCursor: number;
    /** The reason and note being written for the current queue item. */
    labelDraft: LabelDraft;
    /** Who is labelling (kept in this browser; written into every label's provenance). */
    annotator: string;
    /** Label the unrestricted human traversable automatically, as the original CapNav tool did. */
    autoApproveHuman: boolean;
  };
  ephemeral: {
    hoverNode: string | null;
    /** First node picked by the connect tool. */
    connectFrom: string | null;
    /** The measuring tool's points and result (world frame). */
    measure: MeasureReading | null;
    /** Bumped to ask the node panel to focus its name field (F2). */
    renameRequest: number;
    /** Bumped to ask the labelling panel to focus its note field (/). */
    noteRequest: number;
    /** Bumped to ask the review panel to focus its comment field (/ while reviewing). */
    commentRequest: number;
    /** The last thing the labelling queue has to tell the annotator. */
    notice: string | null;
    /** The keyboard shortcuts list is open: keys go to it, not to the app behind it. */
    helpOpen: boolean;
    /** The project list is open (in front of the app, like the shortcuts list). */
    projectsOpen: boolean;
    /** The agent being driven through the scan, if any (world coordinates). */
    drive: DriveView | null;
    /** A scored prediction's route shown over the scene (the scoring view). */
    pathPreview: PathPreview | null;
    /** Ask the camera to move to a saved viewpoint (bumped `n` each time). */
    cameraRequest: { camera: CameraPose; n: number } | null;
  };
  /** Loading state of each scene's mesh (the three.js objects themselves live outside the store). */
  meshes: Record<string, MeshStatus>;
  /** Automatic suggestions per scene (derived from the scan; never document data until confirmed). */
  suggestions: Record<string, SuggestionsState>;
  /** Scoring model predictions against the project's ground truth (session data, exported on demand). */
  scoring: ScoringState;
  /** The question-answer view: the item open, review mode, and when its review started. */
  qa: QaSession;
  history: { past: HistoryStep[]; future: HistoryStep[] };
  /** The open project's team database, as this tab sees it (persistence/teamSync.ts). */
  team: TeamState;
  /** The stored projects of this browser and the one open in this tab (persistence/projectStorage.ts). */
  workspace: { projectId: string | null; projects: ProjectSummary[] };
  /** The report of the last import attempt (accepted with findings, or rejected). */
  importReport: ImportReport | null;
  /** Storage status as shown to the user; a failed write is never swallowed. */
  storage: { status: 'loading' | 'idle' | 'saving' | 'saved' | 'error'; message?: string; savedAt?: number };
}

/**
 * What each top-level key of the state is, so persistence and sync pick by scope rather than by
 * name: `document` is saved, exported, undoable and shared; `session` is this user's work in this
 * tab (views, selections, derived results such as suggestions and scores, the undo stacks);
 * `ephemeral` is what the moment shows (hover, previews, loading and saving status).
 */
export type Scope = 'document' | 'session' | 'ephemeral';
const SLICES = new Map<string, { scope: Scope; initial: () => unknown }>();

/** A feature's slice of the state: its scope, and how it starts (in every new store, and never twice). */
export function registerSlice<K extends keyof FeatureSlices>(key: K, scope: Scope, initial: () => FeatureSlices[K]): void {
  if (SLICES.has(key) || Object.hasOwn(CORE_SCOPE, key)) throw new Error(`the state already has a slice "${key}"`);
  SLICES.set(key, { scope, initial });
}

const CORE_SCOPE: { readonly [K in Exclude<keyof StudioState, keyof FeatureSlices>]: Scope } = {
  document: 'document',
  session: 'session',
  suggestions: 'session',
  scoring: 'session',
  qa: 'session',
  history: 'session',
  workspace: 'session',
  ephemeral: 'ephemeral',
  meshes: 'ephemeral',
  importReport: 'ephemeral',
  storage: 'ephemeral',
  team: 'ephemeral',
};

/** The scope of each top-level key: the shared ones, and the slices the features registered. */
export const stateScopes = (): [keyof StudioState, Scope][] =>
  [...Object.entries(CORE_SCOPE), ...[...SLICES].map(([k, r]) => [k, r.scope] as const)] as [keyof StudioState, Scope][];

/** The keys of one scope. */
export const keysOfScope = (scope: Scope): (keyof StudioState)[] => stateScopes().flatMap(([k, sc]) => (sc === scope ? [k] : []));

export type Selection = { kind: 'node' | 'edge'; id: string };

export type View = StudioState['session']['view'];

/**
 * The label being written for the current queue item. `by` says who wrote it: the annotator (keys
 * and fields mark it so), or a drive proposing what stopped it. A draft without `by` was written by
 * the drive controller, which predates the mark; it counts as the drive's.
 */
export interface LabelDraft {
  reason: ReasonCategory | null;
  note: string;
  by?: 'annotator' | 'drive';
}

export const EMPTY_DRAFT: LabelDraft = { reason: null, note: '' };

/** Which items the QA list shows. `to-review` is the reviewer's own queue. */
export type QaFilter = 'all' | 'to-review' | 'draft' | 'pending' | 'accepted' | 'rejected' | 'adjudicate';

/** The question-answer view's session state (not part of the document). */
export interface QaSession {
  itemId: string | null;
  /** Writing items, or reviewing them one after another with the keyboard. */
  mode: 'edit' | 'review';
  /** When the open item was shown to the reviewer (for the time spent). */
  reviewStartedAt: number | null;
  /** R was pressed: the next key gives the reason. */
  rejecting: boolean;
  /** E was pressed: the reviewer is editing the item and accepts it with the edits. */
  editingForReview: boolean;
  /** The reviewer's comment on the open item, recorded with the verdict. */
  comment: string;
  filter: QaFilter;
  /** Scene, source and import the list and the review queue are narrowed to ('' = any). */
  scope: ItemScope;
  /** Independent reviews each imported item needs (overlap, for agreement); a record may say otherwise. */
  importReviews: number;
  /** This project's traversability labels compared with another labelling of the same scenes. */
  labelComparison: LabelComparison | null;
  /** Generating navigation tasks from the scene's video (features/tasks/state/taskGen.ts). */
}
/**
 * Recording a scene's touring video: `walking` while the walk view's camera is being recorded by
 * hand, `recording` while frames are rendered and encoded (`fraction` 0..1), then how it ended.
 * `stored` is bumped whenever a scene's stored video changes, so what shows it loads it again.
 */

export type Tool = 'select' | 'place' | 'connect' | 'measure' | 'mark';
export type CameraMode = 'orbit' | 'top' | 'first';
export type MeasureMode = 'distance' | 'width';

export interface WorldPoint {
  x: number;
  y: number;
  z: number;
}
export interface MeasureReading {
  mode: MeasureMode;
  points: WorldPoint[];
  /** Straight-line distance, its horizontal part and the height difference (distance mode). */
  distance?: { total: number; horizontal: number; vertical: number };
  /** Narrowest clear width through the picked point, with the two wall points (width mode). */
  width?: { width: number; a: WorldPoint; b: WorldPoint; height: number; facingDeg: number; warning: string | null };
}

export type MeshStatus =
  | { state: 'loading'; stage: string; fraction: number; message: string }
  /** `error`: the last attempt to replace this scan failed (the loaded one is unchanged). */
  /** `upHint`: the scan's level surfaces say it is drawn the wrong way up (engine/mesh/upAxis.ts), and which axis they point to. */
  | { state: 'ready'; triangles: number; floors: number[]; warnings: string[]; error?: string; upHint?: { axis: 'y' | 'z'; text: string } }
  | { state: 'error'; file: string; message: string }
  | { state: 'missing'; message: string };

export type Triple = [number, number, number];

/** Where a camera is and looks (world frame), as a viewpoint saves it. */
export interface CameraPose {
  mode: CameraMode;
  position: { x: number; y: number; z: number };
  target: { x: number; y: number; z: number };
  fov?: number;
  zoom?: number;
}

export interface DriveView {
  sceneId: string;
  agent: string;
  /** The queue item (`question:agent:from|to`) the drive was made for. */
  itemKey: string;
  shape: 'box' | 'cylinder';
  widthM: number;
  depthM: number;
  heightM: number;
  pose: { x: number; y: number; z: number; yaw: number };
  trajectory: Triple[];
  contact: { kind: string; message: string; point: Triple; heightM?: number } | null;
  reached: boolean;
  readouts: { clearWidthM: number | null; lastStepM: number; tightestClearanceM: number | null };
  /** What the drive measured: at what stopped it (clear width, step, clear height), or on the way. */
  measured: Record<string, number>;
  /** 'planner': G, a motion the planner found (or as far as one gets); 'hand': B and the arrow keys. */
  source: 'planner' | 'hand';
  /** The motion to play back (world, with yaw), at most a few hundred poses; empty for a hand drive. */
  motion: { x: number; y: number; z: number; yaw: number }[];
  /** When the overlay started playing the motion (performance.now()), or null when it shows its end. */
  playFrom: number | null;
  /** Played because Replay was asked for: then it plays even when the system asks for reduced motion. */
  replayed?: boolean;
  /** The measured reason it stopped, in the rules' categories, and its note in the rules' words. */
  reason: ReasonCategory | null;
  note: string;
  /** Where it is stopped (world), or null. */
  stoppedAt: Triple | null;
  /** The planner's resolution, as shown to the annotator ("2 cm, 5°"). */
  resolution: string | null;
  /** Why the scan cannot settle the answer (a measurement within its noise of the agent's limit), or null. */
  doubt: string | null;
}

export interface SuggestionView {
  traversable: boolean;
  reason: ReasonCategory | null;
  note: string;
  measured: Record<string, number | number[]>;
  navmeshRoute: boolean | null;
  /** Why the scan cannot settle it (core/doubt.ts); absent in suggestions kept before it was measured. */
  doubt?: string | null;
}

export type SuggestionsState =
  | { state: 'running'; fraction: number; message: string }
  /**
   * `basis`: the scan, graph and profiles they were computed from (stale once the scene differs);
   * `kept`: they are stored with the project (a reload keeps them); `unsaved`: why they could not be.
   */
  | { state: 'ready'; agents: Record<string, Record<string, SuggestionView>>; computedAt: number; basis: SuggestionBasis; kept?: boolean; unsaved?: string }
  | { state: 'error'; message: string };

export interface ScoringState {
  /** Where the loaded predictions came from, and the files (plus generated baselines). */
  source: string | null;
  files: { path: string; text: string }[];
  /** The picked folder's name, or the one picked file's: names the model of files outside `<model>/<SCENE>/`, as `--pred` does. */
  root: string;
  settings: {
    /** Whose conventions score: Traversa's paper mode, or the released Python scorer's (`score --compat reference`). */
    conventions: 'paper' | 'reference';
    judge: 'rule' | 'none' | 'imported' | 'http';
    verdicts: { path: string; text: string } | null;
    /** The HTTP judge: endpoint, model, and the time limit per request (the key stays in localStorage). */
    http: { baseUrl: string; model: string; timeoutMs: number };
    weights: { f1: number; pv: number; rta: number; rv: number };
    averaging: 'micro' | 'macro';
    bootstrap: BootstrapSettings;
  };
  status: { state: 'idle' | 'running' | 'done' | 'error'; phase?: string; done?: number; total?: number; message?: string };
  /** [model, report] in model order: summaries and light record rows (full records are fetched on demand). */
  reports: [string, LiteReport][];
  /** The opened record in full (hops, errors, judge), fetched from where it was scored. */
  detail: ScoredRecord | null;
  problems: Problem[];
  selectedModel: string | null;
  compareModel: string | null;
  selectedRecord: string | null;
  filter: { agent: string; outcome: string; failure: string; text: string };
  /** The route viewer (src/features/scoring/ui/RouteViewer.tsx): open, the hop stepped to, and the model whose route for the same task is drawn beside. */
  viewer: RouteViewerState;
  /** The last run under the released scorer's conventions: its summaries (the records stay with the runner, for the downloads). */
  compat: CompatView | null;
}

export interface CompatView {
  /** The results root as the released scorer names it (the picked folder). */
  root: string;
  summaries: CompatSummaries;
  judge: string;
  /** Prediction files that did not parse (each one failed `invalid_json` record). */
  unreadable: { path: string; message: string }[];
  /** Release files of the project the released scorer would have crashed on. */
  truthProblems: { path: string; message: string }[];
  /** Loaded files the released scorer does not read (JSONL, text, roll-ups). */
  notRead: string[];
}

export interface RouteViewerState {
  open: boolean;
  hop: number | null;
  compare: string | null;
  compareDetail: ScoredRecord | null;
}

export interface ImportReport {
  source: string;
  accepted: boolean;
  /** What became of an accepted release or bundle: a new project of the list, or merged into the open one. */
  outcome?: 'new-project' | 'merged' | 'items';
  /** Items imported into the open project (outcome `items`): how many, and the project's name. */
  items?: { count: number; into: string };
  /** Read and waiting for the user: open as a new project, or merge into the open one (`merge`: what that would do). */
  awaiting?: { into: string; merge: MergePreview | null };
  /** What a confirmed merge did: records added, conflicts taken from the import, conflicts kept as they were. */
  merged?: { added: number; replaced: number; kept: number };
  /** Refused because the pick held no release file at all (a folder pick, or loose files). */
  empty?: 'folder' | 'files';
  problems: Problem[];
  at: number;
}

/** What merging an import would do, before anything changes. */
export interface MergePreview {
  added: number;
  same: number;
  conflicts: MergeConflict[];
}

/** One record whose versions conflict in the team database: every version, the winning one first. */
export interface TeamConflict {
  key: string;
  what: string;
  versions: { rev: string; author: string; at: string; summary: string; winning: boolean }[];
}

export interface TeamState {
  /**
   * off: not connected; connecting; syncing: sending or receiving; synced: nothing waiting;
   * offline: the server cannot be reached (work is kept and sent later); signed-out: the server
   * wants the password again; elsewhere: another tab of this browser syncs this project; error.
   */
  state: 'off' | 'connecting' | 'syncing' | 'synced' | 'offline' | 'signed-out' | 'elsewhere' | 'error';
  url?: string;
  user?: string;
  /** What the server lets this user do in the project (from their session's roles); unknown until the server answered. */
  role?: 'admin' | 'lead' | 'annotator';
  /** Changes made here the server has not confirmed yet. */
  waiting: number;
  conflicts: TeamConflict[];
  /** Records the server refused, with its reason. */
  refused: { key: string; reason: string }[];
  message?: string;
  lastSyncAt?: number;
}

/** A stored project as the project list shows it. */
export interface ProjectSummary {
  id: string;
  name: string;
  updatedAt: number;
  /** Approximate size of its records, bytes. */
  bytes: number;
  scenes: number;
  origin?: 'sample';
  /** The team database it is connected to. */
  sync?: { url: string; user: string };
}

export type StudioStore = StoreApi<StudioState>;

export function initialState(): StudioState {
  const slices = Object.fromEntries([...SLICES].map(([k, r]) => [k, r.initial()])) as unknown as FeatureSlices;
  return {
    ...slices,
    document: { project: null },
    session: {
      view: 'overview',
      sceneId: null,
      agent: 'WHEELCHAIR',
      questionIndex: null,
      selection: null,
      tool: 'select',
      camera: 'orbit',
      slice: { on: false, height: 2 },
      sliceFollowsItem: true,
      measureMode: 'distance',
      queueCursor: 0,
      labelDraft: EMPTY_DRAFT,
      annotator: '',
      autoApproveHuman: true,
    },
    ephemeral: {
      hoverNode: null,
      connectFrom: null,
      measure: null,
      renameRequest: 0,
      noteRequest: 0,
      commentRequest: 0,
      notice: null,
      helpOpen: false,
      projectsOpen: false,
      drive: null,
      pathPreview: null,
      cameraRequest: null,
    },
    meshes: {},
    suggestions: {},
    qa: {
      itemId: null,
      mode: 'edit',
      reviewStartedAt: null,
      rejecting: false,
      editingForReview: false,
      comment: '',
      filter: 'all',
      scope: ANY_SCOPE,
      labelComparison: null,
      importReviews: 1,
    },
    scoring: {
      source: null,
      files: [],
      root: '',
      settings: {
        conventions: 'paper',
        judge: 'rule',
        verdicts: null,
        http: { baseUrl: '', model: '', timeoutMs: JUDGE_TIMEOUT_MS },
        weights: DEFAULT_PAPER_SETTINGS.weights,
        averaging: DEFAULT_PAPER_SETTINGS.averaging,
        bootstrap: DEFAULT_PAPER_SETTINGS.bootstrap,
      },
      status: { state: 'idle' },
      reports: [],
      detail: null,
      problems: [],
      selectedModel: null,
      compareModel: null,
      selectedRecord: null,
      filter: { agent: 'all', outcome: 'all', failure: 'all', text: '' },
      viewer: { open: false, hop: null, compare: null, compareDetail: null },
      compat: null,
    },
    history: { past: [], future: [] },
    workspace: { projectId: null, projects: [] },
    team: { state: 'off', waiting: 0, conflicts: [], refused: [] },
    importReport: null,
    storage: { status: 'loading' },
  };
}

/**
 * What must not follow the user into another project: banners, notices, a measurement, the item
 * list's filters and open item, a pending review decision, score reports and their filters. The
 * settings the user chose (judge, weights, endpoints, reviews per import) stay.
 */
export function leaveProject(s: StudioState): Pick<StudioState, 'ephemeral' | 'qa' | 'scoring' | 'importReport'> {
  const fresh = initialState();
  return {
    ephemeral: { ...fresh.ephemeral, helpOpen: s.ephemeral.helpOpen, projectsOpen: s.ephemeral.projectsOpen },
    qa: { ...fresh.qa, importReviews: s.qa.importReviews },
    scoring: { ...fresh.scoring, settings: s.scoring.settings },
    importReport: null,
  };
}

export function createStudioStore(state: StudioState = initialState()): StudioStore {
  return createStore<StudioState>()(() => state);
}
