import Dexie from 'dexie';
import type { Project, Scene } from '../core/project.ts';
import { completed } from '../core/steps.ts';
import { assembleScope, ProjectAssembly, type Assembled, type BadRecord, type ScopeResult } from '../core/records/assemble.ts';
import { sliced } from './sliced.ts';
import { readStoredRecs } from './bucketRead.ts';
import { bucketOf, parseKey, scopeOf } from '../core/records/keys.ts';
import { itemRecords, sceneRecords, topRecords, type Change, type Rec } from '../core/records/records.ts';
import { bucketRecords, bucketRecs, bucketRow, packedRow, recsText, UnreadableBucket, type RecordMap } from './bucketText.ts';
import type { BucketRow, ProjectRow, TraversaDb } from './db.ts';
import { append } from '../core/arrays.ts';

/**
 * A project's records in the browser's database. Records live in buckets (keys.ts `bucketOf`);
 * a write reads the buckets it touches and changes only the records it names inside one
 * transaction, so two tabs writing different records of one bucket never overwrite each other,
 * and a label decision costs one small row whatever the project's size.
 */

/** A summary of a project kept in its list row. */
export function summaryOf(project: Project): Pick<ProjectRow, 'name' | 'scenes' | 'meshKeys'> {
  return { name: project.name, scenes: project.scenes.length, meshKeys: [...new Set(project.scenes.flatMap((s) => (s.mesh ? [s.mesh.key] : [])))] };
}

function placeOf(key: string): { bucket: string; scope: string } {
  const parsed = parseKey(key);
  if (!parsed) throw new Error(`not a record key: ${key}`);
  return { bucket: bucketOf(parsed), scope: scopeOf(parsed) };
}

/**
 * A whole project's bucket rows: its own records in `top`, each scene's and each QA item's in
 * theirs (keys.ts `bucketOf`), the bucket named once per scene rather than found for each record.
 */
function* bucketsOfProject(projectId: string, project: Project): Generator<void, BucketRow[], void> {
  const rows: BucketRow[] = [];
  const add = (recs: readonly Rec[]) => {
    if (!recs.length) return;
    const parsed = parseKey(recs[0]!.key)!;
    rows.push(packedRow(projectId, bucketOf(parsed), scopeOf(parsed), recsText(recs)));
  };
  add(topRecords(project));
  for (const [i, scene] of project.scenes.entries()) {
    yield;
    const [head] = sceneRecords(scene, i);
    const parsed = parseKey(head!.key)!;
    const body = sceneBodyText(scene);
    sceneBodyTexts.delete(scene); // written once: not kept for the session (~20 MB for 1,000 scenes)
    rows.push(packedRow(projectId, bucketOf(parsed), scopeOf(parsed), `[${recsText([head!]).slice(1, -1)}${body ? `,${body}` : ''}]`));
  }
  for (const [i, item] of project.qa.items.entries()) {
    if (i % 50 === 0) yield;
    add(itemRecords(item, i));
  }
  return rows;
}

/**
 * A scene's records but its head (which holds the scene's place in the list), as entries of bucket
 * text, kept per scene object (scenes are immutable): an import writes them while the browser is
 * still reading the files of later scenes, and the store only joins them.
 */
const sceneBodyTexts = new WeakMap<Scene, string>();
export function sceneBodyText(scene: Scene): string {
  let text = sceneBodyTexts.get(scene);
  if (text === undefined) sceneBodyTexts.set(scene, (text = recsText(sceneRecords(scene, 0).slice(1)).slice(1, -1)));
  return text;
}

