import { randomBytes } from 'node:crypto';
import { LEAD_ROLE_PREFIX, TEAM_DESIGN_ID, teamDesignDoc } from '../core/sync/validateDoc.ts';
import { Couch, parseCouchUrl, reasonOf, type CouchEnv } from './couchClient.ts';
import { CliError, InputError } from './files.ts';

/**
 * Team administration over CouchDB's HTTP API (Apache CouchDB 3 and pouchdb-server alike):
 * users in `_users`, one database per project with its `_security` and the validation design
 * document. Every step is idempotent, so running a command again repairs what is missing and
 * changes nothing else.
 */

export const newPassword = (): string => randomBytes(12).toString('base64url');

const userDocId = (name: string) => `org.couchdb.user:${name}`;

export async function addUserCommand(url: string | undefined, name: string | undefined, password: string | undefined, env: CouchEnv): Promise<string> {
  if (!name) throw new CliError('team add-user needs <couch-url> <name>');
  if (name.startsWith('_') || name.includes(':')) throw new CliError(`"${name}" cannot be a CouchDB user name (no leading _, no :)`);
  const couch = new Couch(parseCouchUrl(url, env, 'server', '<couch-url>'));
  await ensureDb(couch, '_users');
  const path = `_users/${encodeURIComponent(userDocId(name))}`;
  const existing = await couch.request<{ _rev?: string; roles?: string[] }>('GET', path);
  if (existing.status === 200 && password === undefined) return `user ${name} already exists (unchanged; give --password to set a new one)`;
  if (existing.status !== 200 && existing.status !== 404) throw await couch.refusal(existing, `reading user ${name}`);
  const chosen = password ?? newPassword();
  const doc = {
    _id: userDocId(name),
    name,
    type: 'user',
    roles: existing.status === 200 ? (existing.body.roles ?? []) : [],
    password: chosen,
    ...(existing.status === 200 ? { _rev: existing.body._rev } : {}),
  };
  const res = await couch.request('PUT', path, doc);
  if (res.status !== 201 && res.status !== 202) throw await couch.refusal(res, `writing user ${name}`);
  const what = existing.status === 200 ? `set a new password for user ${name}` : `created user ${name}`;
  // A generated password is shown once, because nobody else knows it; a given one never is.
  return password === undefined ? `${what}; password (generated, shown only now): ${chosen}` : what;
}

interface Security {
  admins?: { names?: string[]; roles?: string[] };
  members?: { names?: string[]; roles?: string[] };
}

/** The CouchDB role that makes its holders leads of database `db` (listed in that database's `_security.members.roles`). */
export const leadRole = (db: string): string => `${LEAD_ROLE_PREFIX}${db}`;

/**
 * `team create-project`: the database, its members (annotators) and leads, and its validation.
 * A lead is a member whose account carries the project's lead role: leads change the graph,
 * scenes, profiles and taxonomy and adjudicate; annotators write their own labels, reviews and QA
 * work (core/sync/validateDoc.ts). Run again to add people; nobody is removed.
 */
