/**
 * Record keys: what each stored (and synced) record of a project is, as a readable path such as
 * `label/HM3D00025/WHEELCHAIR/node_3|node_7/alice`. Components escape only `%` and `/`, so ids,
 * segment keys and names stay legible in a database browser. The same key is the record's key
 * in the browser's store and its `_id` in a CouchDB database.
 */

/** What one kind of record is: the parts of its key, where it belongs, and who may write it. */
export interface KindSpec {
  /** What each part of the key after the kind names (their number is the key's arity). */
  readonly parts: readonly string[];
  /** The scope it is assembled, validated and replaced with: the project (`top`), or the scene or QA item its first part names. */
  readonly scope: 'top' | 'scene' | 'item';
  /** Only a project's leads write it; the words for that work ("only a lead changes …"). */
  readonly lead?: string;
  /** The key part that names the one member who may write it (their label, their review). */
  readonly owner?: number;
  /** Its `order` is only its place in a table other people's records share: a change of place alone is no change (records.ts sameRec). */
  readonly placeOnly?: true;
}

/**
 * Every kind of stored (and synced) record, one entry each. The key's arity, the scope and
 * browser bucket, the owner, the lead's work, whether only its place can change, and the team
 * server's key check (validateDoc.ts) are all read from here; a record's value is assembled into
 * the project in assemble.ts and merged in merge.ts.
 */
export const RECORD_KINDS = {
  project: { parts: [], scope: 'top', lead: 'the project' },
  taxonomy: { parts: [], scope: 'top', lead: 'the taxonomy' },
  profile: { parts: ['profile name'], scope: 'top', lead: 'agent profiles' },
  scene: { parts: ['scene id'], scope: 'scene', lead: 'scenes' },
  node: { parts: ['scene id', 'node id'], scope: 'scene', lead: 'the graph' },
  edge: { parts: ['scene id', 'edge id'], scope: 'scene', lead: 'the graph' },
  label: { parts: ['scene id', 'agent', 'segment', 'author'], scope: 'scene', owner: 3, placeOnly: true },
  adjudication: { parts: ['scene id', 'agent', 'segment'], scope: 'scene', lead: 'label disputes' },
  qaitem: { parts: ['item id'], scope: 'item' },
  review: { parts: ['item id', 'reviewer'], scope: 'item', owner: 1, placeOnly: true },
  qaadjudication: { parts: ['item id'], scope: 'item', lead: 'review disputes' },
} as const satisfies Record<string, KindSpec>;

export type RecordKind = keyof typeof RECORD_KINDS;
const KIND_SPECS: Record<string, KindSpec> = RECORD_KINDS;
export const RECORD_KIND_NAMES = Object.keys(RECORD_KINDS) as RecordKind[];

/** How many components follow the kind in a key of each kind. */
export const ARITY = Object.fromEntries(RECORD_KIND_NAMES.map((k) => [k, RECORD_KINDS[k].parts.length])) as Record<RecordKind, number>;

/** The spec of a kind named by a key's first component (null for what is no kind). */
const specOf = (kind: string | undefined): KindSpec | null =>
  kind !== undefined && Object.prototype.hasOwnProperty.call(KIND_SPECS, kind) ? KIND_SPECS[kind]! : null;

