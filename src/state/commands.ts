import { agentOrder } from '../core/agents.ts';
import { emptyProject, type Scene } from '../core/project.ts';
import { addScene, freeSceneId, removeScene } from '../core/projectEdit.ts';
import { applyEdit, defineEdit, withScene } from './edits.ts';
import { applyChanges } from '../core/records/assemble.ts';
import type { Rec } from '../core/records/records.ts';
import { redo, replaceDocument, transaction, undo } from './history.ts';
import type { StudioState, StudioStore, View } from './store.ts';
import type { CommandId } from './commandIds.ts';
import { setSession } from './patch.ts';

/**
 * A named command: buttons, keyboard shortcuts, the command list and tests all run the same
 * object. `shortcut` uses `Mod` for Ctrl/⌘; `undoable` commands are one undo step each.
 */
export interface Command {
  id: CommandId;
  label: string;
  shortcut?: string;
  undoable: boolean;
  /**
   * The views the command works in (absent: every view). It is never enabled elsewhere, so the same
   * key can mean one thing per view, and the shortcuts list is grouped by it.
   */
  views?: readonly View[];
  enabled?: (state: StudioState) => boolean;
  /** The shortcut also works while typing in a field; the field is left first, so what was typed is committed. */
  inFields?: boolean;
  /** The shortcut works while the shortcuts list is open (only these do: the list is in front of the app). */
  inHelp?: boolean;
  /** The shortcut works while the project list is open (only these do: the list is in front of the app). */
  inProjects?: boolean;
  run: (store: StudioStore) => void;
}

/** Whether a command can run now: in one of its views, and its own condition holds. */
export function isEnabled(command: Command, state: StudioState): boolean {
  return (!command.views || command.views.includes(state.session.view)) && (!command.enabled || command.enabled(state));
}

export const PROJECT_EDITS = {
  toggleHallucinated: defineEdit('question.toggleHallucinated', 'Toggle hallucinated', (p, a: { sceneId: string; text: string }) =>
    withScene(p, a.sceneId, (scene) => ({
      ...scene,
      hallucinated: scene.hallucinated.includes(a.text) ? scene.hallucinated.filter((t) => t !== a.text) : [...scene.hallucinated, a.text],
    })),
  ),
  addScene: defineEdit('scene.add', 'New scene', (p, a: { id: string }) => addScene(p, a.id).project),
  removeScene: defineEdit('scene.remove', 'Remove scene', (p, a: { id: string }) => removeScene(p, a.id)),
  rename: defineEdit('project.rename', 'Rename project', (p, a: { name: string }) =>
    a.name.trim() && a.name.trim() !== p.name ? { ...p, name: a.name.trim() } : p,
  ),
  /** Record changes worked out beforehand (a merge of an import), applied as one step. */
  merge: defineEdit('project.merge', 'Merge import', (p, a: { changes: { key: string; after: Rec | undefined }[] }) =>
    a.changes.length ? applyChanges(p, a.changes).project : p,
  ),
} as const;

export const selectedScene = (s: StudioState): Scene | undefined => s.document.project?.scenes.find((sc) => sc.id === s.session.sceneId);

const hasProject = (s: StudioState) => s.document.project !== null && s.document.project.scenes.length > 0;

function stepScene(store: StudioStore, delta: number) {
  const s = store.getState();
  const scenes = s.document.project?.scenes ?? [];
  if (!scenes.length) return;
  const at = scenes.findIndex((sc) => sc.id === s.session.sceneId);
  const next = scenes[Math.min(scenes.length - 1, Math.max(0, at < 0 ? 0 : at + delta))]!;
  // In the label view the queue goes to the next scene's first segment (features/labelling/app/labelling.ts follows);
  // elsewhere the scene view shows the scene.
  if (s.session.view === 'label') setSession(store, { sceneId: next.id, queueCursor: 0 });
  else setSession(store, { sceneId: next.id, view: 'scene', questionIndex: null });
}

function stepQuestion(store: StudioStore, delta: number) {
  const s = store.getState();
  const scene = selectedScene(s);
  if (!scene?.questions.length) return;
  const at = s.session.questionIndex;
  const next = at === null ? (delta > 0 ? 0 : scene.questions.length - 1) : Math.min(scene.questions.length - 1, Math.max(0, at + delta));
  setSession(store, { questionIndex: next });
}

/** Mark the selected question hallucinated (excluded from the benchmark), or clear the mark. */
export function toggleHallucinated(store: StudioStore, sceneId: string, questionIndex: number): void {
  const q = store.getState().document.project?.scenes.find((s) => s.id === sceneId)?.questions[questionIndex];
  if (q) applyEdit(store, PROJECT_EDITS.toggleHallucinated, { sceneId, text: q.text });
}

/** Add an empty scene (and a project to hold it when there is none) and open it. */
export function createScene(store: StudioStore): void {
  // With no project yet, one is started (as loading one is: not an undo step).
  if (!store.getState().document.project) replaceDocument(store, emptyProject('New project'));
  const id = freeSceneId(store.getState().document.project!);
  applyEdit(store, PROJECT_EDITS.addScene, { id });
  setSession(store, { sceneId: id, view: 'scene', questionIndex: null, selection: null });
}

