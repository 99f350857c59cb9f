import { teamRoleOf } from '../core/sync/validateDoc.ts';
import type { StudioStore, TeamState } from '../state/store.ts';
import type { TraversaDb } from './db.ts';
import type { ProjectStorage } from './projectStorage.ts';
import type { TabChannel } from './tabChannel.ts';
import {
  applyFromMirror,
  confirmSent,
  describeConflict,
  drainOutbox,
  dropRefused,
  keepVersion,
  readCheckpoint,
  resend,
  writeCheckpoint,
  type Checkpoint,
  type Mirror,
} from './teamMirror.ts';
import { describePouchError, remoteOptions, type PouchRemote, type PouchStatic, type PouchSync } from './pouch.ts';

/** The mirror as a local PouchDB database. */
export type LocalDb = Mirror & {
  changes(options: object): { on(event: string, fn: (c: never) => void): unknown; cancel(): void };
  sync(remote: PouchRemote, options: object): PouchSync;
  info(): Promise<{ update_seq: number | string }>;
  close(): Promise<void>;
  destroy(): Promise<void>;
};

/** What a session needs of the team sync that runs it (teamSync.ts). */
export interface SessionHost {
  readonly store: StudioStore;
  readonly db: TraversaDb;
  readonly storage: ProjectStorage;
  readonly channel: TabChannel;
  readonly passwords: { clear(projectId: string): void };
  readonly options: { maxBackOffMs?: number };
  pouch(): Promise<PouchStatic>;
  mirror(PouchDB: PouchStatic, projectId: string): LocalDb;
  setTeam(projectId: string, patch: Partial<TeamState>): void;
  /** Whether `session` is the one the host runs now (a stopped session's late news must not overwrite its successor's). */
  isCurrent(session: Session): boolean;
}

/** The server's `_session` URL for a database URL. */
const sessionUrl = (dbUrl: string) => new URL('../_session', dbUrl.replace(/\/?$/, '/'));

/**
 * Who the server signs these credentials in as, and their roles (`_session`); null: not reachable or
 * not an answer. `password` null: the browser's sign-in cookie for the server, if it has one.
 */
export async function sessionOf(dbUrl: string, user: string, password: string | null): Promise<{ name: string | null; roles: string[] } | null> {
  try {
    const res = await fetch(
      sessionUrl(dbUrl),
      password === null
        ? { credentials: 'include', signal: AbortSignal.timeout(15_000) }
        : {
            headers: { authorization: `Basic ${btoa(unescape(encodeURIComponent(`${user}:${password}`)))}` },
            credentials: 'omit',
            signal: AbortSignal.timeout(15_000),
          },
    );
    const body = (await res.json()) as { userCtx?: { name?: string | null; roles?: unknown } };
    if (!body.userCtx) return null;
    const roles = Array.isArray(body.userCtx.roles) ? body.userCtx.roles.filter((r): r is string => typeof r === 'string') : [];
    return { name: body.userCtx.name ?? null, roles };
  } catch {
    return null;
  }
}

/**
 * Sign in with a cookie session (`POST _session`, as CouchDB's own pages do): the browser keeps the
 * cookie (across a restart, until it expires) and sends it instead of the password. True when the
 * server then knows this browser as `user`; false where cookies do not reach it (another site, or
 * not a browser), and the password is used on each request instead.
 */
export async function cookieSignIn(dbUrl: string, user: string, password: string): Promise<boolean> {
  try {
    const res = await fetch(sessionUrl(dbUrl), {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: user, password }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) return false;
  } catch {
    return false;
  }
  return (await sessionOf(dbUrl, user, null))?.name === user;
}

/** End the cookie session (`DELETE _session`): the browser forgets it. */
export async function cookieSignOut(dbUrl: string): Promise<void> {
  await fetch(sessionUrl(dbUrl), { method: 'DELETE', credentials: 'include', signal: AbortSignal.timeout(15_000) }).catch(() => {});
}

