import { assembleProjectSteps } from '../core/records/assemble.ts';
import { sliced } from './sliced.ts';
import type { StudioStore, TeamState } from '../state/store.ts';
import type { TraversaDb } from './db.ts';
import type { ProjectStorage } from './projectStorage.ts';
import { allRecordKeys, newProjectId } from './recordStore.ts';
import { openTabChannel, type TabChannel } from './tabChannel.ts';
import { seedConflicts, writeCheckpoint } from './teamMirror.ts';
import { readSnapshot, storeRevs } from './teamSnapshot.ts';
import { cookieSignIn, cookieSignOut, Session, sessionOf, type LocalDb, type SessionHost } from './teamSession.ts';
import { describePouchError, loadPouch, remoteOptions, type PouchRemote, type PouchStatic } from './pouch.ts';
import { patchState } from '../state/patch.ts';

/**
 * A project connected to a team database (CouchDB, or `npm run team-server`). The project's
 * records stay in Dexie, the app's store; PouchDB keeps a mirror of them in this browser and
 * replicates it with the server both ways, live, with CouchDB's own protocol (retrying while
 * the server is away). Changes made here wait in the outbox until the server holds them, so
 * nothing made offline, in a killed browser or in a tab that closed is lost; what the team
 * sends goes into the records and every tab. One tab per project syncs (a Web Lock), the
 * others leave their changes to it. Revision conflicts are listed, never resolved silently;
 * records the server refuses are listed with its reason.
 */
export interface TeamSyncOptions {
  pouch?: () => Promise<PouchStatic>;
  /** Where a tab keeps the password of a project's team database (sessionStorage in the app: gone with the tab). */
  passwords?: { get(projectId: string): string | null; set(projectId: string, password: string): void; clear(projectId: string): void };
  locks?: LockManager | null;
  channel?: TabChannel;
  /** How the mirror is made (tests in Node keep it in memory; the page keeps it in IndexedDB). */
  mirrorOptions?: { adapter?: string };
  /** Milliseconds between attempts to reach a server that went away (at most). */
  maxBackOffMs?: number;
}

export const mirrorName = (projectId: string): string => `traversa-team-${projectId}`;

const memoryPasswords = () => {
  const m = new Map<string, string>();
  return {
    get: (id: string) => m.get(id) ?? null,
    set: (id: string, pw: string) => {
      m.set(id, pw);
    },
    clear: (id: string) => {
      m.delete(id);
    },
  };
};

/**
 * Team sync for the project open in this tab: starts when a connected project opens (with the
 * password this tab was given), stops when another opens. `connect` publishes the open project
 * into an empty team database, `join` makes a project of an existing one.
 */
export class TeamSync implements SessionHost {
  private session: Session | null = null;
  private releaseLock: (() => void) | null = null;
  private generation = 0;
  readonly passwords: NonNullable<TeamSyncOptions['passwords']>;
  readonly channel: TabChannel;
  private readonly unsubscribe: () => void;

  constructor(
    readonly store: StudioStore,
    readonly db: TraversaDb,
    readonly storage: ProjectStorage,
    readonly options: TeamSyncOptions = {},
  ) {
    this.passwords = options.passwords ?? memoryPasswords();
    this.channel = options.channel ?? openTabChannel();
    let last = '';
    this.unsubscribe = store.subscribe((s) => {
      const sync = s.workspace.projects.find((p) => p.id === s.workspace.projectId)?.sync;
      const now = `${s.workspace.projectId}|${sync?.url ?? ''}|${sync?.user ?? ''}`;
      if (now !== last) {
        last = now;
        void this.follow();
      }
    });
    void this.follow();
  }

  pouch = (): Promise<PouchStatic> => (this.options.pouch ?? loadPouch)();

  /** The project's mirror, opened once and kept open (a session that ends must not close it under the next one). */
  private readonly mirrors = new Map<string, LocalDb>();
  mirror(PouchDB: PouchStatic, projectId: string): LocalDb {
    let m = this.mirrors.get(projectId);
    if (!m) this.mirrors.set(projectId, (m = new PouchDB(mirrorName(projectId), this.options.mirrorOptions) as unknown as LocalDb));
    return m;
  }

