import type { BadRecord } from '../core/records/assemble.ts';
import { parseKey, scopeOf } from '../core/records/keys.ts';
import type { Rec } from '../core/records/records.ts';
import { readDoc, type RecordDoc } from '../core/sync/docs.ts';
import type { TraversaDb } from './db.ts';
import type { PouchRemote } from './pouch.ts';
import type { Mirror } from './teamMirror.ts';

/**
 * Joining a team database at scale (issue 24 §4): its records are read in bulk — `_all_docs` in
 * pages, from a sequence taken first — into the project's records, and stored once. The mirror
 * (PouchDB, for the live sync) is not filled with them: it starts pulling from that sequence, and
 * holds only what changes after the snapshot, what is changed here, and the documents in conflict
 * (their whole revision trees, for choosing a version). A record changed here that the mirror does
 * not hold extends the revision the snapshot read (kept per scope in `teamRevs`), so the server
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

const PAGE = 5_000;

type Row = { id: string; doc?: (RecordDoc & { _conflicts?: string[] }) | null; value?: { rev: string } };

/** Read every document of the team database, page by page; `progress(done, total)` after each page. */
export async function readSnapshot(remote: PouchRemote, progress: (done: number, total: number) => void = () => {}): Promise<Snapshot> {
  const info = await remote.info() as { update_seq: number | string; doc_count?: number };
  const total = info.doc_count ?? 0;
  const out: Snapshot = { seq: info.update_seq, recs: [], bad: [], conflicted: [], revs: new Map() };
  let startkey: string | undefined;
  let done = 0;
  for (;;) {
    const page = await remote.allDocs({ include_docs: true, conflicts: true, limit: PAGE + (startkey === undefined ? 0 : 1), ...(startkey === undefined ? {} : { startkey }) });
    const rows = (page.rows as Row[]).filter((r) => r.id !== startkey);
    for (const row of rows) {
      const read = readDoc(row.doc);
      if (!read) continue;
      if ('bad' in read) out.bad.push(read.bad); else out.recs.push(read.rec);
      if (row.value?.rev) out.revs.set(row.id, row.value.rev);
      if (row.doc?._conflicts?.length) out.conflicted.push(row.id);
    }
    done += rows.length;
    progress(Math.min(done, total), total);
    if (rows.length < PAGE) break;
    startkey = rows[rows.length - 1]!.id;
    // Let the page paint between pages: a long snapshot must not freeze it.
    await new Promise((r) => setTimeout(r, 0));
  }
  return out;
}

/** Put the documents in conflict into the mirror with every version (few; their versions are shown and chosen from). */
export async function seedConflicts(remote: PouchRemote, mirror: Mirror, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    const leaves = await remote.get(key, { open_revs: 'all', revs: true }) as { ok?: object }[];
    const docs = leaves.flatMap((l) => (l.ok ? [l.ok] : []));
    if (docs.length) await mirror.bulkDocs(docs, { new_edits: false });
  }
}

/** The scope a key's revision is kept under. */
const scopeKey = (key: string) => { const k = parseKey(key); return k ? scopeOf(k) : 'other'; };

/** Keep the snapshot's revisions, one row per scope. */
export async function storeRevs(db: TraversaDb, projectId: string, revs: ReadonlyMap<string, string>): Promise<void> {
  const byScope = new Map<string, Record<string, string>>();
  for (const [k, rev] of revs) {
    const s = scopeKey(k);
    let m = byScope.get(s);
    if (!m) byScope.set(s, (m = {}));
    m[k] = rev;
  }
  await db.teamRevs.bulkPut([...byScope].map(([s, r]) => ({ p: projectId, s, r })));
}

/** The snapshot's revision of each key that has one. */
export async function revsOf(db: TraversaDb, projectId: string, keys: readonly string[]): Promise<Map<string, string>> {
  const scopes = [...new Set(keys.map(scopeKey))];
  const rows = await db.teamRevs.bulkGet(scopes.map((s) => [projectId, s] as [string, string]));
  const out = new Map<string, string>();
  const held = new Map(rows.flatMap((row) => (row ? [[row.s, row.r] as const] : [])));
  for (const k of keys) { const rev = held.get(scopeKey(k))?.[k]; if (rev) out.set(k, rev); }
  return out;
}

/** A revision that follows `parent` (`<n+1>-<random>`): with `_revisions` it extends the parent's branch. */
export function childRevision(parent: string): { _rev: string; _revisions: { start: number; ids: string[] } } {
  const [n, hash] = [Number(parent.slice(0, parent.indexOf('-'))), parent.slice(parent.indexOf('-') + 1)];
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { _rev: `${n + 1}-${id}`, _revisions: { start: n + 1, ids: [id, hash] } };
}
