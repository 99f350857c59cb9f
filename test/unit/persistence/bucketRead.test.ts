import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { serve, type WorkerScopeLike } from '../../../src/engine/workerPort.ts';
import { TraversaDb } from '../../../src/persistence/db.ts';
import { bucketReadService, readBucketPages, type BucketPage } from '../../../src/persistence/bucketPages.ts';
import { readStoredRecs } from '../../../src/persistence/bucketRead.ts';
import type { Rec } from '../../../src/core/records/records.ts';
import { append } from '../../../src/core/arrays.ts';
import { bucketRecs, rowText } from '../../../src/persistence/bucketText.ts';
import { createStoredProject } from '../../../src/persistence/recordStore.ts';
import { houseScene, releaseFiles } from '../../support/releaseBuilder.ts';
import { InThreadWorker } from '../../support/inThreadWorker.ts';

// A reload reads the project's buckets in the bucket-read worker, a page at a time from one
// transaction, and parses them on the page as they arrive. What it reads must be exactly what one
// query of the project's rows gives, however it is paged and whatever happens to the worker.

let n = 0;
async function stored(scenes: number): Promise<{ db: TraversaDb; id: string }> {
  const db = new TraversaDb(`traversa-bucket-read-${n++}`);
  const release = (k: number, prefix: string) =>
    readRelease(releaseFiles(Array.from({ length: k }, (_, i) => houseScene(`${prefix}${String(i).padStart(5, '0')}`))), prefix).project!;
  const row = await createStoredProject(db, release(scenes, 'HM3D'));
  // Another project in the same table: none of its rows may be read.
  await createStoredProject(db, release(3, 'MP3D'));
  return { db, id: row.id };
}

/** Read through `start`'s worker: the records in the order they were handed over, and what could not be read. */
async function readAll(db: TraversaDb, id: string, start: Parameters<typeof readStoredRecs>[3]) {
  const recs: Rec[] = [];
  const problems = await readStoredRecs(db.name, id, (page) => append(recs, page), start);
  return { recs, ...problems };
}

const sorted = <T extends { key: string }>(recs: T[]) => [...recs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

describe('reading a stored project in pages (the reload)', () => {
  it('pages of any size give every bucket of the project once, in key order, as the rows hold them', async () => {
    const { db, id } = await stored(20);
    const rows = await db.records.where('p').equals(id).toArray();
    expect(rows.length).toBeGreaterThan(20);
    for (const size of [1, 7, rows.length, 500]) {
      const pages: BucketPage[] = [];
      await readBucketPages(indexedDB, db.name, id, (p) => pages.push(p), size);
      expect(pages.flatMap((p) => p.texts.map((t) => t.b))).toEqual(rows.map((r) => r.b));
      expect(pages.flatMap((p) => p.texts.map((t) => t.text))).toEqual(rows.map((r) => rowText(r)));
      expect(pages.every((p) => p.texts.length <= size && !p.legacy.length && !p.unreadable.length)).toBe(true);
    }
  });

  it('through the worker, the records are those of one query of the rows; a worker that stops midway is followed by a read here from where it stopped: nothing is read twice or left out', async () => {
    const { db, id } = await stored(12);
    const expected = sorted((await db.records.where('p').equals(id).toArray()).flatMap(bucketRecs));
    const service = bucketReadService(indexedDB);
    const viaWorker = await readAll(db, id, () => new InThreadWorker((scope) => serve(scope, service)));
    expect(sorted(viaWorker.recs)).toEqual(expected);
    expect(viaWorker.unreadable).toEqual([]);

    let worker: InThreadWorker | null = null;
    let pagesSent = 0;
    const crashing = (scope: WorkerScopeLike): WorkerScopeLike => ({
      addEventListener: (t, l) => scope.addEventListener(t, l),
      postMessage: (m, o) => {
        scope.postMessage(m, o);
        // The first page reaches the page, then the worker dies (out of memory, say).
        if ((m as { type?: string }).type === 'page' && ++pagesSent === 1) setTimeout(() => worker!.crash('out of memory'), 0);
      },
    });
    // Small pages (the request is rewritten inside the worker) so the crash comes before the end.
    const small = (scope: WorkerScopeLike) =>
      serve(crashing(scope), (reply) => {
        const handle = service(reply);
        return (req: Parameters<typeof handle>[0]) => handle({ ...req, pageSize: 2 });
      });
    // The records the page had taken from the worker when it stopped: the read here must go on after them.
    const recs: Rec[] = [];
    let takenAtCrash = -1;
    const problems = await readStoredRecs(
      db.name,
      id,
      (page) => {
        if (worker?.terminated && takenAtCrash < 0) takenAtCrash = recs.length;
        append(recs, page);
      },
      () => (worker = new InThreadWorker(small)),
    );
    const afterCrash = { recs, ...problems };
    expect(worker!.terminated).toBe(true);
    expect(pagesSent).toBeGreaterThanOrEqual(1);
    // The worker's first page reached the page before the crash, so the read here resumed after it.
    expect(takenAtCrash).toBeGreaterThan(0);
    expect(afterCrash.recs).toHaveLength(expected.length);
    expect(sorted(afterCrash.recs)).toEqual(expected);
  });

  it('a damaged row is reported with its reason, the rest read; a missing database is an error, not an empty project', async () => {
    const { db, id } = await stored(4);
    const scene = (await db.records.get([id, 'scene/HM3D00001']))!;
    await db.records.put({ ...scene, z: scene.z!.slice(0, 10) });
    const read = await readAll(db, id, () => null);
    expect(read.unreadable.map((u) => [u.row.b, u.reason])).toEqual([['scene/HM3D00001', expect.stringContaining('deflated text cannot be read')]]);
    expect(read.recs.some((r) => r.key.includes('HM3D00001'))).toBe(false);
    expect(read.recs.some((r) => r.key.includes('HM3D00002'))).toBe(true);
    await expect(
      readStoredRecs(
        'traversa-no-such-database',
        id,
        () => {},
        () => null,
      ),
    ).rejects.toThrow(/does not exist/);
  });
});
