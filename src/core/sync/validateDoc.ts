/**
 * The team database's own guard: `_design/traversa` with a `validate_doc_update` that CouchDB
 * (and pouchdb-server) runs on every write, whoever sends it — the studio, the command line or a
 * hand-made request. Members write records signed as themselves; nobody writes or deletes another
 * annotator's labels or reviews; malformed records are refused with the key and the reason.
 * Server and database admins may write anything (importing a release's unnamed baseline labels,
 * repairs).
 *
 * The function is kept as source text, in plain ES5, because it runs inside the server: Apache
 * CouchDB 3 evaluates it in SpiderMonkey, pouchdb-server with `new Function`. It cannot import
 * anything: the record kinds' arity, owners and lead work are written into its text from
 * RECORD_KINDS (keys.ts), and the key is unescaped the way keys.ts does.
 */
import { ARITY, RECORD_KIND_NAMES, RECORD_KINDS, type RecordKind } from '../records/keys.ts';

/** `traversa-lead:<db>`: the role that makes its holders leads of database `<db>` (cli/team.ts; also listed in its `_security.members.roles`). */
export const LEAD_ROLE_PREFIX = 'traversa-lead:';

/** Record kinds only a project's leads write (or delete): its shape and the decisions of disputes. */
export const LEAD_KINDS: readonly RecordKind[] = RECORD_KIND_NAMES.filter((k) => 'lead' in RECORD_KINDS[k]);

/** A lead's work, in the words the validation and the studio refuse it with. */
const LEAD_WORDS = Object.fromEntries(LEAD_KINDS.map((k) => [k, (RECORD_KINDS[k] as { lead: string }).lead])) as Record<string, string>;
/** The key part naming the one member who may write a record of each kind that has an owner. */
const OWNERS = Object.fromEntries(RECORD_KIND_NAMES.flatMap((k) => ('owner' in RECORD_KINDS[k] ? [[k, RECORD_KINDS[k].owner]] : [])));

export const VALIDATE_DOC_UPDATE = `function (newDoc, oldDoc, userCtx, secObj) {
  var ARITY = ${JSON.stringify(ARITY)};
  var OWNERS = ${JSON.stringify(OWNERS)};
  var VERDICTS = { 'accept': true, 'edit-accept': true, 'reject': true };
  var MAX_RECORD = 1000000, MAX_NOTE = 10000;
  var LEAD_PREFIX = '${LEAD_ROLE_PREFIX}';
  var LEAD_KINDS = { ${LEAD_KINDS.map((k) => `${k}: true`).join(', ')} };
  var LEAD_WORK = ${JSON.stringify(LEAD_WORDS)};
  var id = String(newDoc._id);
  var user = userCtx && userCtx.name;
  var roles = (userCtx && userCtx.roles) || [];

  function has(list, x) {
    if (!list || typeof list.length !== 'number') return false;
    for (var i = 0; i < list.length; i++) if (list[i] === x) return true;
    return false;
  }
  function refuse(why) { throw ({ forbidden: id + ': ' + why }); }
  function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }
  function isString(v) { return typeof v === 'string'; }
  function isNumber(v) { return typeof v === 'number' && isFinite(v); }
  function unescapePart(p) { return p.replace(/%2F/gi, '/').replace(/%25/g, '%'); }
  function text(v, what) {
    if (v === undefined) return;
    if (!isString(v)) refuse(what + ' must be text, not ' + (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v));
    if (v.length > MAX_NOTE) refuse(what + ' is ' + v.length + ' characters long; at most ' + MAX_NOTE);
  }
  function trimmed(v) { return isString(v) ? v.replace(/^\\s+|\\s+$/g, '') : v; }

  var admins = (secObj && secObj.admins) || {};
  if (has(roles, '_admin') || (user && has(admins.names, user))) return;
  for (var r = 0; r < roles.length; r++) if (has(admins.roles, roles[r])) return;

  if (!user) throw ({ unauthorized: id + ': sign in to write to this project' });

  // What no studio can use is not stored: a record past the size limit, text that is not text.
  var size = JSON.stringify(newDoc).length;
  if (size > MAX_RECORD) refuse('the record is ' + size + ' characters long; a record may be at most ' + MAX_RECORD);

  // Records carry no attachments: a file stored here would be served from the server's own origin.
  if (newDoc._attachments) refuse('records carry no attachments');

  var raw = id.split('/');
  var kind = raw.shift();
  if (!ARITY.hasOwnProperty(kind)) refuse('not a Traversa record key (unknown kind "' + kind + '")');
  if (raw.length !== ARITY[kind]) refuse('a ' + kind + ' key has ' + ARITY[kind] + ' parts after the kind, not ' + raw.length);
  var parts = [];
  for (var p = 0; p < raw.length; p++) parts.push(unescapePart(raw[p]));
  // Words of JavaScript objects name nothing: a studio keeps ids and agents as object keys (keys.ts RESERVED_PIECE).
  for (var q = 0; q < parts.length; q++) {
    var pieces = parts[q].split('|');
    for (var w = 0; w < pieces.length; w++) {
      if (pieces[w] === '__proto__' || pieces[w] === 'constructor' || pieces[w] === 'prototype') refuse('"' + pieces[w] + '" may not be an id, an agent or a name in a record key: it is a word of JavaScript objects');
    }
  }
  var owner = OWNERS.hasOwnProperty(kind) ? parts[OWNERS[kind]] : null;

  // Leads: users whose account carries this database's lead role — named by userCtx.db (CouchDB;
  // pouchdb-server may give a storage path, …/<db>), or one of the lead roles its _security lists.
  var dbName = String((userCtx && userCtx.db) || '');
  dbName = dbName.slice(dbName.lastIndexOf('/') + 1);
  var memberRoles = (secObj && secObj.members && secObj.members.roles) || [];
  var lead = dbName !== '' && has(roles, LEAD_PREFIX + dbName);
  for (var q = 0; q < roles.length; q++) if (String(roles[q]).indexOf(LEAD_PREFIX) === 0 && has(memberRoles, roles[q])) lead = true;
  if (LEAD_KINDS.hasOwnProperty(kind) && !lead) refuse('only a lead of this project changes ' + LEAD_WORK[kind] + '; ' + user + ' is an annotator here (ask a lead, or the admin: team create-project --lead)');

  if (newDoc._deleted === true) {
    // A lead removing a node or segment removes the labels on it, whoever wrote them.
    if (kind === 'label' && lead) return;
    if (owner === '') refuse('only an admin or a lead may delete an unnamed (baseline) label');
    if (owner !== null && owner !== user) refuse('only ' + owner + (kind === 'label' ? ' or a lead' : '') + ' may delete this ' + kind + ', not ' + user);
    return;
  }

  if (newDoc.author !== user) refuse('the record is signed as ' + newDoc.author + ', but you are ' + user);
  if (!isNumber(newDoc.order)) refuse('order must be a number');
  if (!isString(newDoc.at)) refuse('at must be the time of writing (a string)');
  var v = newDoc.value;
  if (!isObject(v)) refuse('value must be an object');

  if (kind === 'label') {
    if (owner !== user) refuse(owner === '' ? 'unnamed labels (a release baseline) are written by an admin only' : 'this label is ' + owner + '\\'s; you are ' + user);
    if (typeof v.traversable !== 'boolean') refuse('value.traversable must be true or false');
    if (trimmed(v.annotator) !== user) refuse('value.annotator must be ' + user + ', the label\\'s author');
    text(v.note, 'value.note');
  } else if (kind === 'review') {
    if (owner !== user) refuse('this review is ' + owner + '\\'s; you are ' + user);
    if (v.reviewer !== user) refuse('value.reviewer must be ' + user);
    if (!(isString(v.verdict) && VERDICTS.hasOwnProperty(v.verdict))) refuse('value.verdict must be accept, edit-accept or reject');
    text(v.comment, 'value.comment');
  } else if (kind === 'adjudication') {
    if (!isObject(v.label) || typeof v.label.traversable !== 'boolean') refuse('value.label.traversable must be true or false');
    if (!isString(v.by)) refuse('value.by must name the adjudicator');
    if (v.by !== user) refuse('the decision is signed by ' + v.by + ', but you are ' + user);
  } else if (kind === 'qaadjudication') {
    if (!isString(v.adjudicator)) refuse('value.adjudicator must name the adjudicator');
    if (v.adjudicator !== user) refuse('the decision is signed by ' + v.adjudicator + ', but you are ' + user);
  } else if (kind === 'node') {
    if (v.id !== parts[1]) refuse('value.id must be the key\\'s node id ' + parts[1]);
    if (!isObject(v.position) || !isNumber(v.position.x) || !isNumber(v.position.y) || !isNumber(v.position.z)) refuse('value.position must have numeric x, y and z');
  } else if (kind === 'edge') {
    if (v.id !== parts[1]) refuse('value.id must be the key\\'s edge id ' + parts[1]);
    if (!isString(v.from) || !isString(v.to)) refuse('value.from and value.to must be node ids');
  } else if (kind === 'scene') {
    if (!Array.isArray(v.questions)) refuse('value.questions must be a list');
  } else if (kind === 'qaitem') {
    if (v.id !== parts[0]) refuse('value.id must be the key\\'s item id ' + parts[0]);
  } else if (kind === 'profile') {
    if (v.name !== parts[0]) refuse('value.name must be the key\\'s profile name ' + parts[0]);
  }
}`;

