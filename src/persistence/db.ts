import Dexie, { type Table } from 'dexie';
import { bucketOfKey, parseKey, scopeOf } from '../core/records/keys.ts';
import { bucketRecords, bucketRow, type BucketRow, type RecordMap } from './bucketText.ts';

/**
 * One stored project document: the current one, the one the last import replaced, and a
 * stored copy that could not be opened (set aside, never deleted, so nothing is lost).
 */
export interface StoredDocument {
  slot: 'current' | 'previous' | 'damaged';
  savedAt: number;
  /** Validated and migrated on load (core/migrate.ts, called by autosave.ts); stored as plain data. */
  project: unknown;
}

/** The files of one scan (main file and side files), stored once and referenced by scenes by `key`. */
export interface StoredMesh {
  key: string;
  savedAt: number;
  files: { name: string; type: string; blob: Blob }[];
}

/** One cached judge verdict, keyed by (judge id, prompt version, reason, notes): re-scoring is free and reproducible. */
export interface StoredVerdict {
  key: string;
  correct: boolean;
  explanation?: string;
}

/** One cached chat reply (task generation), keyed by a hash of what was asked (core/taskgen/ask.ts `replyKey`); the key of the endpoint is never in it. */
export interface StoredReply {
  key: string;
  content: string;
  savedAt: number;
}

/**
 * A scene's suggestions for one scan: derived data, kept apart from the document (never in undo
 * history or exports) and read back with the project. The row is validated on load
 * (suggestionStore.ts); `version` is the row's own format version.
 */
export interface StoredSuggestions {
  sceneId: string;
  /** The scan they were computed on (the scene's `mesh.key` then). */
  meshKey: string;
  version: number;
  savedAt: number;
  /** Plain data: `{ computedAt, basis, agents }` at `version`. */
  suggestions: unknown;
}

/** One project in the list: what it is called, how big it is, which scans it uses. */
export interface ProjectRow {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  /** Approximate bytes of its records (JSON length), kept up to date with every write. */
  bytes: number;
  scenes: number;
  /** Keys of the stored scans its scenes use (so a scan no project uses can be deleted). */
  meshKeys: string[];
  /** Where it came from, when it matters (`sample`: the bundled sample house). */
  origin?: 'sample';
  /** The team database it is connected to (persistence/teamSync.ts); never in a synced record. */
  sync?: { url: string; user: string };
}

/** A record changed here that the team database has not been given yet (written with the change, in its transaction). */
export interface OutboxRow {
  p: string;
  k: string;
  /** When the change was made here (a later change of the record sets it anew). */
  at: number;
  /** The `at` of the version given to the team mirror, and the revision it got there: the row goes when the server confirms that revision. */
  sent?: number;
  rev?: string;
}

/** The revisions a joined team database's documents had when the project was read from it (teamSnapshot.ts), in rows by a hash of the key. */
export interface TeamRevsRow {
  p: string;
  s: string;
  r: Record<string, string>;
}

/**
 * A scene's touring video with its poses and sampled frame sets (videos.ts): kept with the project
 * on this machine, exported in the release layout, never in a synced record (too large, derived).
 */
export interface StoredVideo {
  p: string;
  sceneId: string;
  savedAt: number;
  blob: Blob;
  mime: string;
  /** A TourPoses document (core/tour/types.ts), validated on load. */
  poses: unknown;
  /** Sampled frames per budget: JPEG blobs in file order, described by `frames` (SampledFrame[]). */
  frameSets: { budget: string; frames: unknown; jpegs: Blob[] }[];
}

/** Stored records of a project (bucketText.ts says what a row holds). */
export type { BucketRow };

/** A stored row that could not be read: set aside with the reason, never deleted. */
export interface SetAsideRow {
  id?: number;
  table: string;
  reason: string;
  at: number;
  row: unknown;
}

export class TraversaDb extends Dexie {
  documents!: Table<StoredDocument, string>;
  meshFiles!: Table<StoredMesh, string>;
  verdicts!: Table<StoredVerdict, string>;
  suggestions!: Table<StoredSuggestions, [string, string]>;
  setAside!: Table<SetAsideRow, number>;
  projects!: Table<ProjectRow, string>;
  records!: Table<BucketRow, [string, string]>;
  outbox!: Table<OutboxRow, [string, string]>;
  videos!: Table<StoredVideo, [string, string]>;
  replies!: Table<StoredReply, string>;
  teamRevs!: Table<TeamRevsRow, [string, string]>;

