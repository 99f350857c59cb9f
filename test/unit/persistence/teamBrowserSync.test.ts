import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLabel } from '../../../src/core/labelEdit.ts';
import type { Project } from '../../../src/core/project.ts';
import { keyOf } from '../../../src/core/records/keys.ts';
import { projectRecords } from '../../../src/core/records/records.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { TraversaDb } from '../../../src/persistence/db.ts';
import { startProjectStorage, type ProjectStorage } from '../../../src/persistence/projectStorage.ts';
import { openTabChannel } from '../../../src/persistence/tabChannel.ts';
import { mirrorName, TeamSync } from '../../../src/persistence/teamSync.ts';
import type { PouchStatic } from '../../../src/persistence/pouch.ts';
import { PROJECT_EDITS } from '../../../src/state/commands.ts';
import { applyEdit, sceneEdit } from '../../../src/state/edits.ts';
import { createStudioStore, type StudioStore, type TeamState } from '../../../src/state/store.ts';
import { houseScene, releaseFiles } from '../../support/releaseBuilder.ts';
import { ADMIN, couch, startTeamServer, teamProject, type TeamServer } from '../../support/teamServer.ts';

/**
 * The studio's team sync (PouchDB in the page, replicating with `npm run team-server` over
 * loopback), with each "browser" its own IndexedDB and store. What a browser test shows through
 * the page, checked here at the level of records, faster and from both sides.
 */
// pouchdb-browser expects what a page has: IndexedDB (fake-indexeddb above) and `self`.
(globalThis as { self?: unknown }).self ??= globalThis;

// PouchDB's IndexedDB adapter needs a real browser (the e2e tests use it); here the mirror lives in memory.
const pouch = async (): Promise<PouchStatic> => {
  const P = (await import('pouchdb-browser')).default as unknown as PouchStatic & { plugin(p: unknown): void };
  P.plugin((await import('pouchdb-adapter-memory')).default);
  return P;
};

let n = 0;
const house = (): Project => readRelease(releaseFiles([houseScene('HM3D00025')]), 'Team house').project!;
const label = (traversable: boolean, annotator: string, note = '') => ({
  traversable,
  note,
  annotator,
  timestamp: new Date().toISOString(),
  source: 'annotator' as const,
});
const labelEdit = sceneEdit('test.label', 'Label', (s, a: { agent: string; from: string; to: string; label: ReturnType<typeof label> }) =>
  setLabel(s, a.agent, a.from, a.to, a.label),
);

interface Browser {
  store: StudioStore;
  storage: ProjectStorage;
  db: TraversaDb;
  team: TeamSync;
}

async function browser(): Promise<Browser> {
  const name = `traversa-team-test-${n++}`;
  const store = createStudioStore();
  const db = new TraversaDb(name);
  const storage = await startProjectStorage(store, db, { channel: openTabChannel(name) });
  const team = new TeamSync(store, db, storage, { channel: openTabChannel(name), locks: null, maxBackOffMs: 300, pouch, mirrorOptions: { adapter: 'memory' } });
  return { store, storage, db, team };
}

