import { readRelease } from '../formats/capnav/read.ts';
import { looksLikeBundle, readBundle } from '../formats/bundle.ts';
import type { SourceFile } from '../formats/json.ts';
import { keepPrevious, loadPrevious } from '../persistence/autosave.ts';
import type { TraversaDb } from '../persistence/db.ts';
import { replaceDocument } from '../state/history.ts';
import type { StudioStore } from '../state/store.ts';
import type { PickedFile } from '../ui/pickedFiles.ts';

/** The folder name the files share, used as the project's name. */
export function commonFolder(paths: readonly string[]): string | null {
  const firsts = new Set(paths.map((p) => (p.includes('/') ? p.split('/')[0]! : '')));
  return firsts.size === 1 && !firsts.has('') ? [...firsts][0]! : null;
}

/**
 * Import a CapNav release from picked or dropped files. Either the whole release is taken (the
 * replaced project is kept as "previous" and the new one saved before this resolves) or nothing
 * changes and the report says which file is wrong and where.
 */
export async function importRelease(store: StudioStore, db: TraversaDb, picked: readonly PickedFile[], flush: () => Promise<void>): Promise<boolean> {
  if (store.getState().storage.status === 'loading') {
    // The stored project is still loading and would overwrite the import: refuse, and say so.
    store.setState({ importReport: { source: 'import', accepted: false, replaced: false, at: Date.now(), problems: [
      { severity: 'fatal', code: 'import.busy', file: '', location: '', message: 'the stored project is still opening; import again in a moment' }] } });
    return false;
  }
  const json = picked.filter((p) => p.path.toLowerCase().endsWith('.json'));
  const source = commonFolder(picked.map((p) => p.path)) ?? `${picked.length} file${picked.length === 1 ? '' : 's'}`;
  const files: SourceFile[] = await Promise.all(json.map(async (p) => ({ path: p.path, text: await p.file.text() })));
  const bundle = files.length === 1 && looksLikeBundle(files[0]!);
  const { project, problems } = bundle ? readBundle(files[0]!) : readRelease(files, commonFolder(picked.map((p) => p.path)) ?? 'CapNav release');
  if (!project) {
    store.setState({ importReport: { source, accepted: false, replaced: false, problems, at: Date.now() } });
    return false;
  }
  const current = store.getState().document.project;
  if (current) await keepPrevious(db, current);
  replaceDocument(store, project);
  store.setState((s) => ({
    importReport: { source, accepted: true, replaced: current !== null, problems, at: Date.now() },
    session: { ...s.session, sceneId: project.scenes[0]?.id ?? null, questionIndex: null, view: 'overview' },
  }));
  await flush();
  return true;
}

/** Bring back the project the last import replaced; the one it replaces is kept in turn. */
export async function restorePrevious(store: StudioStore, db: TraversaDb, flush: () => Promise<void>): Promise<void> {
  const previous = await loadPrevious(db);
  if (!previous) return;
  const current = store.getState().document.project;
  if (current) await keepPrevious(db, current);
  replaceDocument(store, previous);
  store.setState((s) => ({ importReport: null, session: { ...s.session, sceneId: previous.scenes[0]?.id ?? null, questionIndex: null } }));
  await flush();
}
