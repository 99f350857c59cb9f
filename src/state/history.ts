import type { Project } from '../core/project.ts';
import { applyChanges, withScopes, type AssembledScope } from '../core/records/assemble.ts';
import { parseKey, scopeOf } from '../core/records/keys.ts';
import { diffProjects, sameRec, scopeRecords, type Change, type Rec } from '../core/records/records.ts';
import { leaveHistoryStep } from './itemState.ts';
import type { HistoryStep, StudioStore } from './store.ts';

const LIMIT = 200;

/**
 * Undo history as record changes (core/records): a step remembers which records it changed,
 * from what to what. Undo puts back only those records, so work another tab or a teammate did
 * meanwhile stays; a record changed again since by someone else is left as they made it (and
 * the user told), never silently taken back.
 */

/**
 * Apply one undoable change to the document: its record changes go on the undo stack and the
 * redo stack is cleared. One call is one undo step (one gesture).
 */
export function commitDocument(store: StudioStore, label: string, update: (p: Project) => Project): void {
  const { document, history } = store.getState();
  if (!document.project) return;
  const next = update(document.project);
  if (next === document.project) return;
  const changes = diffProjects(document.project, next);
  store.setState({
    document: { ...document, project: next },
    ...(changes.length ? { history: { past: [...history.past, { label, changes }].slice(-LIMIT), future: [] } } : {}),
  });
}

/** Several steps' changes as one: each record from its first state to its last. */
function compose(steps: readonly HistoryStep[]): Change[] {
  const byKey = new Map<string, Change>();
  for (const step of steps) {
    for (const c of step.changes) {
      const earlier = byKey.get(c.key);
      byKey.set(c.key, earlier ? { key: c.key, before: earlier.before, after: c.after } : c);
    }
  }
  return [...byKey.values()].filter((c) => !sameRec(c.before, c.after));
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
  store.setState({ history: { past: [...history.past.slice(0, before), { label, changes: compose(history.past.slice(before)) }], future: history.future } });
}

/** Replace the document outside history (opening a project, an import): the undo stacks start afresh. */
export function replaceDocument(store: StudioStore, project: Project | null): void {
  store.setState((s) => ({ document: { ...s.document, project }, history: { past: [], future: [] } }));
}

/** The project's current records at some keys. */
function currentAt(project: Project, keys: readonly string[]): Map<string, Rec> {
  const out = new Map<string, Rec>();
  const scopes = new Set<string>();
  for (const k of keys) {
    const p = parseKey(k);
    if (p) scopes.add(scopeOf(p));
  }
  for (const scope of scopes) for (const r of scopeRecords(project, scope)) out.set(r.key, r);
  return out;
}

/**
 * Move the document along a step's changes, backwards (undo) or forwards (redo). A record
 * someone changed since the step is not touched; how many were left is returned.
 */
function travel(project: Project, changes: readonly Change[], backwards: boolean): { project: Project; applied: Change[]; kept: number } {
  const now = currentAt(
    project,
    changes.map((c) => c.key),
  );
  const applied: Change[] = [];
  let kept = 0;
  for (const c of changes) {
    if (!sameRec(now.get(c.key), backwards ? c.after : c.before)) {
      kept++;
      continue;
    }
    applied.push(c);
  }
  const next = applyChanges(
    project,
    applied.map((c) => ({ key: c.key, after: backwards ? c.before : c.after })),
  ).project;
  return { project: next, applied, kept };
}

const keptNotice = (kept: number, what: string) =>
  `${kept} change${kept === 1 ? ' was' : 's were'} not ${what}: changed since in another tab or by a teammate, and left as they are.`;

/**
 * Move one step through history: undo takes the last past step, redo the first future one. The
 * current queue item's drive and notice go with it (see itemState.ts); records changed since
 * elsewhere are left as they are, and the step keeps only what it did apply.
 */
function travelStep(store: StudioStore, back: boolean): boolean {
  const { document, history } = store.getState();
  const step = back ? history.past[history.past.length - 1] : history.future[0];
  if (!step || !document.project) return false;
  const { project, applied, kept } = travel(document.project, step.changes, back);
  const moved = applied.length ? [{ label: step.label, changes: applied }] : [];
  store.setState((s) => {
    const left = leaveHistoryStep(s);
    return {
      ...left,
      // The notice names what was undone (an auto-approval is a step of its own, and says so).
      ephemeral: {
        ...left.ephemeral,
        notice: `${back ? 'Undone' : 'Redone'}: ${step.label}.${kept ? ` ${keptNotice(kept, back ? 'undone' : 'redone')}` : ''}`,
      },
      document: { ...s.document, project },
      history: back
        ? { past: history.past.slice(0, -1), future: [...moved, ...history.future] }
        : { past: [...history.past, ...moved], future: history.future.slice(1) },
    };
  });
  return true;
}

/** Undo the last step. */
export const undo = (store: StudioStore): boolean => travelStep(store, true);

/** Redo the step undone last. */
export const redo = (store: StudioStore): boolean => travelStep(store, false);

/**
 * Changes stored elsewhere (another tab, a teammate) arrived: the document takes the assembled
 * scopes, with this tab's changes not yet stored laid over them. A drag in progress keeps its
 * mark in step, so releasing it commits only the drag.
 */
export function receiveScopes(store: StudioStore, scopes: readonly AssembledScope[], unsaved: readonly Change[]): void {
  const project = store.getState().document.project;
  if (!project) return;
  const touched = new Set(scopes.map((s) => (s.kind === 'top' ? 'top' : `${s.kind}:${s.id}`)));
  const mine = unsaved.filter((c) => {
    const p = parseKey(c.key);
    return p !== null && touched.has(scopeOf(p));
  });
  const next = applyChanges(
    withScopes(project, scopes),
    mine.map((c) => ({ key: c.key, after: c.after })),
  ).project;
  const mark = marks.get(store);
  if (mark?.project) marks.set(store, { project: withScopes(mark.project, scopes) });
  store.setState((s) => ({ document: { ...s.document, project: next } }));
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
  store.setState((s) => ({ document: { ...s.document, project: update(project) } }));
}

export function commitGesture(store: StudioStore, label: string): void {
  const mark = marks.get(store);
  marks.delete(store);
  if (!mark) return;
  const { document, history } = store.getState();
  if (document.project === mark.project) return;
  const changes = diffProjects(mark.project, document.project);
  if (changes.length) store.setState({ history: { past: [...history.past, { label, changes }].slice(-LIMIT), future: [] } });
}

export function cancelGesture(store: StudioStore): void {
  const mark = marks.get(store);
  marks.delete(store);
  // The mark has taken in what arrived from elsewhere during the drag (receiveScopes), so going back to it undoes the drag only.
  if (mark) store.setState((s) => ({ document: { ...s.document, project: mark.project } }));
}

export const gestureActive = (store: StudioStore): boolean => marks.has(store);
