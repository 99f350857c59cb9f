import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, traversa } from '../support/cli.ts';
import { freePort } from '../support/teamServer.ts';

/**
 * Issue 24 §5: Apache CouchDB in a cluster answers a write 202 Accepted when fewer copies than its
 * write quorum have confirmed it yet. pouchdb-server never does, so this loopback server answers
 * as such a cluster does (CouchDB 3's documented replies for `_session`, `_all_docs` with keys and
 * `_bulk_docs`): `push` counts the records as written and says what 202 means, exit 0.
 */
describe('push to a CouchDB cluster that answers 202 Accepted', () => {
  let server: Server;
  let url = '';
  let bulkWrites = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        const json = (status: number, v: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(v));
        };
        if (req.url === '/_session') return json(200, { ok: true, userCtx: { name: 'lead', roles: ['_admin'] } });
        if (req.url?.startsWith('/house/_all_docs'))
          return json(200, { rows: (JSON.parse(body) as { keys: string[] }).keys.map((key) => ({ key, error: 'not_found' })) });
        if (req.url === '/house/_bulk_docs') {
          bulkWrites++;
          return json(
            202,
            (JSON.parse(body) as { docs: { _id: string }[] }).docs.map((d) => ({ ok: true, id: d._id, rev: '1-abc' })),
          );
        }
        json(404, { error: 'not_found', reason: 'missing' });
      });
    });
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    url = `http://lead:pw@127.0.0.1:${port}/house`;
  });
  afterAll(() => {
    server?.close();
  });

  it('counts the records written, says the cluster has not confirmed them on every copy yet, and exits 0', async () => {
    const r = await traversa('push', join(REPO, 'scenes', 'sample-house'), '--to', url);
    expect(r.code, r.stderr).toBe(0);
    expect(bulkWrites).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^total\s+\d+\s+0\s+0$/m);
    expect(r.stdout).toMatch(
      /note: the server answered 202 Accepted for \d+ of the written records: stored, but not yet on as many copies as its cluster's write quorum asks/,
    );
  });
});
