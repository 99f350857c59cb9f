/**
 * PouchDB, the maintained CouchDB replication client, as the team sync uses it: loaded only when
 * a project is connected (it is not small), and typed here for the few calls made.
 */
export interface PouchReplication {
  on(event: string, fn: (...args: never[]) => void): PouchReplication;
  cancel(): void;
}

/** A two-way live replication: its two directions can be watched on their own. */
export interface PouchSync extends PouchReplication {
  push: PouchReplication;
  pull: PouchReplication;
}

export interface PouchRemote {
  info(): Promise<unknown>;
  get(id: string, options?: { open_revs?: 'all' | string[]; revs?: boolean }): Promise<unknown>;
  allDocs(options: { include_docs?: boolean; conflicts?: boolean; limit?: number; startkey?: string }): Promise<{ rows: unknown[] }>;
  revsDiff(revs: Record<string, string[]>): Promise<unknown>;
}

export interface PouchDbInstance extends PouchRemote {
  sync?(remote: PouchRemote, options: object): PouchSync;
}

export interface RemoteOptions {
  skip_setup: true;
  auth?: { username: string; password: string };
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
}

export interface PouchStatic {
  new (name: string, options?: RemoteOptions | { adapter?: string }): PouchDbInstance;
  replicate(from: PouchRemote, to: never, options?: object): PouchReplication;
}

/**
 * How the studio reaches a team database: signed in by `password`, or by the browser's cookie
 * session (null). Nothing it reads is kept in the browser's HTTP cache (a 1,000-scene project read
 * in bulk would sit there a second time).
 */
export function remoteOptions(user: string, password: string | null): RemoteOptions {
  return {
    skip_setup: true,
    fetch: (url, init) => fetch(url, { ...init, cache: 'no-store' }),
    ...(password === null ? {} : { auth: { username: user, password } }),
  };
}

export async function loadPouch(): Promise<PouchStatic> {
  const mod = await import('pouchdb-browser');
  return (mod.default ?? mod) as unknown as PouchStatic;
}

/** A PouchDB or CouchDB error in words (never the request's credentials). */
export function describePouchError(e: unknown): string {
  if (!e || typeof e !== 'object') return String(e);
  const err = e as { status?: number; reason?: string; message?: string; name?: string };
  const what = err.reason || err.message || err.name || 'unknown error';
  return (err.status ? `${what} (HTTP ${err.status})` : what).replace(/\/\/[^/@\s]*:[^/@\s]*@/g, '//');
}