  constructor(name = 'traversa') {
    super(name);
    // Version 1: one table of documents keyed by slot. New versions add an upgrade() here.
    this.version(1).stores({ documents: 'slot' });
    // Version 2: scans are stored with the project so a reload does not ask for the file again.
    this.version(2).stores({ documents: 'slot', meshFiles: 'key' });
    // Version 3: the HTTP judge's verdict cache.
    this.version(3).stores({ documents: 'slot', meshFiles: 'key', verdicts: 'key' });
    // Version 4: suggestions kept with the project, keyed by scene and scan; unreadable rows set aside.
    this.version(4).stores({ documents: 'slot', meshFiles: 'key', verdicts: 'key', suggestions: '[sceneId+meshKey], sceneId', setAside: '++id, table' });
    // Version 5: several projects, each stored as records in buckets, written only where a command
    // changed them (core/records). The one-document slots stay readable: the first start moves
    // them into projects (projectStorage.ts) and leaves the old rows in place.
    this.version(5).stores({
      documents: 'slot',
      meshFiles: 'key',
      verdicts: 'key',
      suggestions: '[sceneId+meshKey], sceneId',
      setAside: '++id, table',
      projects: 'id, updatedAt',
      records: '[p+b], p, [p+s]',
      outbox: '[p+k], p',
    });
    // Version 6: a bucket's records are stored as one JSON text (`j`) instead of objects (`r`) —
    // the browser copies text into the database without walking it — and a scene's records share
    // one bucket (keys.ts `bucketOf`): rows of version 5 are regrouped.
    this.version(6)
      .stores({
        documents: 'slot',
        meshFiles: 'key',
        verdicts: 'key',
        suggestions: '[sceneId+meshKey], sceneId',
        setAside: '++id, table',
        projects: 'id, updatedAt',
        records: '[p+b], p, [p+s]',
        outbox: '[p+k], p',
      })
      .upgrade(async (tx) => {
        const table = tx.table<BucketRow, [string, string]>('records');
        const rows = await table.toArray();
        await table.clear();
        await table.bulkPut(regroupBuckets(rows));
      });
    // Version 7: touring videos, one per project and scene (videos.ts).
    this.version(7).stores({
      documents: 'slot',
      meshFiles: 'key',
      verdicts: 'key',
      suggestions: '[sceneId+meshKey], sceneId',
      setAside: '++id, table',
      projects: 'id, updatedAt',
      records: '[p+b], p, [p+s]',
      outbox: '[p+k], p',
      videos: '[p+sceneId], p',
    });
    // Version 8: cached replies of the task-generation endpoint (replyCache.ts), like the judge's verdicts.
    this.version(8).stores({
      documents: 'slot',
      meshFiles: 'key',
      verdicts: 'key',
      suggestions: '[sceneId+meshKey], sceneId',
      setAside: '++id, table',
      projects: 'id, updatedAt',
      records: '[p+b], p, [p+s]',
      outbox: '[p+k], p',
      videos: '[p+sceneId], p',
      replies: 'key',
    });
    // Version 9: the revisions of a team database's documents as the project was read from it (teamSnapshot.ts).
    this.version(9).stores({
      documents: 'slot',
      meshFiles: 'key',
      verdicts: 'key',
      suggestions: '[sceneId+meshKey], sceneId',
      setAside: '++id, table',
      projects: 'id, updatedAt',
      records: '[p+b], p, [p+s]',
      outbox: '[p+k], p',
      videos: '[p+sceneId], p',
      replies: 'key',
      teamRevs: '[p+s], p',
    });
  }
}

/**
 * Stored rows regrouped into the buckets `bucketOf` gives their records now, as text. A row that
 * cannot be read, a key no bucket holds, or records that cannot be written as text stay as they
 * were, to be set aside with their reason when the project opens (never lost).
 */
export function regroupBuckets(rows: readonly BucketRow[]): BucketRow[] {
  const out: BucketRow[] = [];
  const groups = new Map<string, { p: string; b: string; s: string; map: RecordMap }>();
  for (const row of rows) {
    let map: RecordMap;
    try {
      map = bucketRecords(row);
    } catch {
      out.push(row);
      continue;
    }
    for (const [key, held] of Object.entries(map)) {
      const parsed = parseKey(key);
      const b = bucketOfKey(key) ?? row.b,
        s = parsed ? scopeOf(parsed) : row.s;
      let group = groups.get(`${row.p}\n${b}`);
      if (!group) groups.set(`${row.p}\n${b}`, (group = { p: row.p, b, s, map: {} }));
      group.map[key] = held;
    }
  }
  for (const { p, b, s, map } of groups.values()) {
    try {
      out.push(bucketRow(p, b, s, map));
    } catch {
      out.push({ p, b, s, r: map, bytes: 0 } as unknown as BucketRow);
    }
  }
  return out;
}
