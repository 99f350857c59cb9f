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

export interface PouchStatic {
  new (name: string, options?: { skip_setup?: boolean; auth?: { username: string; password: string }; adapter?: string }): PouchDbInstance;
  replicate(from: PouchRemote, to: never, options?: object): PouchReplication;
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