export class Session {
  private stopped = false;
  private mirror: LocalDb | null = null;
  private remote: PouchRemote | null = null;
  private sync: PouchSync | null = null;
  private feed: { cancel(): void } | null = null;
  private chain: Promise<void> = Promise.resolve();
  private incomingKeys = new Set<string>();
  private incomingSeq: number | string = 0;
  private incomingTimer: ReturnType<typeof setTimeout> | null = null;
  private confirmTimer: ReturnType<typeof setTimeout> | null = null;
  private checkpoint: Checkpoint = { seq: 0, conflicts: [], refused: [] };
  private paused = false;
  private offline = false;
  private resent = false;
  private readonly startedAt = Date.now();
  private readonly unlisten: (() => void)[] = [];

  /** `password` null: signed in by the browser's cookie session. */
  constructor(
    private readonly t: SessionHost,
    readonly projectId: string,
    readonly url: string,
    readonly user: string,
    private readonly password: string | null,
  ) {}

  private enqueue(job: () => Promise<void>): Promise<void> {
    const run = async () => {
      if (!this.stopped) {
        try {
          await job();
        } catch (e) {
          this.show({ state: 'error', message: `Team sync stopped: ${describePouchError(e)}` });
        }
      }
    };
    return (this.chain = this.chain.then(run, run));
  }

  /** The user's role in the project, from the server's session (the studio then holds back a lead's edits from an annotator). */
  private async readRole(): Promise<void> {
    const session = await sessionOf(this.url, this.user, this.password);
    if (session && !this.stopped) this.show({ role: teamRoleOf(this.url, session.roles) });
  }

  async start(): Promise<void> {
    const PouchDB = await this.t.pouch();
    if (this.stopped) return;
    this.show({ state: 'connecting', url: this.url, user: this.user, message: undefined });
    this.mirror = this.t.mirror(PouchDB, this.projectId);
    this.remote = new PouchDB(this.url, remoteOptions(this.user, this.password));
    this.checkpoint = await readCheckpoint(this.mirror!);
    this.show({ refused: this.checkpoint.refused });
    void this.showConflicts();

    try {
      await this.remote.info();
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status === 401) return this.signedOut();
      if (status === 403 || status === 404) {
        this.show({
          state: 'error',
          message:
            status === 403
              ? `${this.user} is not a member of ${this.url}: ask the team's admin to add you.`
              : `${this.url} does not exist on the server (any more).`,
        });
        return;
      }
      this.offline = true; // the server is away: the work here waits, the replication keeps trying
    }
    if (this.stopped) return;
    if (!this.offline) void this.readRole();

    const feed = this.mirror!.changes({ since: this.checkpoint.seq, live: true });
    feed.on('change', (c: { id: string; seq: number | string }) => this.incoming(c.id, c.seq));
    this.feed = feed;
    const cap = this.t.options.maxBackOffMs ?? 5000;
    // A project read from a snapshot pulls from the snapshot's sequence the first time (PouchDB keeps its own checkpoint after).
    const since = this.checkpoint.pullSince;
    const sync = this.mirror!.sync(this.remote, {
      live: true,
      retry: true,
      back_off_function: (d: number) => (d === 0 ? 250 : Math.min(d * 2, cap)),
      ...(since !== undefined ? { pull: { since } } : {}),
    });
    if (since !== undefined) {
      const { pullSince: _, ...rest } = this.checkpoint;
      this.checkpoint = rest;
      void this.enqueue(() => writeCheckpoint(this.mirror!, this.checkpoint));
    }
    this.sync = sync;
    // The sync's own 'paused' does not say why; each direction's does (an error: the server is away, retried with back-off).
    const errors: { push?: unknown; pull?: unknown } = {};
    const settle = () =>
      setTimeout(() => {
        if (this.stopped) return;
        const err = errors.push ?? errors.pull;
        if (err) {
          this.paused = true;
          this.lost(err);
        } else if (this.paused) {
          this.offline = false;
          this.scheduleConfirm(0);
        }
      }, 0);
    for (const direction of ['push', 'pull'] as const) {
      sync[direction].on('paused', (err?: unknown) => {
        errors[direction] = err ?? undefined;
        settle();
      });
      sync[direction].on('active', () => {
        errors[direction] = undefined;
      });
    }
    sync.on('active', () => {
      this.paused = false;
      this.offline = false;
      this.show({ state: 'syncing', message: undefined });
    });
    sync.on('change', () => {
      this.show({ lastSyncAt: Date.now() });
      this.scheduleConfirm();
    });
    sync.on('paused', () => {
      this.paused = true;
      settle();
    });
    sync.on('denied', (d: { direction: string; doc: { id?: string; reason?: string; message?: string } }) => {
      void this.refused(d.doc);
    });
    sync.on('error', (err: unknown) => this.lost(err));

