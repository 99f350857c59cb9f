import { migrateProject } from '../core/migrate.ts';
import type { Project } from '../core/project.ts';
import { withScopes } from '../core/records/assemble.ts';
import { diffProjects, diffProjectsSteps, type Change } from '../core/records/records.ts';
import { sliced } from './sliced.ts';
import { gestureActive, receiveScopes, replaceDocument } from '../state/history.ts';
import { keysOfScope, leaveProject, type ProjectSummary, type StudioStore } from '../state/store.ts';
import type { ProjectRow, TraversaDb } from './db.ts';
import {
  createStoredProject,
  deleteStoredProject,
  duplicateStoredProject,
  listStoredProjects,
  loadStoredProject,
  readScopes,
  renameStoredProject,
  summaryOf,
  writeChanges,
} from './recordStore.ts';
import { openTabChannel, type TabChannel, type TabMessage } from './tabChannel.ts';
import { patchState } from '../state/patch.ts';

/**
 * The projects of this browser and the one open in this tab. The open project is written as
 * record changes as soon as a command makes them (only what changed, so a label is durable in
 * the same time in a 30-scene and a 1,000-scene project); other tabs are told which scopes
 * changed and read them back, so two tabs on one project see each other's work and never
 * overwrite it. Nothing is written before a project has been opened, a failed write is shown
 * and retried with the next change, and stored records that cannot be read are set aside.
 */
export interface ProjectStorage {
  /** Write what is not yet stored; resolves when it is (or the write failed, shown in `storage`). */
  flush(): Promise<void>;
  stop(): void;
  /** Open a stored project in this tab. */
  open(projectId: string): Promise<boolean>;
  /** Store a project as a new entry of the list and open it. */
  create(project: Project, extra?: Partial<ProjectRow>): Promise<ProjectRow>;
  rename(projectId: string, name: string): Promise<void>;
  duplicate(projectId: string): Promise<ProjectRow>;
  remove(projectId: string): Promise<void>;
  list(): Promise<ProjectRow[]>;
  /** This tab's changes not yet stored. */
  unsaved(): Change[];
  /** The project open in this tab. */
  openId(): string | null;
  /** Records of the open project were stored by someone else (the team sync): take them in here and tell the other tabs. */
  absorb(scopes: readonly string[]): Promise<void>;
  /** Called after each write of this tab's changes (the team sync sends them on). */
  onWritten(fn: (projectId: string) => void): () => void;
  /** The list changed (a project connected to a team, created elsewhere): read it again. */
  refreshList(): Promise<void>;
}

export interface StorageOptions {
  delayMs?: number;
  channel?: TabChannel;
  /** Where the tab remembers which project it had open (sessionStorage, then localStorage, in the app). */
  memory?: { get(): string | null; set(id: string): void };
}

const summary = (r: ProjectRow): ProjectSummary => ({
  id: r.id,
  name: r.name,
  updatedAt: r.updatedAt,
  bytes: r.bytes,
  scenes: r.scenes,
  ...(r.origin ? { origin: r.origin } : {}),
  ...(r.sync ? { sync: r.sync } : {}),
});

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.name === 'QuotaExceededError' ? 'the browser has no storage space left for this site' : e.message;
  return String(e);
}

