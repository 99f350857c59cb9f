import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyOf } from '../../../src/core/records/keys.ts';
import { recordToDoc } from '../../../src/core/sync/docs.ts';
import { ADMIN, couch, startTeamServer, teamProject, type TeamServer } from '../../support/teamServer.ts';

const AT = '2026-11-23T10:00:00Z';
const labelDoc = (author: string, keyAuthor = author, annotator = keyAuthor) =>
  recordToDoc({ key: keyOf.label('A', 'HUMAN', 'n1|n2', keyAuthor), value: { traversable: true, note: '', annotator }, order: 0 }, author, AT);
const put = <D extends { _id: string }>(server: TeamServer, user: string | null, doc: D) =>
  couch(server, user, 'PUT', `proj/${encodeURIComponent(doc._id)}`, doc);

describe('the team server (pouchdb-server, in memory)', { timeout: 60_000 }, () => {
  let server: TeamServer;
  beforeAll(async () => {
    server = await startTeamServer();
    await teamProject(server, 'proj', ['bob'], ['mallory'], ['alice']); // alice leads: she also writes graph records
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('starts, says where and who its admin is, and never shows a password it was given', () => {
    expect(server.output()).toContain(`Traversa team server on ${server.url} (admin ${ADMIN.name})`);
    expect(server.output()).not.toContain(ADMIN.password);
  });

  it('a member writes her own label; signing it as someone else, or filing it under them, is forbidden with the reason', async () => {
    expect((await put(server, 'alice', labelDoc('alice'))).status).toBe(201);
    const signedAsBob = await put(server, 'alice', { ...labelDoc('bob', 'alice', 'alice'), _id: keyOf.label('A', 'HUMAN', 'n2|n3', 'alice') });
    expect(signedAsBob).toMatchObject({
      status: 403,
      json: { error: 'forbidden', reason: expect.stringContaining('the record is signed as bob, but you are alice') },
    });
    const underBob = await put(server, 'alice', labelDoc('alice', 'bob', 'bob'));
    expect(underBob.status).toBe(403);
    expect(underBob.json.reason).toBe(`${keyOf.label('A', 'HUMAN', 'n1|n2', 'bob')}: this label is bob's; you are alice`);
    const wrongAnnotator = await put(server, 'alice', labelDoc('alice', 'alice', 'bob'));
    expect(wrongAnnotator).toMatchObject({ status: 403, json: { reason: expect.stringContaining('value.annotator must be alice') } });
  });

  it('what no studio can use is not stored: a note that is not text, a 10 MB note (issue 24 §2)', async () => {
    const withNote = (note: unknown, pair: string) => ({
      ...labelDoc('alice'),
      _id: keyOf.label('A', 'HUMAN', pair, 'alice'),
      value: { traversable: false, note, annotator: 'alice' },
    });
    const object = await put(server, 'alice', withNote({ text: 'x' }, 'n5|n6'));
    expect(object).toMatchObject({ status: 403, json: { reason: expect.stringContaining('value.note must be text, not object') } });
    const huge = await put(server, 'alice', withNote('x'.repeat(10 * 1024 * 1024), 'n6|n7'));
    expect(huge).toMatchObject({ status: 403, json: { reason: expect.stringMatching(/a record may be at most 1000000/) } });
    const long = await put(server, 'alice', withNote('y'.repeat(20_000), 'n7|n8'));
    expect(long).toMatchObject({ status: 403, json: { reason: expect.stringContaining('value.note is 20000 characters long; at most 10000') } });
    expect((await put(server, 'alice', withNote('A 0.70 m door', 'n8|n9'))).status).toBe(201);
  });

  it('a project names only members who have an account: a stranger cannot claim the name later (issue 24 §2)', async () => {
    const { traversa } = await import('../../support/cli.ts');
    const r = await traversa('team', 'create-project', server.admin('proj'), '--member', 'alice', '--member', 'ghost');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ghost has no account on this server: create it first with "team add-user <couch-url> <name>"');
    const sec = await couch(server, ADMIN.name, 'GET', 'proj/_security');
    expect((sec.json.members as { names: string[] }).names).not.toContain('ghost');
  });

  it('an outsider (a valid user, not a member) and anonymous can neither read nor write', async () => {
    for (const who of ['mallory', null]) {
      const read = await couch(server, who, 'GET', 'proj/_all_docs');
      const write = await put(server, who, labelDoc(who ?? 'anon'));
      expect([401, 403], `${who} reading`).toContain(read.status);
      expect([401, 403], `${who} writing`).toContain(write.status);
    }
    expect((await couch(server, 'alice', 'GET', 'proj/_all_docs')).status).toBe(200);
  });

  it('a malformed record is forbidden, and the reason names its key', async () => {
    const node = recordToDoc({ key: keyOf.node('A', 'n9'), value: { id: 'n9', position: { x: 1, y: 'high', z: 0 } }, order: 3 }, 'alice', AT);
    expect(await put(server, 'alice', node)).toMatchObject({ status: 403, json: { reason: 'node/A/n9: value.position must have numeric x, y and z' } });
    const stray = { _id: 'notes/today', author: 'alice', order: 0, value: {}, at: AT };
    expect(await put(server, 'alice', stray)).toMatchObject({ status: 403, json: { reason: expect.stringContaining('not a Traversa record key') } });
    expect([401, 403]).toContain((await put(server, 'alice', { _id: '_design/mine', validate_doc_update: 'function () {}' })).status);
  });

  it('a member cannot make herself an admin of the database (which would lift every rule)', async () => {
    const sec = { admins: { names: ['alice'], roles: [] }, members: { names: ['alice', 'bob'], roles: [] } };
    expect([401, 403]).toContain((await couch(server, 'alice', 'PUT', 'proj/_security', sec)).status);
    expect((await couch(server, ADMIN.name, 'GET', 'proj/_security')).json).toMatchObject({ admins: { names: [ADMIN.name] } });
  });

  it("deleting another annotator's label is forbidden to an annotator; its author and a lead (removing its segment) may", async () => {
    const doc = { ...labelDoc('bob'), _id: keyOf.label('A', 'HUMAN', 'n5|n6', 'bob') };
    const made = await put(server, 'bob', doc);
    expect(made.status).toBe(201);
    const path = (rev: string) => `proj/${encodeURIComponent(doc._id)}?rev=${rev}`;
    const hers = { ...labelDoc('alice'), _id: keyOf.label('A', 'HUMAN', 'n10|n11', 'alice') };
    const mine = await put(server, 'alice', hers);
    const alices = `proj/${encodeURIComponent(hers._id)}?rev=${mine.json.rev as string}`;
    expect(await couch(server, 'bob', 'DELETE', alices)).toMatchObject({
      status: 403,
      json: { reason: expect.stringContaining('only alice or a lead may delete this label, not bob') },
    });
    expect((await couch(server, 'bob', 'DELETE', path(made.json.rev as string))).status).toBe(200);
    const again = await put(server, 'bob', doc);
    expect((await couch(server, 'alice', 'DELETE', path(again.json.rev as string))).status).toBe(200); // alice leads
  });

  it('only an admin writes the unnamed labels of an imported release', async () => {
    const unnamed = labelDoc('alice', '', '');
    expect(await put(server, 'alice', unnamed)).toMatchObject({
      status: 403,
      json: { reason: expect.stringContaining('unnamed labels (a release baseline) are written by an admin only') },
    });
    expect((await put(server, ADMIN.name, { ...unnamed, author: ADMIN.name })).status).toBe(201);
  });

  it('takes an edit replicated from a browser (new_edits: false) in the validated database, and still refuses a forged one', async () => {
    // pouchdb-server 4.2.0 alone drops such writes without an error (see teamServerChild.mjs).
    const doc = { ...labelDoc('alice'), _id: keyOf.label('A', 'HUMAN', 'n7|n8', 'alice') };
    const first = await put(server, 'alice', doc);
    expect(first.status).toBe(201);
    const [gen, hash] = (first.json.rev as string).split('-');
    const edited = {
      ...doc,
      value: { ...(doc.value as object), traversable: false, note: 'step' },
      _rev: '2-0000000000000000000000000000beef',
      _revisions: { start: 2, ids: ['0000000000000000000000000000beef', hash] },
    };
    expect(gen).toBe('1');
    expect((await couch(server, 'alice', 'POST', 'proj/_bulk_docs', { docs: [edited], new_edits: false })).status).toBe(201);
    expect(await couch(server, 'bob', 'GET', `proj/${encodeURIComponent(doc._id)}`)).toMatchObject({
      json: { _rev: edited._rev, value: { traversable: false } },
    });

    const forged = {
      ...edited,
      author: 'bob',
      _rev: '3-0000000000000000000000000000f00d',
      _revisions: { start: 3, ids: ['0000000000000000000000000000f00d', ...edited._revisions.ids] },
    };
    const refused = await couch(server, 'alice', 'POST', 'proj/_bulk_docs', { docs: [forged], new_edits: false });
    expect(JSON.stringify(refused.json)).toContain('the record is signed as bob, but you are alice');
    expect((await couch(server, 'bob', 'GET', `proj/${encodeURIComponent(doc._id)}`)).json._rev).toBe(edited._rev);
  });

  it('lets a studio on another origin use it with credentials (CORS preflight and the request itself)', async () => {
    const origin = 'http://127.0.0.1:5173';
    const pre = await couch(server, null, 'OPTIONS', 'proj/_all_docs', undefined, {
      origin,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/PUT/);
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(/authorization/);
    const get = await couch(server, 'alice', 'GET', 'proj/_all_docs', undefined, { origin });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe(origin);
    expect(get.headers.get('access-control-allow-credentials')).toBe('true');
  });
});

describe('the team server on disk (--data)', { timeout: 60_000 }, () => {
  it('keeps databases, users and the admin across a restart, and stops cleanly on SIGINT and SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'traversa-team-data-'));
    try {
      const first = await startTeamServer(['--data', dir]);
      await teamProject(first, 'proj', ['alice']);
      expect((await put(first, 'alice', labelDoc('alice'))).status).toBe(201);
      expect(await first.stop('SIGINT')).toMatchObject({ code: 0, output: expect.stringContaining('Traversa team server stopped') });
      // The admin's password is kept hashed, never as given.
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(ADMIN.password);

      const second = await startTeamServer(['--data', dir], null);
      expect(second.output()).toContain(`(admin ${ADMIN.name})`);
      expect(second.output()).not.toContain('generated');
      const back = await couch(second, 'alice', 'GET', `proj/${encodeURIComponent(labelDoc('alice')._id)}`);
      expect(back).toMatchObject({ status: 200, json: { author: 'alice', value: { annotator: 'alice' } } });
      expect((await couch(second, ADMIN.name, 'GET', '_session')).json).toMatchObject({ userCtx: { name: ADMIN.name, roles: ['_admin'] } });
      expect(await second.stop('SIGTERM')).toMatchObject({ code: 0 });
      expect(existsSync(join(dir, 'log.txt'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without --admin on a new server, makes one and shows its password once', async () => {
    const server = await startTeamServer(['--in-memory'], null);
    try {
      const password = /admin password \(generated, shown only now\): (\S+)/.exec(server.output())?.[1];
      expect(password).toBeTruthy();
      const res = await fetch(`${server.url}_session`, { headers: { authorization: 'Basic ' + Buffer.from(`admin:${password}`).toString('base64') } });
      expect(await res.json()).toMatchObject({ userCtx: { name: 'admin', roles: ['_admin'] } });
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it('refuses a port already in use, saying so', async () => {
    const server = await startTeamServer();
    try {
      const port = new URL(server.url).port;
      const { traversa } = await import('../../support/cli.ts');
      const clash = await traversa('team-server', '--port', port, '--in-memory');
      expect(clash.code).toBe(1);
      expect(clash.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await server.stop();
    }
  });
});

describe('leads and annotators (issue 24 §2)', { timeout: 60_000 }, () => {
  let server: TeamServer;
  beforeAll(async () => {
    server = await startTeamServer();
    await teamProject(server, 'roles', ['ben'], [], ['ann']);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const at = (user: string, kind: 'scene' | 'node' | 'adjudication', who = user) => {
    const key = kind === 'scene' ? keyOf.scene('S1') : kind === 'node' ? keyOf.node('S1', 'n1') : keyOf.adjudication('S1', 'HUMAN', 'n1|n2');
    const value =
      kind === 'scene'
        ? { id: 'S1', questions: [] }
        : kind === 'node'
          ? { id: 'n1', name: 'Hall', position: { x: 0, y: 0, z: 0 } }
          : { label: { traversable: true, note: '' }, by: who };
    return recordToDoc({ key, value, order: 0 } as never, user, AT);
  };
  const write = (user: string, doc: { _id: string }) => couch(server, user, 'PUT', `roles/${encodeURIComponent(doc._id)}`, doc);

  it('a lead changes the scene and the graph and decides a dispute; an annotator is refused each, with why', async () => {
    for (const kind of ['scene', 'node', 'adjudication'] as const) {
      expect((await write('ann', at('ann', kind))).status, `ann ${kind}`).toBe(201);
      const refused = await write('ben', { ...at('ben', kind), _id: at('ben', kind)._id.replace('S1', 'S2') });
      expect(refused, `ben ${kind}`).toMatchObject({ status: 403, json: { reason: expect.stringContaining('is an annotator here') } });
    }
  });

  it('an annotator cannot delete a scene for the whole team; she labels as before', async () => {
    const scene = await couch(server, 'ben', 'GET', `roles/${encodeURIComponent(keyOf.scene('S1'))}`);
    expect(scene.status).toBe(200);
    const del = await couch(server, 'ben', 'DELETE', `roles/${encodeURIComponent(keyOf.scene('S1'))}?rev=${scene.json._rev as string}`);
    expect(del).toMatchObject({ status: 403, json: { reason: expect.stringContaining('only a lead of this project changes scenes') } });
    const label = recordToDoc(
      { key: keyOf.label('S1', 'HUMAN', 'n1|n2', 'ben'), value: { traversable: true, note: '', annotator: 'ben' }, order: 0 },
      'ben',
      AT,
    );
    expect((await write('ben', label)).status).toBe(201);
  });
});
