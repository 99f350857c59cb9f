import { deflateSync, inflateSync } from 'fflate';
import type { Rec } from '../core/records/records.ts';

/**
 * Stored records of a project that one command changes together (keys.ts `bucketOf`): the JSON
 * text of its records (`mapText` says why text), deflated in `z` (`packedRow` says why); rows
 * written before that hold the text itself in `j`.
 */
export interface BucketRow {
  p: string;
  b: string;
  /** The scope the bucket's records belong to (keys.ts `scopeOf`), so a scope is read in one query. */
  s: string;
  z?: Uint8Array;
  /** The length of `z` inflated (inflating into a buffer of the right size costs a third of growing one). */
  u?: number;
  j?: string;
  /** The text's length: the project's size in its list row is the sum. */
  bytes: number;
}

/**
 * A row holding `text` deflated. Chromium reads IndexedDB values at ~16 MB/s whatever their number
 * (measured here: 1,000 rows of 45 KB in 2.7–3.0 s, 1,000 of 7 KB in 0.42–0.44 s, text or bytes
 * alike), so reading a 1,000-scene project (45 MB of text) was most of a reload; deflated (level 1,
 * ~11× smaller on CapNav's records) it is read in a sixth of that. Inflating it costs ~0.6–0.7 s, on
 * a reload in the bucket-read worker while the page parses what it has inflated (bucketPages.ts); the
 * browser's DecompressionStream was slower, row by row (there: 1.9 s against fflate's 0.8 s for
 * 1,000 scenes). A label decision's scene row (~45 KB) costs ~1 ms more to write.
 */
export function packedRow(p: string, b: string, s: string, text: string): BucketRow {
  // Deflating a row costs ~60–170 µs however small it is (fflate's tables): 20,000 imported QA
  // items, a row each, spent 5.7 s of one main-thread task on it. A short row is kept as text.
  if (text.length < PLAIN_BELOW) return { p, b, s, j: text, bytes: text.length };
  const utf8 = encoder.encode(text);
  const z = deflateSync(utf8, { level: 1 });
  // Only the bytes themselves are stored: a view of a larger buffer would store all of it.
  return { p, b, s, z: z.byteLength === z.buffer.byteLength ? z : z.slice(), u: utf8.length, bytes: text.length };
}
const encoder = new TextEncoder();
/** Rows whose text is shorter are stored as it is (`j`). */
export const PLAIN_BELOW = 4096;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The JSON text a stored row holds (its own text when written before rows were deflated). */
export function rowText(row: BucketRow): string | undefined {
  if (row.z instanceof Uint8Array) {
    try {
      const sized = typeof row.u === 'number' && Number.isSafeInteger(row.u) && row.u >= 0 && row.u <= 1 << 30;
      const bytes = inflateSync(row.z, sized ? { out: new Uint8Array(row.u!) } : undefined);
      if (sized && bytes.length !== row.u) throw new Error(`${bytes.length} bytes, not the ${row.u} written`);
      return decoder.decode(bytes);
    } catch (e) {
      throw new UnreadableBucket(`the stored bucket's deflated text cannot be read (${(e as Error).message})`);
    }
  }
  return typeof row.j === 'string' ? row.j : undefined;
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
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i]!;
    list[i] = [r.key, r.value, r.order];
  }
  return JSON.stringify(list);
}

/** A stored bucket whose text cannot be read as records: the row is set aside whole, with this reason. */
export class UnreadableBucket extends Error {}

/** The records a stored row holds (rows written before the text form, schema ≤ 5, held objects in `r`). */
export function bucketRecords(row: BucketRow): RecordMap {
  const map: RecordMap = {};
  for (const r of bucketRecs(row)) map[r.key] = { value: r.value, order: r.order };
  return map;
}

/** The same as a list of records (what a load reads: no map built per bucket on the way). */
export function bucketRecs(row: BucketRow): Rec[] {
  const legacy = (row as { r?: unknown }).r;
  const text = rowText(row);
  if (text !== undefined) return textRecs(text);
  if (!legacy || typeof legacy !== 'object' || Array.isArray(legacy)) throw new UnreadableBucket('the stored bucket holds no records text');
  return parsedRecs(legacy);
}

/** The records of a bucket's text (`rowText`): a list of `[key, value, order]`, or the older map form. */
export function textRecs(text: string): Rec[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UnreadableBucket(`the stored bucket is not JSON (${(e as Error).message})`);
  }
  return parsedRecs(parsed);
}

function parsedRecs(parsed: unknown): Rec[] {
  if (Array.isArray(parsed)) {
    const recs = new Array<Rec>(parsed.length);
    const keys = new Set<string>();
    for (let i = 0; i < parsed.length; i++) {
      const entry: unknown = parsed[i];
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== 'string' || entry[0] === '__proto__' || typeof entry[2] !== 'number')
        throw new UnreadableBucket(`the stored record at ${i} is not [key, value, order]`);
      keys.add(entry[0]);
      recs[i] = { key: entry[0], value: entry[1], order: entry[2] };
    }
    // A key twice (never written so): the last holds, as it would in a map.
    return keys.size === recs.length ? recs : [...new Map(recs.map((r) => [r.key, r])).values()];
  }
  if (!parsed || typeof parsed !== 'object') throw new UnreadableBucket('the stored bucket is not a list of records');
  return Object.entries(parsed).map(([key, held]) => {
    if (key === '__proto__' || !held || typeof held !== 'object' || !('value' in held) || typeof (held as { order?: unknown }).order !== 'number')
      throw new UnreadableBucket(`the stored record ${key} is not {value, order}`);
    return { key, value: (held as { value: unknown }).value, order: (held as { order: number }).order };
  });
}

/** A bucket row for records given by key (its size is the text's length). */
export function bucketRow(p: string, b: string, s: string, map: RecordMap): BucketRow {
  return packedRow(p, b, s, mapText(map));
}
