import type { BadRecord } from '../records/assemble.ts';
import { parseKey, reservedWordIn, reservedWordReason } from '../records/keys.ts';
import { sameValue, type Rec } from '../records/records.ts';

/**
 * A record as a CouchDB document: its key is the `_id`, so one label, node or review is one
 * document that replicates, conflicts and is validated on its own. `author` is the CouchDB user
 * who wrote this revision (the server's validate_doc_update holds it to the signed-in user), `at`
 * when. Nothing else goes in: secrets (the HTTP judge's key) live outside the project and so
 * never reach a record.
 */
export interface RecordDoc {
  _id: string;
  _rev?: string;
  _deleted?: boolean;
  /** Revisions that lost an unresolved conflict (only when asked for with `conflicts=true`). */
  _conflicts?: string[];
  order: number;
  value: unknown;
  author: string;
  at: string;
}

export function recordToDoc(rec: Rec, author: string, at: string): RecordDoc {
  return { _id: rec.key, order: rec.order, value: rec.value, author, at };
}

/**
 * What a stored document is: a record (`rec`), a document with a record key whose envelope is
 * damaged (`bad`, to be reported, never dropped silently), or nothing of Traversa's (`null`:
 * design documents, `_local` checkpoints, deletions, ids that are not record keys).
 */
export type DocReading = { rec: Rec } | { bad: BadRecord } | null;

export function readDoc(doc: unknown): DocReading {
  if (!doc || typeof doc !== 'object') return null;
  const d = doc as Partial<RecordDoc>;
  if (typeof d._id !== 'string' || d._deleted === true || d._id.startsWith('_')) return null;
  if (!parseKey(d._id)) {
    // A Traversa key but for a reserved word is a bad record (said, counted), not someone else's document.
    const word = reservedWordIn(d._id);
    return word ? { bad: { key: d._id, reason: reservedWordReason(word) } } : null;
  }
  if (typeof d.order !== 'number' || !Number.isFinite(d.order)) return { bad: { key: d._id, reason: 'the document has no numeric order' } };
  if (!('value' in d) || d.value === undefined) return { bad: { key: d._id, reason: 'the document has no value' } };
  return { rec: { key: d._id, value: d.value, order: d.order } };
}

/** The record a document holds; null for anything that is not a readable Traversa record. */
export function docToRecord(doc: unknown): Rec | null {
  const r = readDoc(doc);
  return r && 'rec' in r ? r.rec : null;
}

/**
 * Whether a stored document already holds this record: same order and value. Who wrote it and
 * when do not count, so pushing what the server has writes nothing (and signs nothing anew).
 * The record is compared as it would be stored (JSON: absent `undefined` fields, no -0), or a
 * label with an unset optional field would never count as unchanged.
 */
export function docHolds(doc: Pick<RecordDoc, 'order' | 'value'>, rec: Rec): boolean {
  return doc.order === rec.order && sameValue(doc.value, asStored(rec.value));
}

const asStored = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