    const drain = () => void this.enqueue(() => this.drain());
    this.unlisten.push(
      this.t.storage.onWritten((id) => {
        if (id === this.projectId) drain();
      }),
    );
    this.unlisten.push(
      this.t.channel.listen((m) => {
        if (m.type === 'changed' && m.projectId === this.projectId) drain();
      }),
    );
    drain();
    if (this.offline) this.lost({ status: 0 });
  }

  /** Show `patch` as the team state, unless this session was stopped (`evenStopped`: its own last word) or replaced. */
  private show(patch: Partial<TeamState>, evenStopped = false): void {
    if ((this.stopped && !evenStopped) || !this.t.isCurrent(this)) return;
    this.t.setTeam(this.projectId, patch);
  }

  private lost(err: unknown): void {
    if (this.stopped) return;
    const status = (err as { status?: number }).status;
    if (status === 401) {
      this.signedOut();
      return;
    }
    // The database itself is gone (deleted, or an --in-memory server restarted): no sign-in brings it back.
    if (status === 404) {
      this.stop();
      void this.waiting().then((n) =>
        this.show(
          {
            state: 'error',
            waiting: n,
            message: `The team server has no database ${this.url} (it was deleted, or the server restarted without its data). Ask the team's admin to restore it; ${n ? `the ${n} change${n === 1 ? '' : 's'} made here ${n === 1 ? 'is' : 'are'} kept` : 'everything here is kept'}.`,
          },
          true,
        ),
      );
      return;
    }
    if (status === 403) {
      this.stop();
      this.show({ state: 'error', message: `The server refuses ${this.user} access to ${this.url}: ${describePouchError(err)}` }, true);
      return;
    }
    this.offline = true;
    void this.waiting().then((n) =>
      this.show({
        state: 'offline',
        waiting: n,
        message: `The team server cannot be reached. ${n ? `${n} change${n === 1 ? '' : 's'} made here wait${n === 1 ? 's' : ''} and ${n === 1 ? 'is' : 'are'} sent when it can be.` : 'Work goes on here and is sent when it can be.'}`,
      }),
    );
  }

  private signedOut(): void {
    if (this.stopped) return;
    this.stop();
    this.t.passwords.clear(this.projectId);
    void this.waiting().then((n) =>
      this.show(
        {
          state: 'signed-out',
          waiting: n,
          message: `${this.password === null ? `${this.user}'s sign-in to the team server has ended (it lasts a while from its last use).` : `The team server did not accept ${this.user}'s password.`} Sign in again${n ? ` to send the ${n} change${n === 1 ? '' : 's'} waiting here` : ''}.`,
        },
        true,
      ),
    );
  }

  private waiting(): Promise<number> {
    return this.t.db.outbox.where('p').equals(this.projectId).count();
  }

  private async drain(): Promise<void> {
    const n = await drainOutbox(this.t.db, this.projectId, this.mirror!, this.user);
    this.show({ waiting: n, ...(n && !this.offline ? { state: 'syncing' as const } : {}) });
  }

  private scheduleConfirm(delay = 150): void {
    if (this.confirmTimer) clearTimeout(this.confirmTimer);
    this.confirmTimer = setTimeout(() => void this.enqueue(() => this.confirm()), delay);
  }

  /** Which sent revisions the server holds now: their rows leave the outbox. */
  private async confirm(): Promise<void> {
    const remote = this.remote!;
    const confirmed = await confirmSent(this.t.db, this.projectId, (revs) => remote.revsDiff(revs) as Promise<Record<string, { missing: string[] }>>);
    // What arrived for these records while they waited was left alone; now the team's version (the
    // winner of a conflict, even over ours) is what this studio shows.
    if (confirmed.length) await this.take(confirmed);
    if (this.paused && !this.offline && !this.resent) {
      // Caught up for the first time in this session: a revision sent in an earlier session that the
      // server still lacks was refused then, unheard (the tab closed): send it again to hear why.
      this.resent = true;
      const rows = await this.t.db.outbox.where('p').equals(this.projectId).toArray();
      const stale = rows.filter((r) => r.sent === r.at && r.rev && r.at < this.startedAt).map((r) => r.k);
      if (stale.length) {
        await resend(this.t.db, this.projectId, stale);
        await this.drain();
        return;
      }
    }
    const n = await this.waiting();
    this.show({ waiting: n, ...(this.offline ? {} : { state: this.paused && n === 0 ? ('synced' as const) : ('syncing' as const), lastSyncAt: Date.now() }) });
  }

  private async refused(doc: { id?: string; reason?: string; message?: string }): Promise<void> {
    const key = doc.id;
    if (!key) return;
    // The server's reason starts with the record's key (validateDoc.ts); the list names the record already.
    const reason = (doc.reason ?? doc.message ?? 'refused by the server').replace(`${key}: `, '');
    await this.enqueue(async () => {
      await dropRefused(this.t.db, this.projectId, key);
      this.checkpoint = { ...this.checkpoint, refused: [...this.checkpoint.refused.filter((r) => r.key !== key), { key, reason }].slice(-500) };
      await writeCheckpoint(this.mirror!, this.checkpoint);
      this.show({ refused: this.checkpoint.refused, waiting: await this.waiting() });
    });
  }

  /** The mirror changed (the team's records arrived, or ours went in): take it into the records, in batches. */
  private incoming(id: string, seq: number | string): void {
    if (id.startsWith('_')) return;
    this.incomingKeys.add(id);
    this.incomingSeq = seq;
    if (this.incomingTimer) return;
    this.incomingTimer = setTimeout(() => {
      this.incomingTimer = null;
      const keys = [...this.incomingKeys];
      const seqNow = this.incomingSeq;
      this.incomingKeys.clear();
      void this.enqueue(() => this.take(keys, seqNow));
    }, 40);
  }

  /** Take the mirror's current version of `keys` into the project's records (and past `seq` in the mirror's changes). */
  private async take(keys: string[], seq?: number | string): Promise<void> {
    const applied = await applyFromMirror(this.t.db, this.projectId, this.mirror!, keys);
    if (applied.scopes.length && this.t.storage.openId() === this.projectId) await this.t.storage.absorb(applied.scopes);
    const conflicts = new Set(this.checkpoint.conflicts);
    for (const k of applied.conflicted) conflicts.add(k);
    for (const k of applied.resolved) conflicts.delete(k);
    this.checkpoint = { ...this.checkpoint, ...(seq !== undefined ? { seq } : {}), conflicts: [...conflicts] };
    await writeCheckpoint(this.mirror!, this.checkpoint);
    if (applied.bad.length)
      this.show({
        message: `${applied.bad.length} record${applied.bad.length === 1 ? '' : 's'} from the team could not be read and ${applied.bad.length === 1 ? 'was' : 'were'} left out (first: ${applied.bad[0]!.key}: ${applied.bad[0]!.reason}).`,
      });
    if (applied.conflicted.length || applied.resolved.some((k) => this.t.store.getState().team.conflicts.some((c) => c.key === k))) await this.showConflicts();
  }

  private async showConflicts(): Promise<void> {
    const found = await Promise.all(this.checkpoint.conflicts.slice(0, 200).map((k) => describeConflict(this.mirror!, k)));
    this.show({ conflicts: found.filter((c) => c !== null) });
  }

  keep(key: string, rev: string): Promise<void> {
    return this.enqueue(() => keepVersion(this.mirror!, key, rev, this.user));
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const u of this.unlisten) u();
    if (this.incomingTimer) clearTimeout(this.incomingTimer);
    if (this.confirmTimer) clearTimeout(this.confirmTimer);
    this.sync?.cancel();
    this.feed?.cancel();
  }

  /** Resolves when the work queued so far is done (tests, disconnect). */
  settled(): Promise<void> {
    return this.chain;
  }
}
