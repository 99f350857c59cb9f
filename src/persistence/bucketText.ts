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

/** A bucket's records by key, as stored in its row's JSON text. */
export type RecordMap = Record<string, { value: unknown; order: number }>;

/**
 * A bucket row holds its records as one JSON text (`j`), not as objects: the browser copies a
 * string into IndexedDB as bytes, where an object graph is walked and cloned value by value —
 * for a 1,000-scene import that copy was the largest single cost of storing it (~0.7 s of ~2 s).
 * Records are plain JSON data (validated by their schemas), so nothing is lost in the text.
 */
export function mapText(map: RecordMap): string {
  return JSON.stringify(map);
}

/** The JSON text of records placed in one bucket, written without building the map first (a large import holds ~150,000). */
export function recsText(recs: readonly Rec[]): string {
  const parts: string[] = [];
  for (const rec of recs) parts.push(`${JSON.stringify(rec.key)}:{"value":${JSON.stringify(rec.value) ?? 'null'},"order":${JSON.stringify(rec.order) ?? '0'}}`);
  return `{${parts.join(',')}}`;
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
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UnreadableBucket('the stored bucket is not an object of records');
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