// Almost no part holds a `%` or `/`: those are returned as they are, without running the regexes
// (a 1,000-scene project has ~150,000 keys, each made and read on import).
const escape = (part: string) => (part.includes('%') || part.includes('/') ? part.replace(/%/g, '%25').replace(/\//g, '%2F') : part);
const unescape = (part: string) => (part.includes('%') ? part.replace(/%2F/gi, '/').replace(/%25/g, '%') : part);

export function recordKey(kind: RecordKind, ...parts: string[]): string {
  if (parts.length !== ARITY[kind]) throw new RangeError(`a ${kind} key has ${ARITY[kind]} parts, not ${parts.length}`);
  return [kind, ...parts.map(escape)].join('/');
}

/** A key of each kind from its parts, in the order RECORD_KINDS names them. */
type KeyMaker<P extends readonly string[]> = (...parts: { [I in keyof P]: string }) => string;
export const keyOf = Object.fromEntries(RECORD_KIND_NAMES.map((k) => [k, (...parts: string[]) => recordKey(k, ...parts)])) as {
  readonly [K in RecordKind]: KeyMaker<(typeof RECORD_KINDS)[K]['parts']>;
};

export interface ParsedKey {
  kind: RecordKind;
  parts: string[];
}

/**
 * Words that are the machinery of JavaScript objects. Ids, agent names and authors become keys of
 * objects (a scene's labels by agent, by segment): a part named `__proto__` would replace the
 * table's prototype, not add an entry (a team member's label for agent `__proto__` once emptied
 * labels in every teammate's studio). No key part, nor a node id inside a segment (`a|b`), may be one.
 */
const RESERVED_PIECE = /(?:^|\|)(__proto__|constructor|prototype)(?:\||$)/;

/** The reserved word a key's parts use (null for none): such a key is not a record key. */
export function reservedWordIn(key: string): string | null {
  if (!key.includes('proto') && !key.includes('constructor')) return null;
  for (const part of key.split('/').slice(1)) {
    const m = RESERVED_PIECE.exec(unescape(part));
    if (m) return m[1]!;
  }
  return null;
}

/** Why a key is refused for a reserved word, in the words every reader uses. */
export const reservedWordReason = (word: string): string =>
  `"${word}" may not be an id, an agent or a name in a record key: it is a word of JavaScript objects`;

/** Why `parseKey` gives null for a key. */
export function unknownKeyReason(key: string): string {
  const word = reservedWordIn(key);
  return word ? reservedWordReason(word) : 'not a record key Traversa knows';
}

export function parseKey(key: string): ParsedKey | null {
  // Cut by hand rather than `split` and `shift`: a reload parses ~150,000 keys, and this took half
  // the time (measured in Node on 151,000 CapNav-shaped keys: 45–55 ms against 80–110 ms).
  const first = key.indexOf('/');
  const kind = first < 0 ? key : key.slice(0, first);
  const spec = specOf(kind);
  if (!spec) return null;
  const raw: string[] = [];
  for (let at = first; at >= 0;) {
    const next = key.indexOf('/', at + 1);
    raw.push(next < 0 ? key.slice(at + 1) : key.slice(at + 1, next));
    at = next;
  }
  if (raw.length !== spec.parts.length || reservedWordIn(key)) return null;
  // Most keys hold no `%`: their parts are as they are.
  return { kind: kind as RecordKind, parts: key.includes('%') ? raw.map(unescape) : raw };
}

/**
 * The scope a record belongs to: its scene (`scene:<id>`), its QA item (`item:<id>`) or the
 * project itself (`top`). A scope is assembled, validated and replaced as a whole.
 */
export function scopeOf(parsed: ParsedKey): string {
  const scope = RECORD_KINDS[parsed.kind].scope;
  return scope === 'top' ? 'top' : `${scope}:${parsed.parts[0]}`;
}

/**
 * The bucket a record is stored in, in the browser: one row per scene (its head, graph, labels and
 * decisions) and one per QA item, with the project's own records in `top`. A label decision
 * rewrites its scene's row — a size set by the scene, never by the project — and an import writes
 * one row per scene: the browser's cost per row written dominates (measured in Chromium, 45 MB as
 * 8,000 rows took 1.1–2.3 s to commit, as 1,000 rows 0.26–0.65 s).
 */
export function bucketOf(parsed: ParsedKey): string {
  return bucketIn(RECORD_KINDS[parsed.kind].scope, escape(parsed.parts[0] ?? ''));
}

/** The bucket of a record of this scope whose first key part is `first` (as the key holds it, escaped). */
const bucketIn = (scope: KindSpec['scope'], first: string): string => (scope === 'top' ? 'top' : scope === 'scene' ? `scene/${first}` : `qa/${first}`);

/** `scopeOf(parseKey(key))` without parsing the key into parts (null for what is not a record key). */
export function scopeOfKey(key: string): string | null {
  if (key.includes('%')) {
    const parsed = parseKey(key);
    return parsed && scopeOf(parsed);
  }
  // With no `%` in the key a bucket's part is the scope's: `scene/<id>` is `scene:<id>`, `qa/<id>` is `item:<id>`.
  const bucket = bucketOfKey(key);
  if (bucket === null || bucket === 'top') return bucket;
  return bucket.startsWith('scene/') ? `scene:${bucket.slice(6)}` : `item:${bucket.slice(3)}`;
}

/**
 * `bucketOf(parseKey(key))` without parsing the key into parts (null for what is not a record
 * key): a large import places ~150,000 records, and splitting each key cost ~4× this. Parts of a
 * key with no `%` are stored as they are, so the bucket is made of the key's own text.
 */
export function bucketOfKey(key: string): string | null {
  if (key.includes('%')) {
    const parsed = parseKey(key);
    return parsed && bucketOf(parsed);
  }
  const ends: number[] = [];
  for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) ends.push(i);
  const spec = specOf(ends.length ? key.slice(0, ends[0]) : key);
  if (!spec || ends.length !== spec.parts.length) return null;
  ends.push(key.length);
  return bucketIn(spec.scope, key.slice(ends[0]! + 1, ends[1]));
}
