/**
 * Record keys: what each stored (and synced) record of a project is, as a readable path such as
 * `label/HM3D00025/WHEELCHAIR/node_3|node_7/alice`. Components escape only `%` and `/`, so ids,
 * segment keys and names stay legible in a database browser. The same key is the record's key
 * in the browser's store and its `_id` in a CouchDB database.
 */

export type RecordKind = 'project' | 'taxonomy' | 'profile' | 'scene' | 'node' | 'edge' | 'label' | 'adjudication' | 'qaitem' | 'review' | 'qaadjudication';

/** How many components follow the kind in a key of each kind. */
const ARITY: Record<RecordKind, number> = {
  project: 0,
  taxonomy: 0,
  profile: 1,
  scene: 1,
  node: 2,
  edge: 2,
  label: 4,
  adjudication: 3,
  qaitem: 1,
  review: 2,
  qaadjudication: 1,
};

// Almost no part holds a `%` or `/`: those are returned as they are, without running the regexes
// (a 1,000-scene project has ~150,000 keys, each made and read on import).
const escape = (part: string) => (part.includes('%') || part.includes('/') ? part.replace(/%/g, '%25').replace(/\//g, '%2F') : part);
const unescape = (part: string) => (part.includes('%') ? part.replace(/%2F/gi, '/').replace(/%25/g, '%') : part);

export function recordKey(kind: RecordKind, ...parts: string[]): string {
  if (parts.length !== ARITY[kind]) throw new RangeError(`a ${kind} key has ${ARITY[kind]} parts, not ${parts.length}`);
  return [kind, ...parts.map(escape)].join('/');
}

export const keyOf = {
  project: () => recordKey('project'),
  taxonomy: () => recordKey('taxonomy'),
  profile: (name: string) => recordKey('profile', name),
  scene: (sceneId: string) => recordKey('scene', sceneId),
  node: (sceneId: string, id: string) => recordKey('node', sceneId, id),
  edge: (sceneId: string, id: string) => recordKey('edge', sceneId, id),
  label: (sceneId: string, agent: string, seg: string, author: string) => recordKey('label', sceneId, agent, seg, author),
  adjudication: (sceneId: string, agent: string, seg: string) => recordKey('adjudication', sceneId, agent, seg),
  qaitem: (id: string) => recordKey('qaitem', id),
  review: (itemId: string, reviewer: string) => recordKey('review', itemId, reviewer),
  qaadjudication: (itemId: string) => recordKey('qaadjudication', itemId),
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
  if (reservedWordIn(key)) return null;
  // (Not `[kind, ...raw]`: a rest pattern walks the iterator, and a reload parses ~150,000 keys.)
  const raw = key.split('/');
  const kind = raw.shift();
  if (!kind || !Object.prototype.hasOwnProperty.call(ARITY, kind)) return null;
  if (raw.length !== ARITY[kind as RecordKind]) return null;
  // Most keys hold no `%`: their parts are as they are.
  return { kind: kind as RecordKind, parts: key.includes('%') ? raw.map(unescape) : raw };
}

/**
 * The scope a record belongs to: its scene (`scene:<id>`), its QA item (`item:<id>`) or the
 * project itself (`top`). A scope is assembled, validated and replaced as a whole.
 */
export function scopeOf(parsed: ParsedKey): string {
  switch (parsed.kind) {
    case 'scene':
    case 'node':
    case 'edge':
    case 'label':
    case 'adjudication':
      return `scene:${parsed.parts[0]}`;
    case 'qaitem':
    case 'review':
    case 'qaadjudication':
      return `item:${parsed.parts[0]}`;
    default:
      return 'top';
  }
}

/**
 * The bucket a record is stored in, in the browser: one row per scene (its head, graph, labels and
 * decisions) and one per QA item, with the project's own records in `top`. A label decision
 * rewrites its scene's row — a size set by the scene, never by the project — and an import writes
 * one row per scene: the browser's cost per row written dominates (measured in Chromium, 45 MB as
 * 8,000 rows took 1.1–2.3 s to commit, as 1,000 rows 0.26–0.65 s).
 */
export function bucketOf(parsed: ParsedKey): string {
  const a = escape(parsed.parts[0] ?? '');
  switch (parsed.kind) {
    case 'project':
    case 'taxonomy':
    case 'profile':
      return 'top';
    case 'scene':
    case 'node':
    case 'edge':
    case 'label':
    case 'adjudication':
      return `scene/${a}`;
    case 'qaitem':
    case 'review':
    case 'qaadjudication':
      return `qa/${a}`;
  }
}

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
  const kind = ends.length ? key.slice(0, ends[0]) : key;
  if (!kind || !Object.prototype.hasOwnProperty.call(ARITY, kind) || ends.length !== ARITY[kind as RecordKind]) return null;
  ends.push(key.length);
  const part = (i: number) => key.slice(ends[i]! + 1, ends[i + 1]);
  switch (kind as RecordKind) {
    case 'project':
    case 'taxonomy':
    case 'profile':
      return 'top';
    case 'scene':
    case 'node':
    case 'edge':
    case 'label':
    case 'adjudication':
      return `scene/${part(0)}`;
    case 'qaitem':
    case 'review':
    case 'qaadjudication':
      return `qa/${part(0)}`;
  }
}
