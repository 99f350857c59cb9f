import { replaceDocument } from '../state/history.ts';
import type { Project } from '../core/project.ts';
import { gestureActive } from '../state/history.ts';
import { keysOfScope, type StudioStore } from '../state/store.ts';
import type { TraversaDb } from './db.ts';
import { migrateProject } from '../core/migrate.ts';

/**
 * Load the stored project, then keep it saved: every document change is written as soon as it
 * happens, at once on `pagehide`/hidden, and a failed write is shown to the user. Nothing is
 * written before the first load has finished, so a slow start can never overwrite stored work.
 */
export async function startPersistence(store: StudioStore, db: TraversaDb, delayMs = 0): Promise<{ flush: () => Promise<void>; stop: () => void }> {
  const setStorage = (storage: ReturnType<StudioStore['getState']>['storage']) => store.setState({ storage });
  try {
    const row = await db.documents.get('current');
    if (row) {
      const m = migrateProject(row.project);
      if (m.ok) {
        replaceDocument(store, m.project);
        store.setState((s) => ({ session: { ...s.session, sceneId: s.session.sceneId ?? m.project.scenes[0]?.id ?? null } }));
        setStorage({ status: 'saved', savedAt: row.savedAt });
      } else {
        // Set the unreadable copy aside (never deleted) so new work can be saved without losing it.
        await db.documents.put({ ...row, slot: 'damaged' });
        await db.documents.delete('current');
        setStorage({ status: 'error', message: `Could not open the stored project (${m.message}). It was set aside unchanged; new work is saved normally.` });
      }
    } else setStorage({ status: 'idle' });
  } catch (e) {
    setStorage({ status: 'error', message: `Storage is not available: ${errorText(e)}` });
    return { flush: async () => {}, stop: () => {} };
  }

  let saved: Project | null = store.getState().document.project;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();

  const write = (): Promise<void> => {
    if (timer) { clearTimeout(timer); timer = null; }
    const project = store.getState().document.project;
    if (project === saved) {
      // Back to what is stored (an undo to the saved state): nothing to write, and nothing unsaved.
      writing = writing.then(() => { if (store.getState().storage.status === 'saving' && store.getState().document.project === saved) setStorage({ status: 'saved', savedAt: Date.now() }); });
      return writing;
    }
    saved = project;
    setStorage({ status: 'saving' });
    writing = writing.then(async () => {
      try {
        if (project) await db.documents.put({ slot: 'current', savedAt: Date.now(), project });
        else await db.documents.delete('current');
        if (store.getState().document.project === project) setStorage({ status: 'saved', savedAt: Date.now() });
      } catch (e) {
        saved = null; // force the next change to retry
        setStorage({ status: 'error', message: `Saving failed: ${errorText(e)}. Your changes are still open here; export them before closing.` });
      }
    });
    return writing;
  };

  // What is saved is the document scope (STATE_SCOPE): nothing else wakes the writer.
  const documentKeys = keysOfScope('document');
  const unsubscribe = store.subscribe((s, prev) => {
    if (documentKeys.every((k) => s[k] === prev[k])) return;
    // Say "saving" at once: a change waiting for the debounce is not yet safe.
    if (s.storage.status !== 'saving' && s.storage.status !== 'error') setStorage({ status: 'saving' });
    if (timer) clearTimeout(timer);
    // Discrete edits are written at once (changes within one tick coalesce); while a drag is
    // previewing, writes wait for the pointer to rest so a drag does not write on every move.
    timer = setTimeout(() => void write(), gestureActive(store) ? Math.max(delayMs, 400) : delayMs);
  });
  return { flush: write, stop: () => { unsubscribe(); if (timer) clearTimeout(timer); } };
}

/** Keep the project that an import is about to replace, so it can be restored. */
export async function keepPrevious(db: TraversaDb, project: Project): Promise<void> {
  await db.documents.put({ slot: 'previous', savedAt: Date.now(), project });
}

export async function loadPrevious(db: TraversaDb): Promise<Project | null> {
  const row = await db.documents.get('previous');
  if (!row) return null;
  const m = migrateProject(row.project);
  return m.ok ? m.project : null;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.name === 'QuotaExceededError' ? 'the browser has no storage space left for this site' : e.message;
  return String(e);
}