export async function createProjectCommand(url: string | undefined, annotators: string[], env: CouchEnv, leads: string[] = []): Promise<string> {
  const target = parseCouchUrl(url, env, 'db', '<couch-url>/<db>');
  const couch = new Couch(target);
  const members = [...new Set([...leads, ...annotators])];
  // A member is named only once their account exists: a name without one would let the first
  // stranger to create that account read the project. Checked before anything is changed.
  const missing: string[] = [];
  for (const m of members) {
    const u = await couch.request('GET', `_users/${encodeURIComponent(userDocId(m))}`);
    if (u.status === 404) missing.push(m);
    else if (u.status !== 200) throw await couch.refusal(u, `looking up the account of ${m}`);
  }
  if (missing.length) {
    throw new InputError(
      `${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no account on this server: create ${missing.length === 1 ? 'it' : 'them'} first with "team add-user <couch-url> <name>" (the password is shown once); nothing was changed`,
    );
  }
  const lines: string[] = [];
  lines.push((await ensureDb(couch, target.db!)) ? `created database ${target.db}` : `database ${target.db} exists`);

  const sec = await couch.db<Security>('GET', '_security');
  if (sec.status !== 200) throw await couch.refusal(sec, "reading the database's members");
  const before = sec.body ?? {};
  const union = (a: string[] | undefined, b: string[]) => [...new Set([...(a ?? []), ...b])];
  const admin = await couch.signedInAs();
  const memberNames = union(before.members?.names, members);
  const memberRoles = union(
    before.members?.roles?.filter((r) => r !== '_admin'),
    leads.length ? [leadRole(target.db!)] : [],
  );
  const next: Security = {
    admins: { names: union(before.admins?.names, admin ? [admin] : []), roles: before.admins?.roles ?? [] },
    // With no member named, the database is closed to all but admins, as CouchDB 3 makes new ones
    // (pouchdb-server would leave it open to anyone).
    members: { names: memberNames, roles: memberNames.length || memberRoles.length ? memberRoles : ['_admin'] },
  };
  if (JSON.stringify(next) !== JSON.stringify(before)) {
    const put = await couch.db('PUT', '_security', next);
    if (put.status !== 200 && put.status !== 201) throw await couch.refusal(put, "setting the database's members");
  }
  for (const lead of leads) await grantRole(couch, lead, leadRole(target.db!));
  lines.push(memberNames.length ? `members: ${memberNames.join(', ')}` : 'no members yet: only admins can open it (add some with --member <name>)');
  if (leads.length) lines.push(`leads (role ${leadRole(target.db!)}): ${leads.join(', ')}`);
  lines.push(`${TEAM_DESIGN_ID}: ${await installTeamDesign(couch)}`);
  return lines.join('\n');
}

/** Add `role` to a user's account (an admin's write; the password is kept). */
async function grantRole(couch: Couch, name: string, role: string): Promise<void> {
  const path = `_users/${encodeURIComponent(userDocId(name))}`;
  const got = await couch.request<{ roles?: string[] } & Record<string, unknown>>('GET', path);
  if (got.status !== 200) throw await couch.refusal(got, `reading user ${name}`);
  const roles = Array.isArray(got.body.roles) ? got.body.roles : [];
  if (roles.includes(role)) return;
  const put = await couch.request('PUT', path, { ...got.body, roles: [...roles, role] });
  if (put.status !== 201 && put.status !== 202) throw await couch.refusal(put, `giving ${name} the role ${role}`);
}

/** Create a database unless it exists; whether it was created. */
async function ensureDb(couch: Couch, name: string): Promise<boolean> {
  const res = await couch.request('PUT', encodeURIComponent(name));
  if (res.status === 201 || res.status === 202) return true;
  if (res.status === 412) return false;
  throw await couch.refusal(res, `creating database ${name}`);
}

/** Install or update the validation design document in `couch`'s database; what was done. */
export async function installTeamDesign(couch: Couch): Promise<'installed' | 'updated' | 'unchanged'> {
  const path = TEAM_DESIGN_ID.split('/').map(encodeURIComponent).join('/');
  const want = teamDesignDoc();
  const have = await couch.db<{ _rev?: string; validate_doc_update?: string; language?: string }>('GET', path);
  if (have.status === 200 && have.body.validate_doc_update === want.validate_doc_update && have.body.language === want.language) return 'unchanged';
  if (have.status !== 200 && have.status !== 404) throw await couch.refusal(have, 'reading the design document');
  const res = await couch.db('PUT', path, have.status === 200 ? { ...want, _rev: have.body._rev } : want);
  if (res.status !== 201 && res.status !== 202) {
    if (res.status === 401 || res.status === 403) throw await couch.refusal(res, 'installing the design document (only admins can)');
    throw new InputError(`installing ${TEAM_DESIGN_ID} failed: ${reasonOf(res.body)}`);
  }
  return have.status === 200 ? 'updated' : 'installed';
}
