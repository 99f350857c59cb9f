import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { access, designDocIn, NOT_DB_ADMIN, pathSegments, type UserCtx } from './teamAccess.ts';

/**
 * The team server's front: the only thing on the public port. It answers CORS itself (only the
 * allowed origins; a request from another origin is refused, not just left unreadable), finds who
 * is asking (`_session` on pouchdb-server with the request's own credentials, remembered for a few
 * seconds), refuses what teamAccess.ts forbids, and passes the rest to pouchdb-server on a private
 * loopback port, streaming both ways. Nothing a client sends reaches the front's process as an
 * exception: every failure is a JSON error reply, none carries a stack or a server path. While
 * pouchdb-server is down (it is restarted by the supervisor) requests get 503.
 */
export interface FrontOptions {
  host: string;
  port: number;
  /** The private URL of pouchdb-server now (`http://127.0.0.1:P`), or null while it is down. */
  backend: () => string | null;
  /** Browser origins allowed to call the server with credentials. */
  origins: readonly string[];
  /** Largest request body accepted (bytes). */
  maxBodyBytes?: number;
  /** How long a sign-in cookie lasts (s): the cookie is kept by the browser that long, across a restart, as CouchDB 3's is. */
  sessionTimeoutS: number;
}

/**
 * pouchdb-server's sign-in cookie is a browser-session cookie (gone when the browser closes);
 * CouchDB 3's (`allow_persistent_cookies`) carries Max-Age, so a studio stays signed in across a
 * browser restart until the session expires. Given the same here, and `SameSite=Lax` said, not assumed.
 */
export function persistentSessionCookie(header: string | string[], maxAgeS: number): string | string[] {
  const one = (c: string) =>
    /^AuthSession=[^;]+/.test(c) && !/;\s*(max-age|expires)=/i.test(c) ? `${c}; Max-Age=${maxAgeS}${/;\s*samesite=/i.test(c) ? '' : '; SameSite=Lax'}` : c;
  return Array.isArray(header) ? header.map(one) : one(header);
}

const MAX_BODY = 64 * 1024 * 1024;
/** A `_bulk_docs` or new-document body read to look for design documents: at most this much. */
const MAX_INSPECTED = 16 * 1024 * 1024;
const SESSION_TTL_MS = 5_000;
const ALLOW_METHODS = 'GET, HEAD, POST, PUT, DELETE, COPY, OPTIONS';
const EXPOSE = 'Cache-Control, Content-Type, ETag, Server, Transfer-Encoding, X-Couch-Request-ID, X-CouchDB-Body-Time';
/** Headers pouchdb-server's CORS sets, replaced by the front's. */
const BACKEND_CORS = /^access-control-/i;
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** The credentials a request carries (its Basic header and sign-in cookie), as the key of the sessions remembered. */
const cookieOf = (req: IncomingMessage) => /(?:^|;\s*)AuthSession=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
const sessionKey = (req: IncomingMessage) => `${req.headers.authorization ?? ''}\u0000${cookieOf(req) ?? ''}`;

