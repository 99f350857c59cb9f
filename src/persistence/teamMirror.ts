import { readDoc, recordToDoc, docHolds, type RecordDoc } from '../core/sync/docs.ts';
import type { BadRecord } from '../core/records/assemble.ts';
import { describeKey, describeValue } from '../core/records/merge.ts';
import { parseKey } from '../core/records/keys.ts';
import { sameValue, type Change } from '../core/records/records.ts';
import type { TeamConflict } from '../state/store.ts';
import type { TraversaDb } from './db.ts';
import type { PouchRemote } from './pouch.ts';
import { readRecords, writeChanges } from './recordStore.ts';
import { childRevision, revsOf } from './teamSnapshot.ts';

/**
 * The project's records as PouchDB documents in this browser (the mirror), kept in step with the
 * project's Dexie records both ways: changes made here go from the outbox into the mirror, and
 * what the mirror receives from the team database goes into the records. PouchDB replicates the
 * mirror with the server (teamSync.ts); this file only moves records between the two stores.
 */
export interface Mirror {
  get(id: string, options?: { conflicts?: boolean; open_revs?: string[] }): Promise<unknown>;
  put(doc: object): Promise<{ ok: boolean; id: string; rev: string }>;
  allDocs(options: { keys?: string[]; include_docs?: boolean; conflicts?: boolean }): Promise<{ rows: unknown[] }>;
  bulkDocs(docs: object[], options?: { new_edits?: boolean }): Promise<{ ok?: boolean; id?: string; rev?: string; error?: unknown; message?: string }[]>;
}

/** What the sync keeps about itself in the mirror (a `_local` document: never replicated). */
export interface Checkpoint {
  seq: number | string;
  conflicts: string[];
  refused: { key: string; reason: string }[];
  /** Set when the project was read from a snapshot (teamSnapshot.ts): the server's sequence the first pull starts from. */
  pullSince?: number | string;
}
const CHECKPOINT_ID = '_local/traversa';

export async function readCheckpoint(mirror: Mirror): Promise<Checkpoint> {
  try {
    const d = (await mirror.get(CHECKPOINT_ID)) as unknown as Partial<Checkpoint>;
    return {
      seq: d.seq ?? 0,
      conflicts: Array.isArray(d.conflicts) ? d.conflicts : [],
      refused: Array.isArray(d.refused) ? d.refused : [],
      ...(d.pullSince !== undefined ? { pullSince: d.pullSince } : {}),
    };
  } catch {
    return { seq: 0, conflicts: [], refused: [] };
  }
}

export async function writeCheckpoint(mirror: Mirror, c: Checkpoint): Promise<void> {
  let rev: string | undefined;
  try {
    rev = ((await mirror.get(CHECKPOINT_ID)) as { _rev: string })._rev;
  } catch {
    /* the first one */
  }
  await mirror.put({ _id: CHECKPOINT_ID, ...(rev ? { _rev: rev } : {}), ...c });
}

const CHUNK = 500;
const chunks = <T>(xs: readonly T[]): T[][] => Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

type Leaf = { id: string; doc?: (RecordDoc & { _conflicts?: string[] }) | null; value?: { rev: string; deleted?: boolean } };

/**
 * Give the mirror what the outbox holds: each record as it is stored now, signed by `user`
 * (a record deleted here becomes a deleted document). A record the mirror already holds is not
 * written again. Each outbox row then remembers which version went (`sent`) and as which
 * revision, so the server's confirmation of that revision removes it. Returns how many rows wait.
 */
