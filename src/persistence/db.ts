import Dexie, { type Table } from 'dexie';

/**
 * One stored project document: the current one, the one the last import replaced, and a
 * stored copy that could not be opened (set aside, never deleted, so nothing is lost).
 */
export interface StoredDocument {
  slot: 'current' | 'previous' | 'damaged';
  savedAt: number;
  /** Validated and migrated on load (see load.ts); stored as plain data. */
  project: unknown;
}

export class TraversaDb extends Dexie {
  documents!: Table<StoredDocument, string>;

  constructor(name = 'traversa') {
    super(name);
    // Version 1: one table of documents keyed by slot. New versions add an upgrade() here.
    this.version(1).stores({ documents: 'slot' });
  }
}