export function startFront(opts: FrontOptions): Promise<Server> {
  const sessions = new Map<string, { user: UserCtx | null; until: number } | Promise<UserCtx | null | 'bad'>>();
  const maxBody = opts.maxBodyBytes ?? MAX_BODY;
  const allowed = new Set(opts.origins.map((o) => o.replace(/\/+$/, '')));

  const send = (res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const text = JSON.stringify(body) + '\n';
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'must-revalidate', ...headers });
    res.end(text);
  };

  /** Who the request's credentials name, by asking pouchdb-server; 'bad' for credentials it refuses. */
  const whoIs = async (req: IncomingMessage, base: string): Promise<UserCtx | null | 'bad'> => {
    const auth = req.headers.authorization;
    const cookie = cookieOf(req);
    if (!auth && !cookie) return null;
    const key = sessionKey(req);
    const hit = sessions.get(key);
    if (hit && !(hit instanceof Promise) && hit.until > Date.now()) return hit.user;
    if (hit instanceof Promise) return hit;
    const asking = (async () => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (auth) headers.authorization = auth;
      if (cookie) headers.cookie = `AuthSession=${cookie}`;
      const r = await fetch(`${base}/_session`, { headers, signal: AbortSignal.timeout(10_000) });
      const body = (await r.json().catch(() => null)) as { userCtx?: UserCtx } | null;
      if (r.status === 401) return 'bad' as const;
      if (!r.ok || !body?.userCtx) throw new Error(`_session answered ${r.status}`);
      return body.userCtx.name === null
        ? null
        : { name: body.userCtx.name, roles: Array.isArray(body.userCtx.roles) ? body.userCtx.roles.filter((x) => typeof x === 'string') : [] };
    })();
    sessions.set(key, asking);
    try {
      const user = await asking;
      if (sessions.size > 1000) sessions.clear();
      if (user !== 'bad') sessions.set(key, { user, until: Date.now() + SESSION_TTL_MS });
      else sessions.delete(key);
      return user;
    } catch (e) {
      sessions.delete(key);
      throw e;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin;
    const cors: Record<string, string> = {};
    if (origin !== undefined && origin !== 'null' && allowed.has(origin)) {
      Object.assign(cors, {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': EXPOSE,
        vary: 'Origin',
      });
    } else if (origin !== undefined) {
      // A page on another origin: refused outright (CORS alone would let a simple write through unread).
      return send(res, 403, {
        error: 'forbidden',
        reason: `requests from ${origin.slice(0, 200)} are not allowed: start the team server with --origin ${origin.slice(0, 200)} to let a studio there use it`,
      });
    }
    if (req.method === 'OPTIONS' && origin !== undefined) {
      res.writeHead(204, {
        ...cors,
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? 'accept, authorization, content-type, origin, referer').slice(
          0,
          1000,
        ),
        'access-control-max-age': '600',
        'content-length': '0',
      });
      res.end();
      return;
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody)
      return send(res, 413, { error: 'too_large', reason: `the request body is larger than ${Math.round(maxBody / 1024 / 1024)} MB` }, cors);
    const segments = pathSegments(req.url ?? '/');
    if (!segments) return send(res, 400, { error: 'bad_request', reason: 'the path is not valid percent-encoding' }, cors);
    const base = opts.backend();
    if (!base)
      return send(
        res,
        503,
        { error: 'unavailable', reason: 'the team server’s database process is restarting; try again in a moment' },
        { ...cors, 'retry-after': '2' },
      );

    const user = await whoIs(req, base);
    if (user === 'bad') return send(res, 401, { error: 'unauthorized', reason: 'Name or password is incorrect.' }, cors);
    const verdict = access(req.method ?? 'GET', segments, user, typeof req.headers.destination === 'string' ? req.headers.destination : undefined);
    if (!verdict.allow) return send(res, verdict.status, { error: verdict.error, reason: verdict.reason }, cors);

    let body: Buffer | null = null;
    if (verdict.inspectBody) {
      body = await readBody(req, Math.min(maxBody, MAX_INSPECTED));
      if (body === null)
        return send(
          res,
          413,
          { error: 'too_large', reason: `a body written here is read before it is passed on: at most ${MAX_INSPECTED / 1024 / 1024} MB` },
          cors,
        );
      if (designDocIn(verdict.inspectBody, body.toString('utf8')))
        return send(res, NOT_DB_ADMIN.status, { error: NOT_DB_ADMIN.error, reason: NOT_DB_ADMIN.reason }, cors);
    }
    // Whether the request is still signed in when pouchdb-server says 401: a cookie session may have
    // expired since it was remembered (asked again, not taken from the memory). A name and password
    // do not expire: a member's 401 costs no second question.
    const stillSignedIn = async () => {
      if (user === null) return false;
      if (!cookieOf(req)) return true;
      sessions.delete(sessionKey(req));
      const again = await whoIs(req, base).catch(() => null);
      return again !== null && again !== 'bad';
    };
    // An attachment (db/doc/name) is never a page of the server's origin: handed over as a download.
    const download = segments.length >= 3 && !segments[0]!.startsWith('_') && !segments[1]!.startsWith('_');
    await proxy(req, res, base, body, cors, download ? DOWNLOAD : {}, maxBody, send, stillSignedIn, opts.sessionTimeoutS);
  };

  const server = createServer((req, res) => {
    req.on('error', () => res.destroy());
    res.on('error', () => undefined);
    handle(req, res).catch(() => send(res, 502, { error: 'bad_gateway', reason: 'the team server could not pass the request on; try again' }));
  });
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  // A continuous _changes feed stays open: no request time-out, but idle sockets are closed.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The whole body, or null past `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The error and reason of a reply (read up to 64 KB), where they are strings. */
async function errorOf(back: IncomingMessage): Promise<{ error?: string; reason?: string }> {
  try {
    const b = await readBody(back, 64 * 1024);
    const parsed = JSON.parse(b?.toString('utf8') ?? '') as { error?: unknown; reason?: unknown };
    return { ...(typeof parsed.error === 'string' ? { error: parsed.error } : {}), ...(typeof parsed.reason === 'string' ? { reason: parsed.reason } : {}) };
  } catch {
    return {};
  }
}