export async function startProjectStorage(store: StudioStore, db: TraversaDb, options: StorageOptions = {}): Promise<ProjectStorage> {
  const delayMs = options.delayMs ?? 0;
  const channel = options.channel ?? openTabChannel();
  const setStorage = (storage: ReturnType<StudioStore['getState']>['storage']) => store.setState({ storage });
  const setWorkspace = (patch: Partial<ReturnType<StudioStore['getState']>['workspace']>) => patchState(store, 'workspace', patch);

  /** The open project as stored: what the document is compared with to find what to write. */
  let saved: Project | null = null;
  let projectId: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (job: () => Promise<void>): Promise<void> => (chain = chain.then(job, job));

  const refreshList = async () => {
    setWorkspace({ projects: (await listStoredProjects(db)).map(summary) });
  };
  const updateListRow = (row: ProjectRow) =>
    store.setState((s) => ({ workspace: { ...s.workspace, projects: s.workspace.projects.map((p) => (p.id === row.id ? summary(row) : p)) } }));

  const writeNow = async (): Promise<void> => {
    const project = store.getState().document.project;
    if (!projectId || !project || project === saved) {
      if (store.getState().storage.status === 'saving' && project === saved) setStorage({ status: 'saved', savedAt: Date.now() });
      return;
    }
    // In slices: 20,000 imported items are 20,000 records to compare and write.
    const changes = await sliced(diffProjectsSteps(saved, project));
    try {
      const { scopes, row } = changes.length ? await writeChanges(db, projectId, changes, summaryOf(project)) : { scopes: [], row: null };
      saved = project;
      if (scopes.length) channel.post({ type: 'changed', projectId: projectId, scopes, from: channel.tabId });
      if (scopes.length) for (const fn of written) fn(projectId);
      if (row) updateListRow(row);
      if (store.getState().document.project === project) setStorage({ status: 'saved', savedAt: Date.now() });
    } catch (e) {
      // `saved` stays as it was: the next change (or flush) writes these changes again.
      setStorage({ status: 'error', message: `Saving failed: ${errorText(e)}. Your changes are still open here; export them before closing.` });
    }
  };
  const flush = (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    return enqueue(writeNow);
  };

  /** A project made in this tab without being stored (a first scene with no project open) becomes a stored project. */
  const adopt = () =>
    void enqueue(async () => {
      const project = store.getState().document.project;
      if (projectId || !project) return;
      try {
        const row = await createStoredProject(db, project);
        projectId = row.id;
        saved = project;
        options.memory?.set(row.id);
        setWorkspace({ projectId: row.id });
        channel.post({ type: 'list', from: channel.tabId });
        await refreshList();
        setStorage({ status: 'saved', savedAt: Date.now() });
      } catch (e) {
        setStorage({ status: 'error', message: `Saving failed: ${errorText(e)}. Your changes are still open here; export them before closing.` });
      }
    });

  const documentKeys = keysOfScope('document');
  let started = false;
  const unsubscribe = store.subscribe((s, prev) => {
    if (documentKeys.every((k) => s[k] === prev[k]) || !started) return;
    if (!projectId) {
      if (s.document.project && !prev.document.project) adopt();
      return;
    }
    if (s.document.project === saved) return;
    if (s.storage.status !== 'saving' && s.storage.status !== 'error') setStorage({ status: 'saving' });
    if (timer) clearTimeout(timer);
    // Discrete edits are written at once; a drag writes when the pointer rests.
    timer = setTimeout(() => void flush(), gestureActive(store) ? Math.max(delayMs, 400) : delayMs);
  });

  /** Another tab stored changes to the open project: read the scopes it names and take them in. */
  const written = new Set<(projectId: string) => void>();
  const receive = (message: TabMessage) => {
    if (message.type === 'list') {
      void refreshList();
      return;
    }
    if (message.projectId !== projectId) {
      void refreshList();
      return;
    }
    if (message.type === 'deleted') {
      void refreshList();
      setStorage({
        status: 'error',
        message: 'This project was deleted in another tab. What is open here is no longer saved: export it, or open another project.',
      });
      return;
    }
    const id = projectId;
    void enqueue(async () => {
      if (projectId !== id || !saved) return;
      const results = await readScopes(db, id, message.scopes);
      if (projectId !== id || !saved) return;
      const scopes = results.map((r) => r.scope);
      const unsaved = diffProjects(saved, store.getState().document.project);
      saved = withScopes(saved, scopes);
      receiveScopes(store, scopes, unsaved);
    });
  };
  const stopListening = channel.listen(receive);

  const open = async (id: string): Promise<boolean> => {
    await flush();
    let ok = false;
    await enqueue(async () => {
      setStorage({ status: 'loading', message: 'Opening the project…' });
      try {
        const loaded = await loadStoredProject(db, id);
        if (!loaded.project) {
          setStorage({
            status: 'error',
            message: `Could not open the project: ${loaded.message ?? 'it has no readable records'}. Its records are kept unchanged.`,
          });
          return;
        }
        const project = loaded.project;
        const another = projectId !== id;
        projectId = id;
        saved = project;
        replaceDocument(store, project);
        options.memory?.set(id);
        store.setState((s) => ({
          // Another project: nothing of the last one's banners, measurements, filters or scores stays on screen.
          ...(another ? leaveProject(s) : {}),
          workspace: { ...s.workspace, projectId: id },
          session: {
            ...s.session,
            sceneId: project.scenes.some((sc) => sc.id === s.session.sceneId) ? s.session.sceneId : (project.scenes[0]?.id ?? null),
            questionIndex: null,
            selection: null,
          },
        }));
        const aside = loaded.bad.length
          ? ` ${loaded.bad.length} stored record${loaded.bad.length === 1 ? '' : 's'} could not be read and ${loaded.bad.length === 1 ? 'was' : 'were'} set aside (first: ${loaded.bad[0]!.key}: ${loaded.bad[0]!.reason}).`
          : '';
        setStorage({ status: 'saved', savedAt: Date.now(), ...(aside ? { message: aside.trim() } : {}) });
        ok = true;
      } catch (e) {
        setStorage({ status: 'error', message: `Could not open the project: ${errorText(e)}` });
      }
    });
    return ok;
  };

  const create = async (project: Project, extra: Partial<ProjectRow> = {}): Promise<ProjectRow> => {
    await flush();
    let row: ProjectRow | null = null;
    await enqueue(async () => {
      const before = { project: store.getState().document.project, projectId, saved };
      try {
        row = await createStoredProject(db, project, extra, (queued) => {
          // The project is shown while the browser commits its records (for 1,000 scenes drawing it
          // takes about as long as the commit); "Saved" waits for the transaction to complete.
          projectId = queued.id;
          saved = project;
          setStorage({ status: 'saving' });
          replaceDocument(store, project);
          options.memory?.set(queued.id);
          setWorkspace({ projectId: queued.id });
        });
      } catch (e) {
        if (projectId !== before.projectId) {
          // Not stored: back to what was open before.
          projectId = before.projectId;
          saved = before.saved;
          replaceDocument(store, before.project);
          if (before.projectId) options.memory?.set(before.projectId);
          setWorkspace({ projectId: before.projectId });
        }
        setStorage({ status: 'error', message: `Storing the new project failed: ${errorText(e)}. Nothing was stored.` });
        throw e;
      }
      // An edit made while the records were committed is written next (its write is queued behind this).
      if (store.getState().document.project === project) setStorage({ status: 'saved', savedAt: Date.now() });
    });
    channel.post({ type: 'list', from: channel.tabId });
    await refreshList();
    return row!;
  };

  const storage: ProjectStorage = {
    flush,
    open,
    create,
    stop: () => {
      unsubscribe();
      stopListening();
      if (timer) clearTimeout(timer);
    },
    rename: async (id, name) => {
      if (id === projectId && store.getState().document.project) {
        // The open project is renamed by an edit of its document, so undo and other tabs see it.
        throw new Error('rename the open project through its document (project.rename)');
      }
      await renameStoredProject(db, id, name);
      channel.post({ type: 'list', from: channel.tabId });
      await refreshList();
    },
    duplicate: async (id) => {
      await flush();
      const from = (await db.projects.get(id))?.name ?? 'Project';
      const row = await duplicateStoredProject(db, id, `${from} (copy)`);
      channel.post({ type: 'list', from: channel.tabId });
      await refreshList();
      return row;
    },
    remove: async (id) => {
      await deleteStoredProject(db, id);
      channel.post({ type: 'deleted', projectId: id, from: channel.tabId });
      if (id === projectId) {
        projectId = null;
        saved = null;
        replaceDocument(store, null);
        setWorkspace({ projectId: null });
        setStorage({ status: 'idle' });
      }
      await refreshList();
    },
    list: () => listStoredProjects(db),
    unsaved: () => diffProjects(saved, store.getState().document.project),
    openId: () => projectId,
    absorb: async (scopes) => {
      if (!projectId || !scopes.length) return;
      const message = { type: 'changed' as const, projectId, scopes: [...scopes], from: channel.tabId };
      channel.post(message);
      receive(message);
      await chain;
    },
    onWritten: (fn) => {
      written.add(fn);
      return () => written.delete(fn);
    },
    refreshList,
  };

  try {
    await moveLegacyDocuments(db);
    await refreshList();
  } catch (e) {
    setStorage({ status: 'error', message: `Storage is not available: ${errorText(e)}` });
    return storage;
  }
  started = true;
  const rows = store.getState().workspace.projects;
  const remembered = options.memory?.get();
  const first = rows.find((r) => r.id === remembered) ?? rows[0];
  if (first) await open(first.id);
  else setStorage({ status: 'idle' });
  return storage;
}

/**
 * Projects saved before records (one document per slot) become projects of the list on the
 * first start: the current one, and the one the last import replaced. The old rows stay.
 */
async function moveLegacyDocuments(db: TraversaDb): Promise<void> {
  if ((await db.projects.count()) > 0) return;
  const [current, previous] = await Promise.all([db.documents.get('current'), db.documents.get('previous')]);
  const now = Date.now();
  for (const [row, suffix, updatedAt] of [
    [previous, ' (before the last import)', now - 1],
    [current, '', now],
  ] as const) {
    if (!row) continue;
    const m = migrateProject(row.project);
    if (m.ok) await createStoredProject(db, { ...m.project, name: m.project.name + suffix }, { updatedAt });
    else await db.documents.put({ ...row, slot: 'damaged' });
  }
}