/** Wait until the browser's team state satisfies `ok` (the sync is asynchronous by nature). */
async function until(b: Browser, ok: (t: TeamState, s: ReturnType<StudioStore['getState']>) => boolean, what: string, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!ok(b.store.getState().team, b.store.getState())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}; team state: ${JSON.stringify(b.store.getState().team)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const synced = (b: Browser, what: string) => until(b, (t) => t.state === 'synced' && t.waiting === 0, what);

const votes = (b: Browser, agent: string, seg: string) => b.store.getState().document.project?.scenes[0]?.votes?.[agent]?.[seg] ?? {};

describe('team sync in the studio', { timeout: 120_000 }, () => {
  let server: TeamServer;
  const browsers: Browser[] = [];
  const open = async () => {
    const b = await browser();
    browsers.push(b);
    return b;
  };
  beforeAll(async () => {
    server = await startTeamServer();
    // Both lead the project: the tests below rename it (a lead's work) as well as label.
    await teamProject(server, 'house', [], [], ['ann', 'ben']);
    await teamProject(server, 'other', ['ben']);
  }, 60_000);
  afterAll(async () => {
    for (const b of browsers) {
      b.team.stop();
      b.storage.stop();
    }
    await server?.stop();
  });

  let seg = '';
  it('the lead publishes a project; a member joins it and gets every record', async () => {
    const lead = await open();
    await lead.storage.create(house());
    expect(await lead.team.connect(`${server.url}house`, ADMIN.name, ADMIN.password)).toBeNull();
    await synced(lead, 'the lead to publish');
    const published = await couch(server, 'ann', 'GET', 'house/_all_docs');
    const ids = (published.json.rows as { id: string }[]).map((r) => r.id);
    expect(ids).toContain(keyOf.project());
    expect(ids.filter((id) => id.startsWith('label/')).length).toBeGreaterThan(0);

    const ann = await open();
    expect(await ann.team.join(`${server.url}house`, 'ann', 'ann-pw')).toBeNull();
    const records = (b: Browser) => [...projectRecords(b.store.getState().document.project!)].sort((x, y) => (x.key < y.key ? -1 : 1));
    expect(records(ann)).toEqual(records(lead));
    expect(ann.store.getState().session.annotator).toBe('ann');
    await synced(ann, 'ann to be in sync');
    const e = ann.store.getState().document.project!.scenes[0]!.graph.edges[0]!;
    seg = `${e.from}|${e.to}`;
  });

  it("joining reads the database in bulk and stores it once: a change here extends the server's revision, later changes arrive", async () => {
    const [lead] = browsers as [Browser];
    const cai = await open();
    expect(await cai.team.join(`${server.url}house`, 'ann', 'ann-pw')).toBeNull();
    await synced(cai, 'cai to join');
    // The mirror holds none of the records read in bulk (they live once, in the project's records).
    const P = await pouch();
    const id = cai.store.getState().workspace.projectId!;
    const mirrorDocs = (await (new P(mirrorName(id), { adapter: 'memory' }) as unknown as { info(): Promise<{ doc_count: number }> }).info()).doc_count;
    const serverDocs = (await couch(server, ADMIN.name, 'GET', 'house')).json.doc_count as number;
    expect(mirrorDocs).toBeLessThan(serverDocs / 10);
    // A record read in bulk, changed here: the server gets the next revision of the same document, no conflict.
    const before = (await couch(server, ADMIN.name, 'GET', `house/${encodeURIComponent(keyOf.project())}`)).json;
    applyEdit(cai.store, PROJECT_EDITS.rename, { name: 'Read in bulk' });
    await until(lead, (_, s) => s.document.project?.name === 'Read in bulk', 'the rename at the lead');
    const after = (await couch(server, ADMIN.name, 'GET', `house/${encodeURIComponent(keyOf.project())}?conflicts=true`)).json;
    expect(after._conflicts).toBeUndefined();
    expect(Number(String(after._rev).split('-')[0])).toBe(Number(String(before._rev).split('-')[0]) + 1);
    // A change made elsewhere after the join arrives (the pull starts at the snapshot's sequence).
    applyEdit(lead.store, PROJECT_EDITS.rename, { name: 'Team house' });
    await until(cai, (_, s) => s.document.project?.name === 'Team house', "the lead's rename at cai");
    cai.team.stop();
    cai.storage.stop();
    browsers.splice(browsers.indexOf(cai), 1);
  });

  it('two members label the same segment differently: both votes reach everyone, nothing is dropped', async () => {
    const [lead, ann] = browsers as [Browser, Browser];
    const ben = await open();
    expect(await ben.team.join(`${server.url}house`, 'ben', 'ben-pw')).toBeNull();
    await synced(ben, 'ben to join');
    const [from, to] = seg.split('|') as [string, string];
    applyEdit(ann.store, labelEdit, { sceneId: 'HM3D00025', agent: 'WHEELCHAIR', from, to, label: label(true, 'ann', 'fits') });
    applyEdit(ben.store, labelEdit, { sceneId: 'HM3D00025', agent: 'WHEELCHAIR', from, to, label: label(false, 'ben', 'sill') });
    for (const b of [lead, ann, ben]) {
      await until(
        b,
        () => Object.keys(votes(b, 'WHEELCHAIR', seg)).includes('ann') && Object.keys(votes(b, 'WHEELCHAIR', seg)).includes('ben'),
        'both votes everywhere',
      );
    }
    expect(votes(lead, 'WHEELCHAIR', seg)).toMatchObject({ ann: { traversable: true, note: 'fits' }, ben: { traversable: false, note: 'sill' } });
    await synced(ann, 'ann');
    await synced(ben, 'ben');
    expect(ann.store.getState().team.conflicts).toEqual([]);
  });

  it('work done while not syncing waits in the outbox and is sent on signing in again', async () => {
    const [lead, ann] = browsers as [Browser, Browser];
    // (The server going away and coming back is the browser test's: here one browser stops syncing.)
    ann.team.signOut();
    await until(ann, (t) => t.state === 'signed-out', 'ann signed out');
    applyEdit(ann.store, PROJECT_EDITS.rename, { name: 'Renamed offline' });
    const e = ann.store.getState().document.project!.scenes[0]!.graph.edges[1]!;
    applyEdit(ann.store, labelEdit, { sceneId: 'HM3D00025', agent: 'HUMANOID', from: e.from, to: e.to, label: label(false, 'ann', 'stairs') });
    await ann.storage.flush();
    expect(await ann.db.outbox.count()).toBe(2);
    expect(lead.store.getState().document.project?.name).not.toBe('Renamed offline');
    await ann.team.signIn('ann-pw');
    await synced(ann, 'ann to send what waited');
    await until(lead, (_, s) => s.document.project?.name === 'Renamed offline', 'the rename at the lead');
    await until(lead, () => votes(lead, 'HUMANOID', `${e.from}|${e.to}`).ann?.note === 'stairs', 'the label at the lead');
    expect(await ann.db.outbox.count()).toBe(0);
  });

  it('a revision conflict is listed with both versions until someone keeps one', async () => {
    const [lead, ann, ben] = browsers as [Browser, Browser, Browser];
    // Both rename the project while apart: one record, two revisions.
    ann.team.signOut();
    ben.team.signOut();
    await until(ann, (t) => t.state === 'signed-out', 'ann out');
    await until(ben, (t) => t.state === 'signed-out', 'ben out');
    applyEdit(ann.store, PROJECT_EDITS.rename, { name: 'Ann’s name' });
    applyEdit(ben.store, PROJECT_EDITS.rename, { name: 'Ben’s name' });
    await ann.storage.flush();
    await ben.storage.flush();
    await ann.team.signIn('ann-pw');
    await synced(ann, 'ann');
    await ben.team.signIn('ben-pw');
    await synced(ben, 'ben');
    await ann.team.signOut();
    await ann.team.signIn('ann-pw');
    await until(lead, (t) => t.conflicts.some((c) => c.key === keyOf.project()), 'the conflict at the lead');
    await until(ann, (t) => t.conflicts.some((c) => c.key === keyOf.project()), 'the conflict at ann');
    const conflict = lead.store.getState().team.conflicts.find((c) => c.key === keyOf.project())!;
    expect(conflict.versions.map((v) => v.author).sort()).toEqual(['ann', 'ben']);
    expect(conflict.versions.filter((v) => v.winning)).toHaveLength(1);
    // Every browser shows the same (winning) version, the one whose version lost included, and each lists both.
    await until(ben, (t) => t.conflicts.some((c) => c.key === keyOf.project()), 'the conflict at ben');
    const winner = conflict.versions.find((v) => v.winning)!.author === 'ann' ? 'Ann’s name' : 'Ben’s name';
    for (const b of [lead, ann, ben]) await until(b, (_, s) => s.document.project?.name === winner, 'the winning name everywhere');
    const bens = conflict.versions.find((v) => v.author === 'ben')!;
    expect(await ann.team.keep(conflict.key, bens.rev)).toBeNull();
    for (const b of [lead, ann, ben]) {
      await until(b, (t, s) => !t.conflicts.length && s.document.project?.name === 'Ben’s name', 'the kept version everywhere');
    }
  });

  it('the server refuses a record signed as someone else; the refusal is listed and stops waiting', async () => {
    const [, ann] = browsers as [Browser, Browser];
    const e = ann.store.getState().document.project!.scenes[0]!.graph.edges[2]!;
    // A label that claims to be ben's, made in ann's browser (as a tampered page could).
    applyEdit(ann.store, labelEdit, { sceneId: 'HM3D00025', agent: 'SWEEPER', from: e.from, to: e.to, label: label(true, 'ben', 'forged') });
    await until(ann, (t) => t.refused.some((r) => r.key === keyOf.label('HM3D00025', 'SWEEPER', `${e.from}|${e.to}`, 'ben')), 'the refusal');
    expect(ann.store.getState().team.refused.at(-1)!.reason).toMatch(/signed as|ben/);
    await until(ann, (t) => t.waiting === 0, 'nothing waiting');
    const onServer = await couch(server, 'ben', 'GET', `house/${encodeURIComponent(keyOf.label('HM3D00025', 'SWEEPER', `${e.from}|${e.to}`, 'ben'))}`);
    expect(onServer.status).toBe(404);
  });

  it('an outsider, a wrong password and a database that is not a team project are told so', async () => {
    const x = await open();
    await x.storage.create(house());
    expect(await x.team.join(`${server.url}house`, 'ann', 'wrong')).toMatch(/did not accept the name ann/);
    expect(await x.team.join(`${server.url}other`, 'ann', 'ann-pw')).toMatch(/ann is not a member/);
    expect(await x.team.connect(`${server.url}house`, 'ben', 'ben-pw')).toMatch(/already holds a project/);
    await couch(server, ADMIN.name, 'PUT', 'plain');
    expect(await x.team.connect(`${server.url}plain`, ADMIN.name, ADMIN.password)).toMatch(/not a Traversa team database/);
    expect(x.store.getState().team.state).toBe('off');
  });

  it('deleting a synced project deletes its team mirror here and stops its session; the server keeps the team database', async () => {
    const [, ann] = browsers as [Browser, Browser];
    const id = ann.store.getState().workspace.projectId!;
    const P = await pouch();
    const docs = async () => (await (new P(mirrorName(id), { adapter: 'memory' }) as unknown as { info(): Promise<{ doc_count: number }> }).info()).doc_count;
    expect(await docs()).toBeGreaterThan(0);
    await ann.team.forget(id);
    await ann.storage.remove(id);
    await until(ann, (t) => t.state === 'off', 'the session to stop');
    expect(await docs()).toBe(0);
    expect(ann.store.getState().workspace.projects.map((p) => p.id)).not.toContain(id);
    expect(((await couch(server, 'ann', 'GET', 'house/_all_docs')).json.rows as unknown[]).length).toBeGreaterThan(0);
  });

  it('a team database that is gone (deleted, or a server restarted without its data) is said to be missing, and the work here waits (issue 25 §3)', async () => {
    const x = await open();
    await x.storage.create(house());
    await teamProject(server, 'doomed', ['dora']);
    expect(await x.team.connect(`${server.url}doomed`, ADMIN.name, ADMIN.password)).toBeNull();
    await synced(x, 'the project to be published');
    expect((await couch(server, ADMIN.name, 'DELETE', 'doomed')).status).toBe(200);
    applyEdit(x.store, PROJECT_EDITS.rename, { name: 'After the database went' });
    await until(x, (t) => t.state === 'error', 'the missing database to be told');
    expect(x.store.getState().team.message).toMatch(
      new RegExp(
        `^The team server has no database ${server.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}doomed \\(it was deleted, or the server restarted without its data\\)`,
      ),
    );
    expect(x.store.getState().team.message).not.toMatch(/password/);
    expect(await x.db.outbox.count()).toBe(1);
  });
});