  /** Update the team state shown, if `projectId` is still the open project. */
  setTeam(projectId: string, patch: Partial<TeamState>): void {
    if (this.store.getState().workspace.projectId !== projectId) return;
    patchState(this.store, 'team', patch);
  }

  isCurrent(session: Session): boolean {
    return this.session === session;
  }

  private connectedRow() {
    const s = this.store.getState();
    const row = s.workspace.projects.find((p) => p.id === s.workspace.projectId);
    return row?.sync ? { id: row.id, ...row.sync } : null;
  }

  /** Start or stop the session to match the open project. */
  private async follow(): Promise<void> {
    const gen = ++this.generation;
    this.session?.stop();
    this.session = null;
    this.releaseLock?.();
    this.releaseLock = null;
    const row = this.connectedRow();
    if (!row) {
      this.store.setState({ team: { state: 'off', waiting: 0, conflicts: [], refused: [] } });
      return;
    }
    // Labels and verdicts made here are signed as the team user.
    this.store.setState((s) => ({
      session: { ...s.session, annotator: row.user },
      team: { state: 'connecting', url: row.url, user: row.user, waiting: 0, conflicts: [], refused: [] },
    }));
    const password = this.passwords.get(row.id);
    const locks = this.options.locks === undefined ? (typeof navigator !== 'undefined' ? (navigator.locks ?? null) : null) : this.options.locks;
    const name = `traversa-sync-${row.id}`;
    if (!password && locks && (await locks.query()).held?.some((l) => l.name === name)) {
      // Not signed in here, but another tab of this browser syncs the project: this tab's work goes through it.
      if (gen === this.generation)
        await this.syncedElsewhere(row.id, locks, name, () => {
          if (gen === this.generation) void this.follow();
        });
      return;
    }
    // No password in this tab: the browser's cookie session, if the server still knows it as this user.
    const byCookie = !password && (await sessionOf(row.url, row.user, null))?.name === row.user;
    if (gen !== this.generation) return;
    if (!password && !byCookie) {
      const n = await this.db.outbox.where('p').equals(row.id).count();
      if (gen === this.generation)
        this.setTeam(row.id, {
          state: 'signed-out',
          waiting: n,
          message: `Sign in as ${row.user} to sync this project with ${row.url}${n ? ` (${n} change${n === 1 ? '' : 's'} made here wait${n === 1 ? 's' : ''})` : ''}.`,
        });
      return;
    }
    const begin = async () => {
      if (gen !== this.generation) return;
      const session = new Session(this, row.id, row.url, row.user, password || null);
      this.session = session;
      await session.start();
    };
    /** Sync while holding the lock; the lock is held until the session is replaced. */
    const run = async () => {
      if (gen !== this.generation) return;
      const held = new Promise<void>((release) => {
        this.releaseLock = release;
      });
      await begin();
      await held;
    };
    if (!locks) {
      await begin();
      return;
    }
    let got = false;
    const started = new Promise<void>((ready) => {
      void locks.request(name, { ifAvailable: true }, async (lock) => {
        if (!lock) {
          ready();
          return;
        }
        got = true;
        const held = new Promise<void>((release) => {
          this.releaseLock = release;
        });
        await begin();
        ready();
        await held;
      });
    });
    await started;
    if (got || gen !== this.generation) return;
    // Another tab of this browser syncs this project: this tab's changes reach the team through it (the outbox is shared).
    await this.syncedElsewhere(row.id, locks, name, run);
  }

  /** Say that another tab syncs the project, and run `then` once this tab gets the lock (that tab closed or stopped). */
  private async syncedElsewhere(projectId: string, locks: LockManager, name: string, then: () => Promise<void> | void): Promise<void> {
    const n = await this.db.outbox.where('p').equals(projectId).count();
    this.setTeam(projectId, {
      state: 'elsewhere',
      waiting: n,
      message: 'Another tab of this browser syncs this project; changes made here reach the team through it.',
    });
    const abort = new AbortController();
    this.releaseLock = () => abort.abort();
    void locks.request(name, { signal: abort.signal }, then).catch(() => {});
  }