export async function drainOutbox(db: TraversaDb, projectId: string, mirror: Mirror, user: string, now = () => new Date().toISOString()): Promise<number> {
  const rows = (await db.outbox.where('p').equals(projectId).toArray()).filter((r) => r.sent !== r.at);
  for (const part of chunks(rows)) {
    const keys = part.map((r) => r.k);
    const [recs, held, snapshot] = await Promise.all([
      readRecords(db, projectId, keys),
      mirror.allDocs({ keys, include_docs: true }),
      revsOf(db, projectId, keys),
    ]);
    const docs: object[] = [];
    const extended: object[] = [];
    const at = now();
    const sent = new Map<string, string | undefined>();
    (held.rows as unknown as Leaf[]).forEach((leaf, i) => {
      const key = keys[i]!;
      const rec = recs.get(key);
      const rev = leaf.value?.rev;
      const parent = leaf.value ? undefined : snapshot.get(key);
      if (parent) {
        // Read in the snapshot, not held by the mirror: the change extends the server's revision.
        const child = childRevision(parent);
        extended.push(rec ? { ...recordToDoc(rec, user, at), ...child } : { _id: key, _deleted: true, author: user, at, ...child });
        sent.set(key, child._rev);
      } else if (rec) {
        if (leaf.doc && !leaf.value?.deleted && docHolds(leaf.doc, rec)) sent.set(key, rev);
        else docs.push({ ...recordToDoc(rec, user, at), ...(rev ? { _rev: rev } : {}) });
      } else if (leaf.doc && !leaf.value?.deleted) docs.push({ _id: key, _rev: rev, _deleted: true, author: user, at });
      else sent.set(key, rev);
    });
    if (docs.length) {
      const results = await mirror.bulkDocs(docs);
      for (const r of results) if (r.ok && r.id) sent.set(r.id, r.rev);
    }
    if (extended.length) {
      const results = await mirror.bulkDocs(extended, { new_edits: false });
      for (const r of results) if (r.error && r.id) sent.delete(r.id);
    }
    await db.transaction('rw', db.outbox, async () => {
      for (const r of part) {
        if (!sent.has(r.k)) continue;
        const now = await db.outbox.get([projectId, r.k]);
        if (!now || now.at !== r.at) continue; // changed again meanwhile: the next drain sends it
        const rev = sent.get(r.k);
        if (rev === undefined)
          await db.outbox.delete([projectId, r.k]); // nothing to send: never was in the team
        else await db.outbox.put({ ...now, sent: now.at, ...(rev ? { rev } : {}) });
      }
    });
  }
  return db.outbox.where('p').equals(projectId).count();
}

/**
 * The server holds these revisions: their outbox rows go (unless the record changed here again).
 * `has` answers, for a map key → revisions, which revisions the server lacks (CouchDB's revs_diff).
 */
export async function confirmSent(
  db: TraversaDb,
  projectId: string,
  has: (revs: Record<string, string[]>) => Promise<Record<string, { missing: string[] }>>,
): Promise<string[]> {
  const rows = (await db.outbox.where('p').equals(projectId).toArray()).filter((r) => r.sent === r.at && r.rev);
  const confirmed: string[] = [];
  for (const part of chunks(rows)) {
    const missing = await has(Object.fromEntries(part.map((r) => [r.k, [r.rev!]])));
    const done = part.filter((r) => !missing[r.k]?.missing.includes(r.rev!));
    await db.transaction('rw', db.outbox, async () => {
      for (const r of done) {
        const now = await db.outbox.get([projectId, r.k]);
        if (now && now.at === r.at && now.rev === r.rev) {
          await db.outbox.delete([projectId, r.k]);
          confirmed.push(r.k);
        }
      }
    });
  }
  return confirmed;
}

/** Rows whose sent revision the server lacks (refused in a session that ended before it heard why): send them again. */
export async function resend(db: TraversaDb, projectId: string, keys: readonly string[]): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    for (const k of keys) {
      const row = await db.outbox.get([projectId, k]);
      if (row) await db.outbox.put({ p: projectId, k, at: Math.max(Date.now(), row.at + 1) });
    }
  });
}

/** The server refused a record: it no longer waits (the refusal is shown instead). */
export async function dropRefused(db: TraversaDb, projectId: string, key: string): Promise<void> {
  await db.outbox.delete([projectId, key]);
}

export interface Applied {
  /** Scopes of the project whose records changed. */
  scopes: string[];
  /** Documents with a record key that cannot be read (kept in the mirror and on the server; shown). */
  bad: BadRecord[];
  /** Keys whose document has unresolved revision conflicts, and keys whose conflicts are gone. */
  conflicted: string[];
  resolved: string[];
}

/**
 * Take the mirror's current version of some records into the project's records. A record changed
 * here that the team has not confirmed yet is left alone (writeChanges checks that in its own
 * transaction); it reaches the team and comes back as the team decides.
 */