export const newProjectId = (): string => `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/**
 * Store a whole project as a new entry of the list, in one transaction (nothing is half-stored).
 * `queued` is called once every record has been handed to the database (the browser has copied
 * them) but before the transaction has committed: what waits for the store can start meanwhile.
 */
export async function createStoredProject(
  db: TraversaDb,
  project: Project,
  extra: Partial<ProjectRow> = {},
  queued?: (row: ProjectRow) => void,
): Promise<ProjectRow> {
  const id = extra.id ?? newProjectId();
  // Written out in slices: 1,000 scenes of text never hold the page at once.
  const rows = await sliced(bucketsOfProject(id, project));
  const now = Date.now();
  const row: ProjectRow = { id, createdAt: now, updatedAt: now, bytes: rows.reduce((s, r) => s + r.bytes, 0), ...summaryOf(project), ...extra };
  await db.transaction('rw', db.projects, db.records, async (tx) => {
    const stored = putRows(tx.idbtrans.objectStore(db.records.name), rows);
    const listed = db.projects.put(row);
    // Outside this transaction's zone: what `queued` sets off (subscribers reading other tables) is not part of it.
    if (queued) Dexie.ignoreTransaction(() => queued(row));
    await stored;
    await listed;
  });
  return row;
}

/**
 * Put many new rows straight through the transaction's own object store. Dexie's bulkPut runs each
 * row through its middleware (change tracking for live queries, which nothing here uses) on top of
 * the browser's own copy of it. A failed put aborts the transaction, so nothing is half-stored.
 * The rows go in slices of about `sliceBytes` (the browser copies each row on the main thread):
 * the next slice is put when the last one is written, so the page paints in between.
 */
export function putRows<T extends object>(
  store: IDBObjectStore,
  rows: readonly T[],
  bytesOf: (row: T) => number = (r) => (r as { bytes?: number }).bytes ?? 0,
  sliceBytes = 1_000_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let at = 0;
    const next = () => {
      if (at >= rows.length) {
        resolve();
        return;
      }
      let size = 0;
      let last: IDBRequest | null = null;
      // A value the browser cannot copy throws here, and the transaction is aborted.
      try {
        while (at < rows.length && (size < sliceBytes || last === null)) {
          const row = rows[at++]!;
          size += bytesOf(row);
          last = store.put(row);
          last.onerror = () => reject(last!.error);
        }
      } catch (e) {
        reject(e);
        return;
      }
      // Requests of a transaction complete in order: the last one's success means the slice is written.
      last!.onsuccess = next;
    };
    next();
  });
}

const BUCKET_SLICE = 1000;

/**
 * Write record changes of a project: each touched bucket is read, the named records set or
 * removed, and the bucket written back, in one transaction with the list row's summary.
 * Returns the scopes written and the project's list row after the write.
 */
export async function writeChanges(
  db: TraversaDb,
  projectId: string,
  changes: readonly Pick<Change, 'key' | 'after'>[],
  summary?: Pick<ProjectRow, 'name' | 'scenes' | 'meshKeys'>,
  from: 'here' | 'team' = 'here',
): Promise<{ scopes: string[]; row: ProjectRow }> {
  const byBucket = new Map<string, { scope: string; changes: Pick<Change, 'key' | 'after'>[] }>();
  for (const c of changes) {
    const { bucket, scope } = placeOf(c.key);
    let entry = byBucket.get(bucket);
    if (!entry) byBucket.set(bucket, (entry = { scope, changes: [] }));
    entry.changes.push(c);
  }
  const row = await db.transaction('rw', db.projects, db.records, db.outbox, async (tx) => {
    const row = await db.projects.get(projectId);
    if (!row) throw new Error('this project was deleted (in another tab?); export your work or open another project');
    // A change made here to a project connected to a team waits in the outbox, stored with the change itself.
    // In slices too: an import of 20,000 items into a team project is 20,000 waiting changes.
    if (row.sync && from === 'here')
      await putRows(
        tx.idbtrans.objectStore(db.outbox.name),
        changes.map((c) => ({ p: projectId, k: c.key, at: Date.now() })),
        () => 100,
      );
    // What the team sends never overwrites a change made here that the team has not confirmed yet
    // (checked in this transaction, so a change made while the team's arrived cannot be lost).
    if (from === 'team') {
      const pending = await db.outbox.bulkGet(changes.map((c) => [projectId, c.key] as [string, string]));
      const waiting = new Set(changes.filter((_, i) => pending[i]).map((c) => c.key));
      for (const [b, entry] of [...byBucket]) {
        entry.changes = entry.changes.filter((c) => !waiting.has(c.key));
        if (!entry.changes.length) byBucket.delete(b);
      }
    }
    const buckets = [...byBucket.keys()];
    let delta = 0;
    // A thousand buckets at a time, each slice read and written before the next is built: between
    // them the page paints (20,000 imported QA items, a bucket each, held it for a second at once).
    for (let at = 0; at < buckets.length; at += BUCKET_SLICE) {
      const slice = buckets.slice(at, at + BUCKET_SLICE);
      const stored = await db.records.bulkGet(slice.map((b) => [projectId, b] as [string, string]));
      const puts: BucketRow[] = [],
        deletes: [string, string][] = [];
      slice.forEach((b, i) => {
        const { scope, changes: mine } = byBucket.get(b)!;
        const before = stored[i];
        // A stored bucket that cannot be read is not written over: the write fails and says so.
        const r: RecordMap = before ? { ...bucketRecords(before) } : {};
        for (const c of mine) {
          if (c.after) r[c.key] = { value: c.after.value, order: c.after.order };
          else delete r[c.key];
        }
        const row = Object.keys(r).length ? bucketRow(projectId, b, scope, r) : null;
        delta += (row?.bytes ?? 0) - (before?.bytes ?? 0);
        if (row) puts.push(row);
        else if (before) deletes.push([projectId, b]);
      });
      if (puts.length) await putRows(tx.idbtrans.objectStore(db.records.name), puts);
      if (deletes.length) await db.records.bulkDelete(deletes);
    }
    const next: ProjectRow = { ...row, ...summary, bytes: Math.max(0, row.bytes + delta), updatedAt: Date.now() };
    await db.projects.put(next);
    return next;
  });
  return { scopes: [...new Set([...byBucket.values()].map((e) => e.scope))], row };
}

/** The records of stored rows, and the rows that cannot be read (set aside whole by the caller). */
function recsOf(rows: readonly BucketRow[]): { recs: Rec[]; unreadable: { row: BucketRow; reason: string }[] } {
  return completed(recsOfSteps(rows));
}

/** The same, a bucket per step (sliced.ts runs it on a page opening a large project). */
function* recsOfSteps(rows: readonly BucketRow[]): Generator<void, { recs: Rec[]; unreadable: { row: BucketRow; reason: string }[] }, void> {
  const recs: Rec[] = [],
    unreadable: { row: BucketRow; reason: string }[] = [];
  for (const row of rows) {
    yield;
    let held: Rec[];
    try {
      held = bucketRecs(row);
    } catch (e) {
      if (!(e instanceof UnreadableBucket)) throw e;
      unreadable.push({ row, reason: e.message });
      continue;
    }
    for (const r of held) recs.push(r);
  }
  return { recs, unreadable };
}

/** Move stored rows that cannot be read at all into the set-aside table, with why (never deleted). */
async function setAsideRows(db: TraversaDb, unreadable: readonly { row: BucketRow; reason: string }[]): Promise<void> {
  if (!unreadable.length) return;
  await db.transaction('rw', db.records, db.setAside, async () => {
    for (const { row, reason } of unreadable) {
      await db.setAside.add({ table: 'records', reason: `bucket ${row.b}: ${reason}`, at: Date.now(), row });
      await db.records.delete([row.p, row.b]);
    }
  });
}

/**
 * Load a project. Records that fail validation are moved to the set-aside table with their
 * reason (never deleted) before the project opens without them.
 */
export async function loadStoredProject(db: TraversaDb, projectId: string): Promise<Assembled> {
  // The load's phases, as marks (`npm run bench -- team` prints them for a reload).
  performance.mark('load:start');
  await db.open(); // the read below opens the database by name: it must exist at its version first
  // Each page's scopes are assembled while the worker reads and inflates the next pages.
  const assembly = new ProjectAssembly();
  let assembling = Promise.resolve();
  const { unreadable, unparsed } = await readStoredRecs(db.name, projectId, (recs) => {
    assembling = assembling.then(() => sliced(assembly.add(recs)));
  });
  performance.mark('load:read');
  await assembling;
  if (unparsed.length) {
    const rows = await db.records.bulkGet(unparsed.map((u) => [projectId, u.b] as [string, string]));
    unparsed.forEach((u, i) => rows[i] && unreadable.push({ row: rows[i], reason: u.reason }));
  }
  await setAsideRows(db, unreadable);
  const assembled = assembly.finish();
  performance.mark('load:assembled');
  const bad = [...unreadable.map(({ row, reason }) => ({ key: `bucket ${row.b}`, reason })), ...assembled.bad];
  if (assembled.bad.length) await setAsideRecords(db, projectId, assembled.bad);
  return { ...assembled, bad };
}

/** Read and assemble some scopes of a stored project (what another tab changed). */
export async function readScopes(db: TraversaDb, projectId: string, scopes: readonly string[]): Promise<ScopeResult[]> {
  const rows = await db.records
    .where('[p+s]')
    .anyOf(scopes.map((s) => [projectId, s]))
    .toArray();
  const byScope = new Map<string, BucketRow[]>(scopes.map((s) => [s, []]));
  for (const row of rows) byScope.get(row.s)?.push(row);
  const unreadable: { row: BucketRow; reason: string }[] = [];
  const results = [...byScope].map(([scope, list]) => {
    const read = recsOf(list);
    append(unreadable, read.unreadable);
    return assembleScope(scope, read.recs);
  });
  await setAsideRows(db, unreadable);
  const bad = results.flatMap((r) => r.bad);
  if (bad.length) await setAsideRecords(db, projectId, bad);
  return results;
}

/** Move unreadable records out of their buckets into the set-aside table, with why. */
async function setAsideRecords(db: TraversaDb, projectId: string, bad: readonly BadRecord[]): Promise<void> {
  await db.transaction('rw', db.records, db.setAside, async () => {
    for (const b of bad) {
      const parsed = parseKey(b.key);
      const bucket = parsed ? bucketOf(parsed) : null;
      const row = bucket ? await db.records.get([projectId, bucket]) : undefined;
      const held = row && bucketRecords(row)[b.key];
      // A key no bucket can hold is looked for in every bucket of the project.
      const holders = row && held ? [row] : (await db.records.where('p').equals(projectId).toArray()).filter((r) => b.key in bucketRecords(r));
      for (const r of holders) {
        const { [b.key]: record, ...rest } = bucketRecords(r);
        await db.setAside.add({ table: 'records', reason: `${b.key}: ${b.reason}`, at: Date.now(), row: { projectId, key: b.key, record } });
        await db.records.put(bucketRow(r.p, r.b, r.s, rest));
      }
    }
  });
}

export async function listStoredProjects(db: TraversaDb): Promise<ProjectRow[]> {
  return await db.projects.orderBy('updatedAt').reverse().toArray();
}

/** Rename a stored project that is not open (an open one is renamed by an edit of its document). */
export async function renameStoredProject(db: TraversaDb, projectId: string, name: string): Promise<void> {
  await db.transaction('rw', db.projects, db.records, async () => {
    const top = await db.records.get([projectId, 'top']);
    const map = top && bucketRecords(top);
    const held = map?.project;
    if (top && held) await db.records.put(bucketRow(top.p, top.b, top.s, { ...map, project: { ...held, value: { ...(held.value as object), name } } }));
    await db.projects.update(projectId, { name, updatedAt: Date.now() });
  });
}

/** Copy a project's records into a new project (a new id, the given name). */
export async function duplicateStoredProject(db: TraversaDb, projectId: string, name: string): Promise<ProjectRow> {
  const id = newProjectId();
  return db.transaction('rw', db.projects, db.records, async () => {
    const row = await db.projects.get(projectId);
    if (!row) throw new Error('the project to copy no longer exists');
    const rows = await db.records.where('p').equals(projectId).toArray();
    const copies = rows.map((r) => {
      const map = r.b === 'top' ? bucketRecords(r) : null;
      return map?.project
        ? bucketRow(id, r.b, r.s, { ...map, project: { ...map.project, value: { ...(map.project.value as object), name } } })
        : { ...r, p: id };
    });
    await db.records.bulkPut(copies);
    // A copy is this browser's own: not the sample, not connected to the team database.
    const { origin: _origin, sync: _sync, ...copied } = row;
    const copy: ProjectRow = { ...copied, id, name, createdAt: Date.now(), updatedAt: Date.now() };
    await db.projects.put(copy);
    return copy;
  });
}

/** Delete a project, its records and its videos (the caller has asked for confirmation). */
export async function deleteStoredProject(db: TraversaDb, projectId: string): Promise<void> {
  await db.transaction('rw', [db.projects, db.records, db.outbox, db.videos], async () => {
    await db.records.where('p').equals(projectId).delete();
    await db.outbox.where('p').equals(projectId).delete();
    await db.videos.where('p').equals(projectId).delete();
    await db.projects.delete(projectId);
  });
}

/** The stored records at some keys (absent keys are missing from the map). */
export async function readRecords(db: TraversaDb, projectId: string, keys: readonly string[]): Promise<Map<string, Rec>> {
  const buckets = [...new Set(keys.map((k) => placeOf(k).bucket))];
  const rows = await db.records.bulkGet(buckets.map((b) => [projectId, b] as [string, string]));
  const out = new Map<string, Rec>();
  const wanted = new Set(keys);
  for (const row of rows) {
    if (!row) continue;
    for (const [key, { value, order }] of Object.entries(bucketRecords(row))) if (wanted.has(key)) out.set(key, { key, value, order });
  }
  return out;
}

/** Every record of a stored project, without assembling it (what a team database is first given). */
export async function allRecordKeys(db: TraversaDb, projectId: string): Promise<string[]> {
  const rows = await db.records.where('p').equals(projectId).toArray();
  return rows.flatMap((r) => Object.keys(bucketRecords(r)));
}

/** Keep a project's list row in step with what it holds (after records arrived from elsewhere). */
export async function updateSummary(db: TraversaDb, projectId: string, summary: Partial<ProjectRow>): Promise<void> {
  await db.projects.update(projectId, summary);
}