/** Headers that make a reply a download, never a page: a member's `.html` attachment ran as the server's own page. */
const DOWNLOAD = { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment', 'x-content-type-options': 'nosniff' };

type Send = (res: ServerResponse, status: number, body: Record<string, unknown>, headers?: Record<string, string>) => void;

/** Pass the request to pouchdb-server and its answer back, streaming; a 5xx answer is cut to its error and reason (no stack, no paths). */
function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  base: string,
  body: Buffer | null,
  cors: Record<string, string>,
  forced: Record<string, string>,
  maxBody: number,
  send: Send,
  stillSignedIn: () => Promise<boolean>,
  cookieMaxAgeS: number,
): Promise<void> {
  return new Promise((done) => {
    const target = new URL(base);
    const headers: IncomingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && k !== 'origin' && v !== undefined) headers[k] = v;
    headers.host = target.host;
    if (body) headers['content-length'] = String(body.length);
    const out = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (back) => {
      const status = back.statusCode ?? 502;
      if (status === 401 || status >= 500) {
        // Answered from the front: a signed-in non-member's 401 as CouchDB 3's 403 (she is known, just
        // not let in); a 5xx cut to its error and reason (no stack, no paths).
        void Promise.all([errorOf(back), status === 401 ? stillSignedIn() : false]).then(([{ error, reason }, signedIn]) => {
          if (status === 401 && !signedIn) {
            send(res, 401, { error: error ?? 'unauthorized', reason: reason?.slice(0, 2000) ?? 'unauthorized' }, cors);
          } else if (status === 401) {
            if (reason === 'You are not authorized to access this db.')
              send(res, 403, { error: 'forbidden', reason: 'You are not allowed to access this db.' }, cors);
            else send(res, 401, { error: error ?? 'unauthorized', reason: reason?.slice(0, 2000) ?? 'unauthorized' }, cors);
          } else {
            send(
              res,
              status,
              {
                error: error?.slice(0, 200) ?? 'internal_server_error',
                reason: reason !== undefined && !/\n\s+at /.test(reason) ? reason.slice(0, 500) : 'the database server failed on this request',
              },
              cors,
            );
          }
          done();
        });
        return;
      }
      const headersOut: Record<string, string | string[]> = { ...cors };
      for (const [k, v] of Object.entries(back.headers)) if (v !== undefined && !BACKEND_CORS.test(k) && !HOP.has(k) && k !== 'vary') headersOut[k] = v;
      // A download's headers are the front's, over the database's (an error answered above stays JSON).
      Object.assign(headersOut, forced);
      if (headersOut['set-cookie']) headersOut['set-cookie'] = persistentSessionCookie(headersOut['set-cookie'], cookieMaxAgeS);
      res.writeHead(status, headersOut);
      back.pipe(res);
      back.on('end', () => done());
      back.on('error', () => {
        res.destroy();
        done();
      });
    });
    out.on('error', () => {
      send(
        res,
        503,
        { error: 'unavailable', reason: 'the team server’s database process is not answering; try again in a moment' },
        { ...cors, 'retry-after': '2' },
      );
      done();
    });
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    if (body) out.end(body);
    else {
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBody) {
          out.destroy();
          send(res, 413, { error: 'too_large', reason: `the request body is larger than ${Math.round(maxBody / 1024 / 1024)} MB` }, cors);
        }
      });
      req.pipe(out);
    }
  });
}