/** Remove a scene (one undo step); the selection moves to its neighbour. False when it was held back (an annotator of a team). */
export function deleteScene(store: StudioStore, id: string): boolean {
  const scenes = store.getState().document.project?.scenes ?? [];
  const at = scenes.findIndex((s) => s.id === id);
  if (at < 0 || !applyEdit(store, PROJECT_EDITS.removeScene, { id })) return false;
  if (store.getState().session.sceneId === id) {
    const next = scenes[at + 1] ?? scenes[at - 1];
    setSession(store, { sceneId: next?.id ?? null, questionIndex: null, selection: null, ...(next ? {} : { view: 'overview' as const }) });
  }
  return true;
}

export const navigationCommands: Command[] = [
  { id: 'scene.new', label: 'New empty scene (then load its scan)', undoable: true, run: createScene },
  { id: 'edit.undo', label: 'Undo', shortcut: 'Mod+Z', undoable: false, enabled: (s) => s.history.past.length > 0, run: (st) => void undo(st) },
  { id: 'edit.redo', label: 'Redo', shortcut: 'Mod+Shift+Z', undoable: false, enabled: (s) => s.history.future.length > 0, run: (st) => void redo(st) },
  { id: 'edit.redoY', label: 'Redo', shortcut: 'Mod+Y', undoable: false, enabled: (s) => s.history.future.length > 0, run: (st) => void redo(st) },
  {
    id: 'help.toggle',
    label: 'Show or hide the keyboard shortcuts',
    shortcut: '?',
    undoable: false,
    inHelp: true,
    run: (st) => st.setState((s) => ({ ephemeral: { ...s.ephemeral, helpOpen: !s.ephemeral.helpOpen } })),
  },
  {
    id: 'help.close',
    label: 'Close the keyboard shortcuts',
    shortcut: 'Escape',
    undoable: false,
    inHelp: true,
    enabled: (s) => s.ephemeral.helpOpen,
    run: (st) => st.setState((s) => ({ ephemeral: { ...s.ephemeral, helpOpen: false } })),
  },
  {
    id: 'projects.toggle',
    label: 'Show or hide the project list',
    shortcut: 'Shift+P',
    undoable: false,
    inProjects: true,
    run: (st) => st.setState((s) => ({ ephemeral: { ...s.ephemeral, projectsOpen: !s.ephemeral.projectsOpen } })),
  },
  {
    id: 'projects.close',
    label: 'Close the project list',
    shortcut: 'Escape',
    undoable: false,
    inProjects: true,
    enabled: (s) => s.ephemeral.projectsOpen,
    run: (st) => st.setState((s) => ({ ephemeral: { ...s.ephemeral, projectsOpen: false } })),
  },
  { id: 'view.overview', label: 'Show statistics', shortcut: '1', undoable: false, run: (st) => setSession(st, { view: 'overview' }) },
  {
    id: 'view.scene',
    label: 'Show scene',
    shortcut: '2',
    undoable: false,
    enabled: hasProject,
    run: (st) => {
      if (!st.getState().session.sceneId) stepScene(st, 0);
      setSession(st, { view: 'scene' });
    },
  },
  { id: 'view.problems', label: 'Show problems', shortcut: '6', undoable: false, run: (st) => setSession(st, { view: 'problems' }) },
  { id: 'scene.next', label: 'Next scene', shortcut: 'J', undoable: false, enabled: hasProject, run: (st) => stepScene(st, 1) },
  { id: 'scene.previous', label: 'Previous scene', shortcut: 'K', undoable: false, enabled: hasProject, run: (st) => stepScene(st, -1) },
  // The label view has its own ] [ and A: they move its queue (queueCommands.ts).
  {
    id: 'question.next',
    label: 'Next question of the list',
    shortcut: ']',
    undoable: false,
    views: ['scene'],
    enabled: (s) => !!selectedScene(s),
    run: (st) => stepQuestion(st, 1),
  },
  {
    id: 'question.previous',
    label: 'Previous question of the list',
    shortcut: '[',
    undoable: false,
    views: ['scene'],
    enabled: (s) => !!selectedScene(s),
    run: (st) => stepQuestion(st, -1),
  },
  {
    id: 'agent.next',
    label: 'Colour edges by the next agent',
    shortcut: 'A',
    undoable: false,
    views: ['scene'],
    run: (st) => {
      const s = st.getState();
      const agents = agentOrder(s.document.project?.profiles ?? []);
      setSession(st, { agent: agents[(agents.indexOf(s.session.agent) + 1) % agents.length]! });
    },
  },
  {
    id: 'question.toggleHallucinated',
    label: 'Mark question hallucinated / not',
    shortcut: 'H',
    undoable: true,
    views: ['scene'],
    enabled: (s) => !!selectedScene(s) && s.session.questionIndex !== null,
    run: (st) => {
      const s = st.getState();
      if (s.session.sceneId && s.session.questionIndex !== null) toggleHallucinated(st, s.session.sceneId, s.session.questionIndex);
    },
  },
];

export function findCommand(commands: readonly Command[], id: CommandId): Command {
  const c = commands.find((x) => x.id === id);
  if (!c) throw new Error(`no command ${id}`);
  return c;
}

/** Run a command if it is enabled; returns whether it ran. An undoable command is one undo step, however it is made. */
export function runCommand(store: StudioStore, command: Command): boolean {
  if (!isEnabled(command, store.getState())) return false;
  if (command.undoable) transaction(store, command.label, () => command.run(store));
  else command.run(store);
  return true;
}
