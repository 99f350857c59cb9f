import type { Project } from '../core/project.ts';
import { leaveHistoryStep } from './itemState.ts';
import type { StudioStore } from './store.ts';

const LIMIT = 200;

/**
 * Apply one undoable change to the document: the project before it goes on the undo stack and
 * the redo stack is cleared. One call is one undo step (one gesture).
 */
export function commitDocument(store: StudioStore, label: string, update: (p: Project) => Project): void {
  const { document, history } = store.getState();
  if (!document.project) return;
  const next = update(document.project);
  if (next === document.project) return;
  store.setState({
    document: { project: next },
    history: { past: [...history.past, { label, project: document.project }].slice(-LIMIT), future: [] },
  });
}

/**
 * Run `fn` as one undo step: if it made several history steps (a command composed of edits), they
 * become one, under `label`; one step keeps its own label, none stays none.
 */
export function transaction(store: StudioStore, label: string, fn: () => void): void {
  const before = store.getState().history.past.length;
  fn();
  const { history } = store.getState();
  if (history.past.length <= before + 1) return;
  store.setState({ history: { past: [...history.past.slice(0, before), { label, project: history.past[before]!.project }], future: history.future } });
}

/** Replace the document outside history (loading and importing never enter it). */
export function replaceDocument(store: StudioStore, project: Project | null): void {
  store.setState({ document: { project }, history: { past: [], future: [] } });
}

/** Undo the last step. The current queue item's drive and notice go with it (see itemState.ts). */
export function undo(store: StudioStore): boolean {
  const { document, history } = store.getState();
  const last = history.past[history.past.length - 1];
  if (!last) return false;
  store.setState((s) => ({
    ...leaveHistoryStep(s),
    document: { project: last.project },
    history: { past: history.past.slice(0, -1), future: [{ label: last.label, project: document.project }, ...history.future] },
  }));
  return true;
}

/** Redo the step undone last; like undo, it leaves the current item's drive and notice behind. */
export function redo(store: StudioStore): boolean {
  const { document, history } = store.getState();
  const next = history.future[0];
  if (!next) return false;
  store.setState((s) => ({
    ...leaveHistoryStep(s),
    document: { project: next.project },
    history: { past: [...history.past, { label: next.label, project: document.project }], future: history.future.slice(1) },
  }));
  return true;
}

/**
 * A gesture (a drag): the document before it is marked at pointer-down, previews change the
 * document freely without history, and the release commits ONE undo step back to the mark.
 * Escape cancels back to the mark.
 */
const marks = new WeakMap<StudioStore, { project: Project | null }>();

export function beginGesture(store: StudioStore): void {
  marks.set(store, { project: store.getState().document.project });
}

export function previewDocument(store: StudioStore, update: (p: Project) => Project): void {
  const project = store.getState().document.project;
  if (!project || !marks.has(store)) return;
  store.setState({ document: { project: update(project) } });
}

export function commitGesture(store: StudioStore, label: string): void {
  const mark = marks.get(store);
  marks.delete(store);
  if (!mark) return;
  const { document, history } = store.getState();
  if (document.project === mark.project) return;
  store.setState({ history: { past: [...history.past, { label, project: mark.project }].slice(-LIMIT), future: [] } });
}

export function cancelGesture(store: StudioStore): void {
  const mark = marks.get(store);
  marks.delete(store);
  if (mark) store.setState({ document: { project: mark.project } });
}

export const gestureActive = (store: StudioStore): boolean => marks.has(store);
