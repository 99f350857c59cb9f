import { rowText, UnreadableBucket, type BucketRow } from './bucketText.ts';

/**
 * Reading a whole project's stored buckets (a reload) in pages, with what it costs moved off the
 * page's thread. Inflating the rows (bucketText.ts `packedRow`) was ~1 s of a 1,000-scene reload's
 * ~3 s on the page's thread, after reading them all (~0.55 s, the page idle). The bucket-read
 * worker (workers/bucketRead.worker.ts) runs this instead: one read-only transaction (the same
 * snapshot a single query gives), the next page asked for before the current one is inflated, each
 * page's texts posted as they are ready — so reading, inflating (there) and parsing (on the page)
 * overlap.
 */

/** One page of a project's buckets: their texts, rows stored as objects (before schema 6), rows that cannot be read. */
export interface BucketPage {
  texts: { b: string; text: string }[];
  legacy: BucketRow[];
  unreadable: { row: BucketRow; reason: string }[];
  /** The page's last bucket: a read that stops after this page can go on from here. */
  last: string;
}

export interface BucketReadRequest {
  id: number;
  /** The Dexie database's name (db.ts `TraversaDb`). */
  db: string;
  project: string;
  /** Read the buckets after this one (a read taken over from a worker that stopped). */
  after?: string;
  pageSize?: number;
}

export type BucketReadReply = { id: number; type: 'page'; page: BucketPage } | { id: number; type: 'done' } | { id: number; type: 'failed'; message: string };

/** Buckets a page holds: ~64 scenes' rows (~200 KB deflated, ~3 MB of text) — a short task on the page to parse. */
export const PAGE_SIZE = 64;

/** The records table's name and key ([project, bucket]) as db.ts declares them. */
const STORE = 'records';

/**
 * Every bucket row of `project`, a page at a time in key order, from one read-only transaction of
 * the database `dbName` (opened at its current version; never upgraded from here).
 */
export function readBucketPages(
  idb: IDBFactory,
  dbName: string,
  project: string,
  onPage: (page: BucketPage) => void,
  pageSize = PAGE_SIZE,
  after: string | null = null,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = idb.open(dbName);
    open.onerror = () => reject(open.error ?? new Error(`the browser's database ${dbName} cannot be opened`));
    // A database that does not exist yet is being created by this open: nothing to read.
    open.onupgradeneeded = () => {
      open.transaction?.abort();
      reject(new Error(`the browser's database ${dbName} does not exist`));
    };
    open.onsuccess = () => {
      const database = open.result;
      // The page upgrading the database (a newer studio in another tab) is not held up by this read.
      database.onversionchange = () => database.close();
      let failed = false;
      const fail = (e: unknown) => {
        if (failed) return;
        failed = true;
        database.close();
        reject(e instanceof Error ? e : new Error(String(e)));
      };
      let tx: IDBTransaction;
      try {
        tx = database.transaction(STORE, 'readonly');
      } catch (e) {
        return fail(e);
      }
      const store = tx.objectStore(STORE);
      tx.oncomplete = () => {
        database.close();
        if (!failed) resolve();
      };
      tx.onerror = tx.onabort = () => fail(tx.error ?? new Error('reading the stored project was aborted'));
      const ask = (after: string | null) => {
        const range = after === null ? IDBKeyRange.bound([project], [project, []]) : IDBKeyRange.bound([project, after], [project, []], true, false);
        const req = store.getAll(range, pageSize);
        req.onsuccess = () => {
          const rows = req.result as BucketRow[];
          // The next page is asked for first: the database reads it while this one is inflated.
          if (rows.length === pageSize) ask(rows[rows.length - 1]!.b);
          try {
            if (rows.length) onPage(pageOf(rows));
          } catch (e) {
            fail(e);
            tx.abort();
          }
        };
      };
      ask(after);
    };
  });
}

function pageOf(rows: readonly BucketRow[]): BucketPage {
  const page: BucketPage = { texts: [], legacy: [], unreadable: [], last: rows[rows.length - 1]!.b };
  for (const row of rows) {
    let text: string | undefined;
    try {
      text = rowText(row);
    } catch (e) {
      if (!(e instanceof UnreadableBucket)) throw e;
      page.unreadable.push({ row, reason: e.message });
      continue;
    }
    if (text === undefined) page.legacy.push(row);
    else page.texts.push({ b: row.b, text });
  }
  return page;
}

/** The worker's service (and the same on the page's thread where no worker can start). */
export function bucketReadService(idb: IDBFactory | undefined): (reply: (m: BucketReadReply) => void) => (req: BucketReadRequest) => void {
  return (reply) => (req) => {
    if (!idb) return reply({ id: req.id, type: 'failed', message: 'this context has no IndexedDB' });
    readBucketPages(idb, req.db, req.project, (page) => reply({ id: req.id, type: 'page', page }), req.pageSize, req.after ?? null).then(
      () => reply({ id: req.id, type: 'done' }),
      (e: unknown) => reply({ id: req.id, type: 'failed', message: e instanceof Error ? e.message : String(e) }),
    );
  };
}
