import type { Rec } from '../core/records/records.ts';
import { WorkerPort, type WorkerLike } from '../engine/workerPort.ts';
import { bucketReadService, type BucketPage, type BucketReadReply, type BucketReadRequest } from './bucketPages.ts';
import { bucketRecs, textRecs, UnreadableBucket, type BucketRow } from './bucketText.ts';

/** What could not be read of a project's stored buckets (its records went to the caller a page at a time). */
export interface StoredProblems {
  unreadable: { row: BucketRow; reason: string }[];
  /** Read but not records (the caller reads these rows again to set them aside). */
  unparsed: { b: string; reason: string }[];
}

/** The bucket-read worker (the `new Worker(new URL(…))` shape stays literal for Vite), or null where none can start. */
function startBucketWorker(): WorkerLike | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('../workers/bucketRead.worker.ts', import.meta.url), { type: 'module', name: 'bucket-read' });
  } catch {
    return null; // e.g. a policy that forbids workers: the page reads itself
  }
}

/**
 * Every record of a stored project, handed to `onRecs` a page at a time as the pages arrive: read
 * and inflated in the bucket-read worker, parsed here (bucketPages.ts says why). Where no worker can
 * start the page reads by the same code; a worker that stops midway is followed by a read on this
 * thread from the bucket after the last page taken, so no bucket is given twice.
 */
export function readStoredRecs(
  dbName: string,
  project: string,
  onRecs: (recs: Rec[]) => void,
  start: () => WorkerLike | null = startBucketWorker,
): Promise<StoredProblems> {
  return new Promise((resolve, reject) => {
    const out: StoredProblems = { unreadable: [], unparsed: [] };
    let last: string | undefined;
    const onReply = (m: BucketReadReply) => {
      if (m.type === 'page') {
        last = m.page.last;
        return onRecs(take(out, m.page));
      }
      port.close();
      if (m.type === 'done') resolve(out);
      else reject(new Error(`the stored project cannot be read: ${m.message}`));
    };
    const port = new WorkerPort<BucketReadRequest, BucketReadReply>({
      name: 'the bucket-read worker',
      start,
      here: bucketReadService(globalThis.indexedDB),
      onReply,
      // Where the read runs, as a mark of the load (the bench prints them; a browser test checks the worker).
      onReady: (where) => performance.mark(where === 'worker' ? 'load:worker-ready' : 'load:reading-here'),
      onCrash: () => bucketReadService(globalThis.indexedDB)(onReply)({ id: 1, db: dbName, project, ...(last === undefined ? {} : { after: last }) }),
    });
    port.post({ id: 1, db: dbName, project });
  });
}

/** A page's records; what cannot be read goes to `out`. */
function take(out: StoredProblems, page: BucketPage): Rec[] {
  const recs: Rec[] = [];
  for (const { b, text } of page.texts) {
    try {
      for (const r of textRecs(text)) recs.push(r);
    } catch (e) {
      if (!(e instanceof UnreadableBucket)) throw e;
      out.unparsed.push({ b, reason: e.message });
    }
  }
  for (const row of page.legacy) {
    try {
      for (const r of bucketRecs(row)) recs.push(r);
    } catch (e) {
      if (!(e instanceof UnreadableBucket)) throw e;
      out.unreadable.push({ row, reason: e.message });
    }
  }
  for (const u of page.unreadable) out.unreadable.push(u);
  return recs;
}
