import type { Rec } from '../core/records/records.ts';

/**
 * Stored records of a project that one command changes together (keys.ts `bucketOf`); `j` is the
 * JSON text of an object mapping record key → `{ value, order }` (`mapText` says why text).
 */
export interface BucketRow {
  p: string;
  b: string;
  /** The scope the bucket's records belong to (keys.ts `scopeOf`), so a scope is read in one query. */
  s: string;
  j: string;
  /** The text's length: the project's size in its list row is the sum. */
  bytes: number;
}

/** A bucket's records by key. */
export type RecordMap = Record<string, { value: unknown; order: number }>;

/**
 * A bucket row holds its records as one JSON text (`j`), not as objects: the browser copies a
 * string into IndexedDB as bytes, where an object graph is walked and cloned value by value —
 * for a 1,000-scene import that copy was the largest single cost of storing it (~0.7 s of ~2 s).
 * Records are plain JSON data (validated by their schemas), so nothing is lost in the text.
 * The text is a list of `[key, value, order]` (one `JSON.stringify` of the list: about twice as
 * fast to write as an object keyed by record, for the ~150,000 records of a large import); rows
 * written as such an object (`{key: {value, order}}`) read as before.
 */
export function mapText(map: RecordMap): string {
  return JSON.stringify(Object.entries(map).map(([key, { value, order }]) => [key, value, order]));
}

/** The JSON text of records placed in one bucket, written without building the map first. */
export function recsText(recs: readonly Rec[]): string {
  const list = new Array<[string, unknown, number]>(recs.length);
  for (let i = 0; i < recs.length; i++) { const r = recs[i]!; list[i] = [r.key, r.value, r.order]; }
  return JSON.stringify(list);
}

/** A stored bucket whose text cannot be read as records: the row is set aside whole, with this reason. */
export class UnreadableBucket extends Error {}

/** The records a stored row holds (rows written before the text form, schema ≤ 5, held objects in `r`). */
export function bucketRecords(row: BucketRow): RecordMap {
  const legacy = (row as { r?: unknown }).r;
  if (typeof row.j !== 'string') {
    if (legacy && typeof legacy === 'object' && !Array.isArray(legacy)) return legacy as RecordMap;
    throw new UnreadableBucket('the stored bucket holds no records text');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.j);
  } catch (e) {
    throw new UnreadableBucket(`the stored bucket is not JSON (${(e as Error).message})`);
  }
  if (Array.isArray(parsed)) {
    const map: RecordMap = {};
    parsed.forEach((entry: unknown, i) => {
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== 'string' || entry[0] === '__proto__' || typeof entry[2] !== 'number') throw new UnreadableBucket(`the stored record at ${i} is not [key, value, order]`);
      map[entry[0]] = { value: entry[1], order: entry[2] };
    });
    return map;
  }
  if (!parsed || typeof parsed !== 'object') throw new UnreadableBucket('the stored bucket is not a list of records');
  for (const [key, held] of Object.entries(parsed)) {
    if (!held || typeof held !== 'object' || !('value' in held) || typeof (held as { order?: unknown }).order !== 'number') throw new UnreadableBucket(`the stored record ${key} is not {value, order}`);
  }
  return parsed as RecordMap;
}

/** A bucket row for records given by key (its size is the text's length). */
export function bucketRow(p: string, b: string, s: string, map: RecordMap): BucketRow {
  const j = mapText(map);
  return { p, b, s, j, bytes: j.length };
}
