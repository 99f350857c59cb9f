import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, couch, freePort, startTeamServer, teamProject, type TeamServer } from '../support/teamServer.ts';

/**
 * Issue 24 §1: the team server on a network — anonymous clients, members, pages on other origins
 * and raw sockets — against `npm run team-server` (its front before pouchdb-server). Every
 * forbidden request is refused with Apache CouchDB 3's status and words, and the server answers
 * the next request; pouchdb-server killed outright is restarted and the data kept (--data).
 */
const alive = async (server: TeamServer) => (await fetch(server.url)).status;

describe('the team server refuses what it must, and nothing brings it down', { timeout: 120_000 }, () => {
  let server: TeamServer;
  let listener: Server;
  let fetched = 0;
  let bait: string;
  const data = mkdtempSync(join(tmpdir(), 'traversa-hostile-team-'));

  beforeAll(async () => {
    server = await startTeamServer(['--data', data]);
    await teamProject(server, 'proj', ['alice'], ['mallory']);
    // A loopback listener: a server-side request forgery would show here.
    listener = createServer((_req, res) => {
      fetched++;
      res.writeHead(404);
      res.end();
    });
    const port = await freePort();
    await new Promise<void>((r) => listener.listen(port, '127.0.0.1', () => r()));
    bait = `http://127.0.0.1:${port}/steal`;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    listener?.close();
    rmSync(data, { recursive: true, force: true });
  }, 30_000);

  const NEED_LOGIN = { error: 'unauthorized', reason: 'Authentication required.' };
  const NOT_ADMIN = { error: 'unauthorized', reason: 'You are not a server admin.' };
  const NOT_DB_ADMIN = { error: 'unauthorized', reason: 'You are not a db or server admin.' };

  it.each([
    ['PUT', 'newdb', undefined],
    ['DELETE', 'proj', undefined],
    ['GET', '_all_dbs', undefined],
    ['GET', 'proj/_all_docs', undefined],
    ['POST', '_users', { _id: 'org.couchdb.user:ghost', name: 'ghost', password: 'x', roles: [], type: 'user' }],
    ['PUT', '_users/org.couchdb.user:ghost', { name: 'ghost', password: 'x', roles: [], type: 'user' }],
    ['POST', '_replicate', { source: 'proj', target: 'BAIT' }],
    ['PUT', 'proj/_security', { admins: { names: ['ghost'] } }],
    ['GET', '_config', undefined],
  ])('anonymous %s /%s: 401, as CouchDB 3 with authentication required; the server answers on', async (method, path, body) => {
    const r = await couch(server, null, method, path, body && JSON.parse(JSON.stringify(body).replace('BAIT', bait)));
    expect(r.status).toBe(401);
    expect(r.json).toEqual(NEED_LOGIN);
    expect(await alive(server)).toBe(200);
  });

  it.each([
    ['PUT', 'newdb', undefined, NOT_ADMIN],
    ['DELETE', 'proj', undefined, NOT_ADMIN],
    ['GET', '_all_dbs', undefined, NOT_ADMIN],
    ['POST', '_users', { _id: 'org.couchdb.user:ghost', name: 'ghost', password: 'x', roles: [], type: 'user' }, NOT_ADMIN],
    ['PUT', '_users/org.couchdb.user:ghost', { name: 'ghost', password: 'x', roles: [], type: 'user' }, NOT_ADMIN],
    ['GET', '_users/org.couchdb.user:mallory', undefined, NOT_ADMIN],
    ['POST', '_replicate', { source: 'proj', target: 'BAIT' }, NOT_ADMIN],
    ['PUT', 'proj/_security', { admins: { names: ['alice'] } }, NOT_DB_ADMIN],
    ['PUT', 'proj/_design/evil', { validate_doc_update: 'function () {}' }, NOT_DB_ADMIN],
    ['PUT', 'proj/_design%2Fevil', { validate_doc_update: 'function () {}' }, NOT_DB_ADMIN],
    ['DELETE', 'proj/_design/traversa', undefined, NOT_DB_ADMIN],
    ['POST', 'proj', { _id: '_design/evil', validate_doc_update: 'function () {}' }, NOT_DB_ADMIN],
    ['POST', 'proj/_bulk_docs', { docs: [{ _id: 'x' }, { _id: '_design/evil', validate_doc_update: 'function () {}' }] }, NOT_DB_ADMIN],
    ['POST', 'proj/_purge', { x: ['1-a'] }, NOT_DB_ADMIN],
    ['POST', 'proj/_compact', {}, NOT_DB_ADMIN],
  ])('a member (alice) %s /%s: refused as CouchDB 3 refuses a non-admin', async (method, path, body, refusal) => {
    const r = await couch(server, 'alice', method, path, body && JSON.parse(JSON.stringify(body).replace('BAIT', bait)));
    expect(r.status).toBe(401);
    expect(r.json).toEqual(refusal);
    expect(await alive(server)).toBe(200);
  });

  it('a member stores no attachment; one an admin stored is served as a download, never as a page of the server (issue 25 §3)', async () => {
    const page = '<html><script>fetch("/_session")</script></html>';
    const put = (user: string, password: string) =>
      fetch(`${server.url}proj/${encodeURIComponent('node/S/evil')}/page.html`, {
        method: 'PUT',
        headers: { authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64'), 'content-type': 'text/html' },
        body: page,
      });
    const byAlice = await put('alice', 'alice-pw');
    expect(byAlice.status).toBe(403);
    expect(((await byAlice.json()) as { reason: string }).reason).toMatch(/records carry no attachments/);
    expect((await put(ADMIN.name, ADMIN.password)).status).toBe(201);
    const got = await couch(server, 'alice', 'GET', `proj/${encodeURIComponent('node/S/evil')}/page.html`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('content-disposition')).toBe('attachment');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    // A refusal on the same path is the server's JSON error, not a download.
    const outsider = await couch(server, 'mallory', 'GET', `proj/${encodeURIComponent('node/S/evil')}/page.html`);
    expect(outsider.status).toBe(403);
    expect(outsider.headers.get('content-type')).toMatch(/^application\/json/);
    expect(outsider.headers.get('content-disposition')).toBeNull();
    // Documents themselves are not downloads.
    const doc = await couch(server, 'alice', 'GET', `proj/${encodeURIComponent('node/S/evil')}`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-disposition')).toBeNull();
  });

  it('nobody made the server fetch a URL (no _replicate reached pouchdb-server)', () => {
    expect(fetched).toBe(0);
  });

  it('what members may do still works: read the project, read their own account; an outsider reads nothing', async () => {
    expect((await couch(server, 'alice', 'GET', 'proj/_all_docs')).status).toBe(200);
    expect((await couch(server, 'alice', 'GET', '_users/org.couchdb.user:alice')).status).toBe(200);
    expect((await couch(server, 'alice', 'GET', 'proj/_security')).status).toBe(200);
    const outsider = await couch(server, 'mallory', 'GET', 'proj/_all_docs');
    expect(outsider.status).toBe(403);
    // A wrong password is refused as CouchDB refuses it.
    const wrong = await fetch(`${server.url}proj/_all_docs`, { headers: { authorization: `Basic ${Buffer.from('alice:nope').toString('base64')}` } });
    expect([wrong.status, await wrong.json()]).toEqual([401, { error: 'unauthorized', reason: 'Name or password is incorrect.' }]);
  });

  it("a page on another origin is refused, preflight and request, with no CORS grant; the studio's origin is granted", async () => {
    const evil = 'http://evil.example';
    const pre = await couch(server, null, 'OPTIONS', 'proj/_all_docs', undefined, { origin: evil, 'access-control-request-method': 'PUT' });
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const write = await couch(server, 'alice', 'PUT', 'proj/doc-from-evil', { x: 1 }, { origin: evil });
    expect(write.status).toBe(403);
    expect(String(write.json.reason)).toContain('--origin http://evil.example');
    expect((await couch(server, 'alice', 'GET', 'proj/doc-from-evil')).status).toBe(404);
    const studio = await couch(server, 'alice', 'GET', 'proj/_all_docs', undefined, { origin: 'http://localhost:5173' });
    expect([studio.status, studio.headers.get('access-control-allow-origin')]).toEqual([200, 'http://localhost:5173']);
  });

  it('bad requests get a clear error and the server answers on: an undecodable path, a body over the limit, garbage on the socket', async () => {
    const bad = await couch(server, 'alice', 'GET', 'proj/%E0%A4%A');
    expect([bad.status, bad.json.error]).toEqual([400, 'bad_request']);
    const huge = await fetch(`${server.url}proj/big`, {
      method: 'PUT',
      headers: { authorization: `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`, 'content-length': String(200 * 1024 * 1024) },
      body: 'x',
    }).catch(() => null);
    expect(huge === null || huge.status === 413).toBe(true);
    await new Promise<void>((resolve) => {
      const s = connect(Number(new URL(server.url).port), '127.0.0.1', () => s.end('GARBAGE / NOT-HTTP\r\n\r\n'));
      s.on('close', () => resolve());
      s.on('error', () => resolve());
      s.resume();
    });
    expect(await alive(server)).toBe(200);
  });

  it('pouchdb-server killed outright is restarted by the server; the data on disk is all there', async () => {
    const before = await couch(server, 'alice', 'GET', 'proj/_all_docs');
    execSync(`pkill -9 -f -- "[t]eamServerChild.mjs.*--dir ${data}"`); // the bracket keeps pkill from matching its own shell
    const t0 = Date.now();
    let status = 0;
    while (Date.now() - t0 < 30_000) {
      status = (await couch(server, 'alice', 'GET', 'proj/_all_docs').catch(() => ({ status: 0 }))).status;
      if (status === 200) break;
      expect([0, 503]).toContain(status); // while it restarts: "unavailable", never a hang or a crash
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await couch(server, 'alice', 'GET', 'proj/_all_docs')).json).toEqual(before.json);
    expect(server.output()).toMatch(/pouchdb-server stopped \(killed by SIGKILL\); restarting it/);
  });
});
