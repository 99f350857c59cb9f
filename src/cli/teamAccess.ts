/**
 * Who may send what to the team server, decided before pouchdb-server sees the request (the
 * front, teamFront.ts). pouchdb-server enforces a database's members and its validate_doc_update;
 * what it does not guard — creating and deleting databases, `_users` sign-up, `_security`, design
 * documents, `_replicate`, listing databases, admin endpoints, and anything at all without
 * credentials — is refused here, with the status and words Apache CouchDB 3 uses for the same
 * request (401 `unauthorized` for a missing or insufficient login, as CouchDB answers a non-admin).
 */

/** The signed-in user as `_session` names them; null: anonymous. */
export interface UserCtx {
  name: string | null;
  roles: string[];
}

export interface Refusal {
  allow: false;
  status: number;
  error: string;
  reason: string;
}
export type Access = { allow: true; inspectBody?: 'bulk-docs' | 'new-doc' } | Refusal;

const refuse = (status: number, error: string, reason: string): Refusal => ({ allow: false, status, error, reason });
/** CouchDB 3's words. */
export const NEED_LOGIN = refuse(401, 'unauthorized', 'Authentication required.');
export const NOT_SERVER_ADMIN = refuse(401, 'unauthorized', 'You are not a server admin.');
export const NOT_DB_ADMIN = refuse(401, 'unauthorized', 'You are not a db or server admin.');

/** Server endpoints a signed-in non-admin may use. */
const OPEN_TO_USERS = new Set(['_uuids', '_up']);
/** Database endpoints only admins may use (as in CouchDB, where they need a db or server admin). */
const DB_ADMIN_ONLY = new Set(['_purge', '_compact', '_view_cleanup', '_revs_limit', '_purged_infos_limit', '_ensure_full_commit']);

export const isAdmin = (u: UserCtx | null): boolean => !!u?.roles.includes('_admin');

/**
 * The request's path as CouchDB reads it: `/`-separated segments, each percent-decoded (so
 * `%5Fdesign` is `_design`). Null for a path that does not decode.
 */
export function pathSegments(url: string): string[] | null {
  const parts = url.split('?')[0]!.split('/').slice(1);
  if (parts.at(-1) === '') parts.pop();
  try {
    return parts.map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

/**
 * Whether `user` may make this request. `inspectBody` asks the front to read a body that may
 * carry design documents (`_bulk_docs`, a POST of a new document) and refuse it with `NOT_DB_ADMIN`
 * when one does (see `designDocIn`).
 */
export function access(method: string, segments: readonly string[], user: UserCtx | null, destination?: string): Access {
  const m = method.toUpperCase();
  const [first = '', second, third] = segments;
  // The welcome and signing in and out: open to all, as in CouchDB.
  if (segments.length === 0) return m === 'GET' || m === 'HEAD' ? { allow: true } : refuse(405, 'method_not_allowed', 'Only GET,HEAD allowed');
  if (first === '_session' && segments.length === 1) return { allow: true };
  if (!user || user.name === null) return NEED_LOGIN;
  if (isAdmin(user)) return { allow: true };

  if (first.startsWith('_')) {
    if (OPEN_TO_USERS.has(first) && segments.length === 1 && (m === 'GET' || m === 'HEAD')) return { allow: true };
    // A user's own account: read it, or change its password. Nobody signs up; only admins make accounts.
    if (first === '_users' && second === `org.couchdb.user:${user.name}` && third === undefined && (m === 'GET' || m === 'HEAD' || m === 'PUT'))
      return { allow: true };
    return NOT_SERVER_ADMIN;
  }
  // A database: only admins make or delete one.
  if (segments.length === 1) {
    if (m === 'PUT' || m === 'DELETE') return NOT_SERVER_ADMIN;
    if (m === 'POST') return { allow: true, inspectBody: 'new-doc' };
    return { allow: true };
  }
  if (second === '_security') return m === 'GET' || m === 'HEAD' ? { allow: true } : NOT_DB_ADMIN;
  if (second !== undefined && DB_ADMIN_ONLY.has(second)) return m === 'GET' || m === 'HEAD' ? { allow: true } : NOT_DB_ADMIN;
  if (second === '_design' || second?.startsWith('_design/')) return m === 'GET' || m === 'HEAD' ? { allow: true } : NOT_DB_ADMIN;
  if (second === '_bulk_docs' && m === 'POST') return { allow: true, inspectBody: 'bulk-docs' };
  // COPY writes the copy under its Destination header: not onto a design document.
  if (m === 'COPY' && destination !== undefined && decodeSafe(destination).replace(/^\/+/, '').startsWith('_design/')) return NOT_DB_ADMIN;
  return { allow: true };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Whether a request body carries a design document: a `_bulk_docs` body's `docs`, or the document
 * POSTed to a database. A body that is not JSON is left to pouchdb-server (which refuses it).
 */
export function designDocIn(kind: 'bulk-docs' | 'new-doc', body: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return false;
  }
  const isDesign = (d: unknown) =>
    typeof d === 'object' && d !== null && typeof (d as { _id?: unknown })._id === 'string' && (d as { _id: string })._id.startsWith('_design/');
  if (kind === 'new-doc') return isDesign(v);
  const docs = typeof v === 'object' && v !== null ? (v as { docs?: unknown }).docs : undefined;
  return Array.isArray(docs) && docs.some(isDesign);
}