export const TEAM_DESIGN_ID = '_design/traversa';

/** The design document a team database carries (installed by `cli team create-project`). */
export const teamDesignDoc = (): { _id: string; language: 'javascript'; validate_doc_update: string } => ({
  _id: TEAM_DESIGN_ID,
  language: 'javascript',
  validate_doc_update: VALIDATE_DOC_UPDATE,
});

/** What the validation lets a user do in a team database: everything (admin), a lead's work, or an annotator's. */
export type TeamRole = 'admin' | 'lead' | 'annotator';

/** The database a team URL names: its path's last part (`http://host:5984/house/` → `house`). */
export function databaseOf(dbUrl: string): string {
  const path = dbUrl
    .replace(/[?#].*$/, '')
    .replace(/^[a-z]+:\/\/[^/]*/i, '')
    .replace(/\/+$/, '');
  try {
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  } catch {
    return path.slice(path.lastIndexOf('/') + 1);
  }
}

/** A user's role in the team database at `dbUrl`, from their session roles (as the validation decides it). */
export function teamRoleOf(dbUrl: string, roles: readonly string[]): TeamRole {
  if (roles.includes('_admin')) return 'admin';
  const db = databaseOf(dbUrl);
  return roles.includes(`${LEAD_ROLE_PREFIX}${db}`) ? 'lead' : 'annotator';
}

/** The lead's work among record keys (what an annotator's edit would have the server refuse), in words; null when none. */
export function leadWorkIn(keys: Iterable<string>): string | null {
  const found = new Set<string>();
  for (const k of keys) {
    const kind = k.slice(0, k.indexOf('/') < 0 ? k.length : k.indexOf('/'));
    if (Object.hasOwn(LEAD_WORDS, kind)) found.add(LEAD_WORDS[kind]!);
  }
  // A scene's graph goes with it: "scenes" says it.
  if (found.has(LEAD_WORDS.scene!)) found.delete(LEAD_WORDS.node!);
  return found.size ? [...found].join(' and ') : null;
}
