import Dexie, { type Table } from 'dexie';

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
export interface StoredVerdict { key: string; correct: boolean; explanation?: string }

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

/** A stored row that could not be read: set aside with the reason, never deleted. */
export interface SetAsideRow { id?: number; table: string; reason: string; at: number; row: unknown }

export class TraversaDb extends Dexie {
  documents!: Table<StoredDocument, string>;
  meshFiles!: Table<StoredMesh, string>;
  verdicts!: Table<StoredVerdict, string>;
  suggestions!: Table<StoredSuggestions, [string, string]>;
  setAside!: Table<SetAsideRow, number>;

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
  }
}