  /** Sign in again (the password is kept for this tab only). */
  async signIn(password: string): Promise<void> {
    const row = this.connectedRow();
    if (!row) return;
    await this.remember(row.id, row.url, row.user, password);
    await this.follow();
  }

  /** Sign in by a cookie session where the server's cookies reach this page; else keep the password for this tab. */
  private async remember(projectId: string, url: string, user: string, password: string): Promise<void> {
    if (await cookieSignIn(url, user, password)) this.passwords.clear(projectId);
    else this.passwords.set(projectId, password);
  }

  async signOut(): Promise<void> {
    const row = this.connectedRow();
    if (!row) return;
    this.passwords.clear(row.id);
    this.session?.stop();
    await cookieSignOut(row.url);
    await this.follow();
  }

  /** Check that `url` is a Traversa team database `user` may use; the problem in words, or null. */
  private async check(url: string, user: string, password: string): Promise<{ problem: string } | { remote: PouchRemote; docs: number }> {
    const PouchDB = await this.pouch();
    const remote = new PouchDB(url, remoteOptions(user, password));
    const signedInAs = (await sessionOf(url, user, password))?.name ?? null;
    const problem = (e: unknown): string => {
      const status = (e as { status?: number }).status;
      // CouchDB answers 403 to a member of the server who is not a member of the database; pouchdb-server 401: ask who we are.
      if (status === 401)
        return signedInAs === user
          ? `${user} is not a member of ${url}: ask the team's admin to add you.`
          : `The server did not accept the name ${user} with that password.`;
      if (status === 403) return `${user} is not a member of ${url}: ask the team's admin to add you.`;
      return `Cannot reach ${url}: ${describePouchError(e)}`;
    };
    let docs = 0;
    try {
      docs = Math.max(0, (((await remote.info()) as { doc_count?: number }).doc_count ?? 0) - 1);
    } catch (e) {
      return { problem: (e as { status?: number }).status === 404 ? `There is no database at ${url}.` : problem(e) };
    }
    try {
      await remote.get('_design/traversa');
    } catch (e) {
      if ((e as { status?: number }).status !== 404) return { problem: problem(e) };
      return {
        problem: `${url} is not a Traversa team database (it has no _design/traversa). Create one with: npm run -s cli -- team create-project <server>/<database> --member ${user}`,
      };
    }
    return { remote, docs };
  }

  /**
   * Publish the open project into an empty team database and keep it in sync. Every record waits
   * in the outbox until the server holds it. Returns the problem in words, or null.
   */
  async connect(url: string, user: string, password: string): Promise<string | null> {
    const id = this.storage.openId();
    if (!id) return 'Open a project first.';
    const checked = await this.check(url, user, password);
    if ('problem' in checked) return checked.problem;
    if (checked.docs > 0)
      return `${url} already holds a project (${checked.docs} records): open it with "Open a team project", or publish into a new, empty database.`;
    await this.storage.flush();
    const keys = await allRecordKeys(this.db, id);
    const now = Date.now();
    await this.db.transaction('rw', this.db.projects, this.db.outbox, async () => {
      await this.db.projects.update(id, { sync: { url, user } });
      await this.db.outbox.bulkPut(keys.map((k) => ({ p: id, k, at: now })));
    });
    await this.remember(id, url, user, password);
    this.channel.post({ type: 'list', from: this.channel.tabId });
    await this.storage.refreshList();
    return null;
  }

