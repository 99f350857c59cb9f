import { readRelease } from '../formats/capnav/read.ts';
import type { SourceFile } from '../formats/json.ts';
import { keepPrevious } from '../persistence/autosave.ts';
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
  const json = picked.filter((p) => p.path.toLowerCase().endsWith('.json'));
  const source = commonFolder(picked.map((p) => p.path)) ?? `${picked.length} file${picked.length === 1 ? '' : 's'}`;
  const files: SourceFile[] = await Promise.all(json.map(async (p) => ({ path: p.path, text: await p.file.text() })));
  const { project, problems } = readRelease(files, commonFolder(picked.map((p) => p.path)) ?? 'CapNav release');
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
