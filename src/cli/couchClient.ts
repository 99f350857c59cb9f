import { CliError, InputError } from './files.ts';

/**
 * A CouchDB server or database as the command line reaches it: plain HTTP with `fetch`, Basic
 * authentication. Credentials come from the URL (`http://alice:pw@host:5984/db`) or from
 * TRAVERSA_COUCH_USER / TRAVERSA_COUCH_PASSWORD; they are taken out of the URL at once, so no
 * message, table or error ever shows a password.
 */
export interface CouchTarget {
  /** The server's root, with a trailing slash and without credentials. */
  server: string;
  /** The database name, when the URL names one. */
  db: string | undefined;
  user: string | undefined;
  password: string | undefined;
}

/** CouchDB's rule for database names (system databases start with `_`). */
const DB_NAME = /^[a-z][a-z0-9_$()+/-]*$/;

export interface CouchEnv {
  TRAVERSA_COUCH_USER?: string;
  TRAVERSA_COUCH_PASSWORD?: string;
  [name: string]: string | undefined;
}

export function parseCouchUrl(text: string | undefined, env: CouchEnv, want: 'server' | 'db', what: string): CouchTarget {
  if (!text) throw new CliError(`missing ${what}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`${what} is not a URL: ${redactUrl(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`${what} must be an http:// or https:// URL`);
  const user = url.username ? decodeURIComponent(url.username) : env.TRAVERSA_COUCH_USER || undefined;
  // A user in the URL may take the password from the environment, so it stays off the command line.
  const password = url.password ? decodeURIComponent(url.password) : env.TRAVERSA_COUCH_PASSWORD || undefined;
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  if (want === 'server') return { server: `${url.origin}${path}/`, db: undefined, user, password };
  const cut = path.lastIndexOf('/');
  const db = decodeURIComponent(path.slice(cut + 1));
  if (!db) throw new CliError(`${what} must end in the database's name (${url.origin}/<db>)`);
  if (!DB_NAME.test(db)) throw new CliError(`"${db}" is not a CouchDB database name (lower-case letters, digits and _$()+-/, starting with a letter)`);
  return { server: `${url.origin}${path.slice(0, cut)}/`, db, user, password };
}

/** A URL as it may be shown: without its password. */
export function redactUrl(text: string): string {
  return text.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

export interface CouchResponse<T> {
  status: number;
  body: T;
}

export class Couch {
  constructor(readonly target: CouchTarget) {}

  /** Where the database is, for messages: never with credentials. */
  get dbUrl(): string {
    return this.target.server + encodeURIComponent(this.target.db ?? '');
  }

  private headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/json' };
    if (json) h['content-type'] = 'application/json';
    if (this.target.user !== undefined) {
      h.authorization = 'Basic ' + Buffer.from(`${this.target.user}:${this.target.password ?? ''}`, 'utf8').toString('base64');
    }
    return h;
  }

  /** One request against the server (`path` from its root); answers of any status come back. */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<CouchResponse<T>> {
    const url = this.target.server + path;
    let res: Response;
    try {
      res = await fetch(url, { method, headers: this.headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new InputError(`cannot reach the team server at ${this.target.server}: ${cause?.code ?? cause?.message ?? String(e)}`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { error: 'not_json', reason: text.slice(0, 200) };
    }
    return { status: res.status, body: parsed as T };
  }

  /** A request in the database (`path` after `<db>/`). */
  db<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<CouchResponse<T>> {
    return this.request<T>(method, encodeURIComponent(this.target.db ?? '') + (path ? `/${path}` : ''), body);
  }

  /** Who the server takes us for (null: anonymous). */
  async signedInAs(): Promise<string | null> {
    const res = await this.request<{ userCtx?: { name?: string | null } }>('GET', '_session');
    return res.status === 200 ? (res.body?.userCtx?.name ?? null) : null;
  }

  /**
   * The error for a refused request, said in the team's words: who was refused and why (not
   * signed in, wrong name or password, not a member), with the server's own reason.
   */
  async refusal(res: CouchResponse<unknown>, doing: string): Promise<InputError> {
    const reason = reasonOf(res.body);
    const where = this.target.db ? `the team database ${this.dbUrl}` : `the team server ${this.target.server}`;
    if (res.status !== 401 && res.status !== 403) return new InputError(`${where} answered ${res.status} while ${doing}: ${reason}`);
    const user = this.target.user;
    if (user === undefined)
      return new InputError(
        `${where} refused an anonymous request while ${doing} (${reason}): put a user in the URL or set TRAVERSA_COUCH_USER and TRAVERSA_COUCH_PASSWORD`,
      );
    const who = await this.signedInAs().catch(() => null);
    const why =
      who !== user ? 'wrong name or password' : this.target.db ? `not a member of ${this.target.db}, or not allowed to do this` : 'not a server admin';
    return new InputError(`${where} refused user ${user} while ${doing}: ${why} (${reason})`);
  }
}

export function reasonOf(body: unknown): string {
  const b = (body ?? {}) as { error?: unknown; reason?: unknown };
  return [b.error, b.reason].filter((x) => typeof x === 'string' && x).join(': ') || 'no reason given';
}