  /**
   * Make a project of an existing team database in this browser: everything it holds is copied into
   * a new mirror, read (records that cannot be read are reported, never dropped on the server), stored
   * as a new project and opened; from then on it syncs. Returns the problem in words, or null.
   */
  async join(url: string, user: string, password: string, progress: (done: number, total: number) => void = () => {}): Promise<string | null> {
    const checked = await this.check(url, user, password);
    if ('problem' in checked) return checked.problem;
    const PouchDB = await this.pouch();
    const id = newProjectId();
    const mirror = this.mirror(PouchDB, id);
    try {
      // Read in bulk and stored once; the mirror pulls only what changes from the snapshot's sequence on (teamSnapshot.ts).
      performance.mark('join:start');
      const snapshot = await readSnapshot(checked.remote, progress);
      performance.mark('join:read');
      const { bad, conflicted, seq: pullSince } = snapshot;
      // The records are handed over (the snapshot lets go of them): the project is not held twice.
      const assembled = await sliced(assembleProjectSteps(snapshot.recs.splice(0)));
      performance.mark('join:assembled');
      if (!assembled.project) {
        this.mirrors.delete(id);
        await mirror.destroy();
        return `The team database holds no readable project: ${assembled.message ?? 'no project record'}.`;
      }
      await seedConflicts(checked.remote, mirror, conflicted);
      await storeRevs(this.db, id, snapshot.revs);
      snapshot.revs.clear();
      performance.mark('join:revisions-kept');
      const seq = (await mirror.info()).update_seq;
      await writeCheckpoint(mirror, { seq, conflicts: conflicted, refused: [], pullSince });
      await this.remember(id, url, user, password);
      performance.mark('join:storing');
      await this.storage.create(assembled.project, { id, sync: { url, user } });
      performance.mark('join:stored');
      const unread = [...bad, ...assembled.bad];
      if (unread.length)
        this.setTeam(id, {
          message: `${unread.length} record${unread.length === 1 ? '' : 's'} of the team database could not be read and ${unread.length === 1 ? 'was' : 'were'} left out here (first: ${unread[0]!.key}: ${unread[0]!.reason}).`,
        });
      return null;
    } catch (e) {
      this.mirrors.delete(id);
      await mirror.destroy().catch(() => {});
      await this.db.teamRevs.where('p').equals(id).delete();
      return `Could not copy ${url}: ${describePouchError(e)}`;
    }
  }

  /** Stop syncing the open project: its records stay here, the mirror and the outbox go. */
  async disconnect(): Promise<void> {
    const row = this.connectedRow();
    if (!row) return;
    this.session?.stop();
    await this.session?.settled();
    await this.db.transaction('rw', this.db.projects, this.db.outbox, async () => {
      const stored = await this.db.projects.get(row.id);
      if (stored) {
        delete stored.sync;
        await this.db.projects.put(stored);
      }
      await this.db.outbox.where('p').equals(row.id).delete();
    });
    await this.dropMirror(row.id);
    this.channel.post({ type: 'list', from: this.channel.tabId });
    await this.storage.refreshList();
  }

  /**
   * A project is being deleted from this browser: its team mirror (a PouchDB database of its own)
   * and its password go too; a session syncing it here is stopped first. The team database on
   * the server is not touched.
   */
  async forget(projectId: string): Promise<void> {
    // Only a connected project has a mirror (disconnecting drops it): a project that never synced loads no PouchDB.
    if (!(await this.db.projects.get(projectId))?.sync) return;
    if (this.connectedRow()?.id === projectId) {
      this.session?.stop();
      await this.session?.settled();
    }
    await this.dropMirror(projectId);
  }

  /** The project's team mirror and password, gone from this browser. */
  private async dropMirror(projectId: string): Promise<void> {
    this.passwords.clear(projectId);
    await this.db.teamRevs.where('p').equals(projectId).delete();
    const mirror = this.mirror(await this.pouch(), projectId);
    this.mirrors.delete(projectId);
    await mirror.destroy().catch(() => {});
  }

  /** Resolve a revision conflict by keeping one version (the others are deleted everywhere). */
  async keep(key: string, rev: string): Promise<string | null> {
    if (!this.session) return 'Sign in to the team database first.';
    try {
      await this.session.keep(key, rev);
      return null;
    } catch (e) {
      return describePouchError(e);
    }
  }

  /** The work queued so far is done (tests). */
  async settled(): Promise<void> {
    await this.session?.settled();
  }

  stop(): void {
    this.unsubscribe();
    this.generation++;
    this.session?.stop();
    this.releaseLock?.();
    void this.session?.settled().then(() => Promise.all([...this.mirrors.values()].map((m) => m.close().catch(() => {}))));
  }
}
