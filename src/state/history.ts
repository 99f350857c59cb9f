import type { Project } from '../core/project.ts';
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

/** Replace the document outside history (loading and importing never enter it). */
export function replaceDocument(store: StudioStore, project: Project | null): void {
  store.setState({ document: { project }, history: { past: [], future: [] } });
}

export function undo(store: StudioStore): boolean {
  const { document, history } = store.getState();
  const last = history.past[history.past.length - 1];
  if (!last) return false;
  store.setState({
    document: { project: last.project },
    history: { past: history.past.slice(0, -1), future: [{ label: last.label, project: document.project }, ...history.future] },
  });
  return true;
}

export function redo(store: StudioStore): boolean {
  const { document, history } = store.getState();
  const next = history.future[0];
  if (!next) return false;
  store.setState({
    document: { project: next.project },
    history: { past: [...history.past, { label: next.label, project: document.project }], future: history.future.slice(1) },
  });
  return true;
}