export async function applyFromMirror(db: TraversaDb, projectId: string, mirror: Mirror, keys: readonly string[]): Promise<Applied> {
  const out: Applied = { scopes: [], bad: [], conflicted: [], resolved: [] };
  const scopes = new Set<string>();
  for (const part of chunks([...new Set(keys)].filter((k) => parseKey(k)))) {
    const [held, recs] = await Promise.all([mirror.allDocs({ keys: part, include_docs: true, conflicts: true }), readRecords(db, projectId, part)]);
    const changes: Pick<Change, 'key' | 'after'>[] = [];
    (held.rows as unknown as Leaf[]).forEach((leaf, i) => {
      const key = part[i]!;
      const stored = recs.get(key);
      if (!leaf.doc || leaf.value?.deleted) {
        if (leaf.value?.deleted && stored) changes.push({ key, after: undefined });
        return;
      }
      (leaf.doc._conflicts?.length ? out.conflicted : out.resolved).push(key);
      const read = readDoc(leaf.doc);
      if (!read) return;
      if ('bad' in read) {
        out.bad.push(read.bad);
        return;
      }
      if (!stored || stored.order !== read.rec.order || !sameValue(stored.value, read.rec.value)) changes.push({ key, after: read.rec });
    });
    if (changes.length) for (const s of (await writeChanges(db, projectId, changes, undefined, 'team')).scopes) scopes.add(s);
  }
  out.scopes = [...scopes];
  return out;
}

/** Put the documents in conflict into the mirror with every version (few; their versions are shown and chosen from). */
export async function seedConflicts(remote: PouchRemote, mirror: Mirror, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    const leaves = (await remote.get(key, { open_revs: 'all', revs: true })) as { ok?: object }[];
    const docs = leaves.flatMap((l) => (l.ok ? [l.ok] : []));
    if (docs.length) await mirror.bulkDocs(docs, { new_edits: false });
  }
}

/** One conflicted record's versions, the one the database shows first. */
export async function describeConflict(mirror: Mirror, key: string): Promise<TeamConflict | null> {
  let winner: RecordDoc & { _conflicts?: string[] };
  try {
    winner = (await mirror.get(key, { conflicts: true })) as never;
  } catch {
    return null;
  }
  if (!winner._conflicts?.length) return null;
  const leaves = (await mirror.get(key, { open_revs: [winner._rev!, ...winner._conflicts] })) as unknown as { ok?: RecordDoc }[];
  const docs = leaves.flatMap((l) => (l.ok ? [l.ok] : []));
  const other = (d: RecordDoc) => docs.find((o) => o !== d)?.value;
  return {
    key,
    what: describeKey(key),
    versions: docs
      .map((d) => ({
        rev: d._rev!,
        author: String(d.author ?? ''),
        at: String(d.at ?? ''),
        summary: d._deleted ? 'deleted' : describeValue(key, d.value, other(d)),
        winning: d._rev === winner._rev,
      }))
      .sort((a, b) => Number(b.winning) - Number(a.winning)),
  };
}

/**
 * Resolve a revision conflict by keeping one version: it becomes the record's next revision
 * (signed by `user`) and every other version is deleted, so the conflict is gone everywhere once
 * replicated. Nothing is chosen without the user.
 */
export async function keepVersion(mirror: Mirror, key: string, rev: string, user: string, at = new Date().toISOString()): Promise<void> {
  const winner = (await mirror.get(key, { conflicts: true })) as unknown as RecordDoc;
  const revs = [winner._rev!, ...(winner._conflicts ?? [])];
  if (!revs.includes(rev)) throw new Error(`${describeKey(key)} has no version ${rev} any more`);
  const [chosen] = (await mirror.get(key, { open_revs: [rev] })) as unknown as { ok?: RecordDoc }[];
  if (!chosen?.ok) throw new Error(`the version ${rev} of ${describeKey(key)} cannot be read`);
  const docs: object[] = revs.filter((r) => r !== winner._rev).map((r) => ({ _id: key, _rev: r, _deleted: true, author: user, at }));
  if (rev !== winner._rev) {
    docs.push(
      chosen.ok._deleted
        ? { _id: key, _rev: winner._rev, _deleted: true, author: user, at }
        : { _id: key, _rev: winner._rev, order: chosen.ok.order, value: chosen.ok.value, author: user, at },
    );
  }
  const failed = (await mirror.bulkDocs(docs)).find((r) => r.error);
  if (failed) throw new Error(`${describeKey(key)}: ${failed.message ?? 'could not be resolved'}`);
}
