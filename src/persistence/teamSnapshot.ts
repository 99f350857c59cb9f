import type { BadRecord } from '../core/records/assemble.ts';
import type { Rec } from '../core/records/records.ts';
import { readDoc, type RecordDoc } from '../core/sync/docs.ts';
import type { TeamRevsRow, TraversaDb } from './db.ts';
import { putRows } from './recordStore.ts';
import { yieldNow } from '../engine/yieldNow.ts';
import { sliced } from './sliced.ts';
import type { PouchRemote } from './pouch.ts';

/**
 * Joining a team database at scale (issue 24 §4): its records are read in bulk — `_all_docs` in
 * pages, from a sequence taken first — into the project's records, and stored once. The mirror
 * (PouchDB, for the live sync) is not filled with them: it starts pulling from that sequence, and
 * holds only what changes after the snapshot, what is changed here, and the documents in conflict
 * (their whole revision trees, for choosing a version). A record changed here that the mirror does
 * not hold extends the revision the snapshot read (kept in `teamRevs`), so the server
 * sees an update of its document, not a second one beside it.
 */
export interface Snapshot {
  /** The database's update sequence before the first page: the live pull starts there. */
  seq: number | string;
  recs: Rec[];
  bad: BadRecord[];
  conflicted: string[];
  revs: Map<string, string>;
}

const PAGE = 2_000;

type Row = { id: string; doc?: (RecordDoc & { _conflicts?: string[] }) | null; value?: { rev: string } };

/** Read every document of the team database, page by page; `progress(done, total)` after each page. */
export async function readSnapshot(remote: PouchRemote, progress: (done: number, total: number) => void = () => {}): Promise<Snapshot> {
  const info = (await remote.info()) as { update_seq: number | string; doc_count?: number };
  const total = info.doc_count ?? 0;
  const out: Snapshot = { seq: info.update_seq, recs: [], bad: [], conflicted: [], revs: new Map() };
  let startkey: string | undefined;
  let done = 0;
  for (;;) {
    const page = await remote.allDocs({
      include_docs: true,
      conflicts: true,
      limit: PAGE + (startkey === undefined ? 0 : 1),
      ...(startkey === undefined ? {} : { startkey }),
    });
    const rows = (page.rows as Row[]).filter((r) => r.id !== startkey);
    for (const row of rows) {
      const read = readDoc(row.doc);
      if (!read) continue;
      if ('bad' in read) out.bad.push(read.bad);
      else out.recs.push(read.rec);
      if (row.value?.rev) out.revs.set(row.id, row.value.rev);
      if (row.doc?._conflicts?.length) out.conflicted.push(row.id);
    }
    done += rows.length;
    progress(Math.min(done, total), total);
    if (rows.length < PAGE) break;
    startkey = rows[rows.length - 1]!.id;
    // Let the page paint between pages: a long snapshot must not freeze it.
    await yieldNow();
  }
  return out;
}

/** Which of the project's rows of revisions a key's revision is kept in (a cheap hash of the key: no parsing). */
const REV_ROWS = 256;
const revRow = (key: string) => {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return String((h >>> 0) % REV_ROWS);
};

/**
 * Keep the snapshot's revisions, in REV_ROWS rows, made and written in slices (the page paints in
 * between): for 1,000 scenes (149,093 revisions) making the rows in one go held the page for ~0.2 s.
 */
export async function storeRevs(db: TraversaDb, projectId: string, revs: ReadonlyMap<string, string>): Promise<void> {
  const rows = await sliced(revRows(projectId, revs));
  await db.transaction('rw', db.teamRevs, async (tx) => {
    // ~46 KB a row at 1,000 scenes: a few rows copied into the database per task.
    await putRows(tx.idbtrans.objectStore(db.teamRevs.name), rows, (row) => Object.keys(row.r).length * 80, 200_000);
  });
}

/** The revisions grouped into their rows, a thousand per step. */
function* revRows(projectId: string, revs: ReadonlyMap<string, string>): Generator<void, TeamRevsRow[], void> {
  const rows = new Map<string, TeamRevsRow>();
  let n = 0;
  for (const [k, rev] of revs) {
    const s = revRow(k);
    let row = rows.get(s);
    if (!row) rows.set(s, (row = { p: projectId, s, r: {} }));
    row.r[k] = rev;
    if (++n % 1000 === 0) yield;
  }
  return [...rows.values()];
}

/** The snapshot's revision of each key that has one. */
export async function revsOf(db: TraversaDb, projectId: string, keys: readonly string[]): Promise<Map<string, string>> {
  const names = [...new Set(keys.map(revRow))];
  const rows = await db.teamRevs.bulkGet(names.map((s) => [projectId, s] as [string, string]));
  const held = new Map(rows.flatMap((row) => (row ? [[row.s, row.r] as const] : [])));
  const out = new Map<string, string>();
  for (const k of keys) {
    const rev = held.get(revRow(k))?.[k];
    if (rev) out.set(k, rev);
  }
  return out;
}

/** A revision that follows `parent` (`<n+1>-<random>`): with `_revisions` it extends the parent's branch. */
export function childRevision(parent: string): { _rev: string; _revisions: { start: number; ids: string[] } } {
  const [n, hash] = [Number(parent.slice(0, parent.indexOf('-'))), parent.slice(parent.indexOf('-') + 1)];
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { _rev: `${n + 1}-${id}`, _revisions: { start: n + 1, ids: [id, hash] } };
}
