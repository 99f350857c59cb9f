import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { setLabel } from '../../../src/core/labelEdit.ts';
import { labelFor } from '../../../src/core/labels.ts';
import { emptyProject, PROJECT_SCHEMA_VERSION, type Project } from '../../../src/core/project.ts';
import { migrateProject } from '../../../src/core/migrate.ts';
import { bucketOfKey, keyOf } from '../../../src/core/records/keys.ts';
import { projectRecords } from '../../../src/core/records/records.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { TraversaDb } from '../../../src/persistence/db.ts';
import { bucketRecords, bucketRow, packedRow, PLAIN_BELOW, rowText } from '../../../src/persistence/bucketText.ts';
import { readRecords, writeChanges } from '../../../src/persistence/recordStore.ts';
import { startProjectStorage, type ProjectStorage } from '../../../src/persistence/projectStorage.ts';
import { openTabChannel } from '../../../src/persistence/tabChannel.ts';
import { PROJECT_EDITS } from '../../../src/state/commands.ts';
import { applyEdit, sceneEdit } from '../../../src/state/edits.ts';
import { redo, replaceDocument, undo } from '../../../src/state/history.ts';
import { createStudioStore, type StudioStore } from '../../../src/state/store.ts';
import { houseScene, releaseFiles } from '../../support/releaseBuilder.ts';

let n = 0;
const freshName = () => `traversa-test-${n++}`;
const house = (): Project => readRelease(releaseFiles([houseScene('HM3D00025'), houseScene('HM3D00033')]), 'House').project!;
const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

/** A browser tab: its own store, its own storage controller, the shared database, a channel to the other tabs. */
async function tab(dbName: string, channelName: string, remembered?: string): Promise<{ store: StudioStore; storage: ProjectStorage; db: TraversaDb }> {
  const store = createStudioStore();
  const db = new TraversaDb(dbName);
  let memory = remembered ?? null;
  const storage = await startProjectStorage(store, db, {
    channel: openTabChannel(channelName),
    memory: {
      get: () => memory,
      set: (id) => {
        memory = id;
      },
    },
  });
  return { store, storage, db };
}

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
const edges = (p: Project) => p.scenes[0]!.graph.edges;
/** The note of the label that applies to an edge (either direction: a release may label it backwards). */
const noteOf = (s: Project['scenes'][number], agent: string, e: { from: string; to: string }) => labelFor(s.labels, agent, e.from, e.to)?.note;

describe('projects stored as records', () => {
  it('a new project is stored, and a new session opens it with its labels', async () => {
    const name = freshName();
    const a = await tab(name, name);
    await a.storage.create(house());
    const e = edges(a.store.getState().document.project!)[0]!;
    applyEdit(a.store, labelEdit, { sceneId: 'HM3D00025', agent: 'WHEELCHAIR', from: e.from, to: e.to, label: label(false, 'alice', 'sill') });
    await a.storage.flush();
    a.storage.stop();

    const b = await tab(name, `${name}-other`);
    const scene = b.store.getState().document.project!.scenes[0]!;
    expect(scene.labels.WHEELCHAIR?.[`${e.from}|${e.to}`]).toMatchObject({ traversable: false, note: 'sill', annotator: 'alice' });
    expect(b.store.getState().storage.status).toBe('saved');
    expect(b.store.getState().workspace.projects.map((p) => p.name)).toEqual(['House']);
  });

  it('a new project’s records are each stored in the bucket their key belongs to', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    const rows = await a.db.records.where('p').equals(row.id).toArray();
    const placed = rows.flatMap((r) => Object.keys(bucketRecords(r)).map((key) => [key, r.b, bucketOfKey(key)]));
    expect(placed.length).toBe(projectRecords(a.store.getState().document.project!).length);
    expect(placed.filter(([, b, want]) => b !== want)).toEqual([]);
    expect(new Set(rows.map((r) => r.b))).toEqual(new Set(['top', 'scene/HM3D00025', 'scene/HM3D00033']));
  });

  it('a label decision writes its scene’s bucket, not the project', async () => {
    const name = freshName();
    const a = await tab(name, name);
    await a.storage.create(readRelease(releaseFiles(Array.from({ length: 60 }, (_, i) => houseScene(`S${i}`))), 'Big').project!);
    const rows = await a.db.records.count();
    const before = new Map((await a.db.records.toArray()).map((r) => [r.b, rowText(r)]));
    const e = edges(a.store.getState().document.project!)[0]!;
    applyEdit(a.store, labelEdit, { sceneId: 'S0', agent: 'SWEEPER', from: e.from, to: e.to, label: label(false, 'alice', 'rug') });
    await a.storage.flush();
    const after = await a.db.records.toArray();
    const changed = after.filter((r) => before.get(r.b) !== rowText(r)).map((r) => r.b);
    expect(changed).toEqual(['scene/S0']);
    expect(after.length).toBe(rows);
  });

  it('a change made while the stored project loads is not written over it', async () => {
    const name = freshName();
    const a = await tab(name, name);
    await a.storage.create(emptyProject('stored'));
    a.storage.stop();
    const store = createStudioStore();
    const loading = startProjectStorage(store, new TraversaDb(name), { channel: openTabChannel(`${name}-b`) });
    replaceDocument(store, emptyProject('too early'));
    const storage = await loading;
    await storage.flush();
    expect(store.getState().document.project?.name).toBe('stored');
    expect((await storage.list()).map((p) => p.name)).toEqual(['stored']);
  });

  it('a failed write is shown, and the change is written with the next one', async () => {
    const name = freshName();
    const a = await tab(name, name);
    await a.storage.create(house());
    // The list row is written last in the write's transaction: failing it fails the whole write.
    const put = a.db.projects.put.bind(a.db.projects);
    a.db.projects.put = (() => Promise.reject(Object.assign(new Error('quota'), { name: 'QuotaExceededError' }))) as never;
    applyEdit(a.store, PROJECT_EDITS.rename, { name: 'Renamed' });
    const e = edges(a.store.getState().document.project!)[0]!;
    applyEdit(a.store, labelEdit, { sceneId: 'HM3D00025', agent: 'HUMANOID', from: e.from, to: e.to, label: label(true, 'alice') });
    await a.storage.flush();
    expect(a.store.getState().storage).toMatchObject({ status: 'error', message: expect.stringContaining('no storage space') });
    a.db.projects.put = put;
    await a.storage.flush();
    expect(a.store.getState().storage.status).toBe('saved');
    const b = await tab(name, `${name}-b`);
    expect(b.store.getState().document.project!.scenes[0]!.labels.HUMANOID?.[`${e.from}|${e.to}`]?.annotator).toBe('alice');
  });

  it('an unreadable stored record is set aside with its reason; the project opens without it', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    a.storage.stop();
    const p = house();
    const nodeKey = keyOf.node('HM3D00025', p.scenes[0]!.graph.nodes[0]!.id);
    const bucket = (await a.db.records.get([row.id, 'scene/HM3D00025']))!;
    await a.db.records.put(bucketRow(bucket.p, bucket.b, bucket.s, { ...bucketRecords(bucket), [nodeKey]: { value: { id: 3 }, order: 0 } }));
    const b = await tab(name, `${name}-b`);
    expect(b.store.getState().document.project!.scenes[0]!.graph.nodes.length).toBe(p.scenes[0]!.graph.nodes.length - 1);
    expect(b.store.getState().storage.message).toContain('set aside');
    const aside = await b.db.setAside.toArray();
    expect(aside.map((r) => r.reason)).toEqual([expect.stringContaining(nodeKey)]);
    expect(aside[0]!.row).toMatchObject({ key: nodeKey, record: { value: { id: 3 } } });
    // The rest of the bucket stays stored, and reads back without the bad record.
    const kept = bucketRecords((await b.db.records.get([row.id, 'scene/HM3D00025']))!);
    expect(nodeKey in kept).toBe(false);
    expect(Object.keys(kept).length).toBeGreaterThan(1);
  });

  it('a stored bucket whose text is not records is set aside whole (its scene), and the project opens with the rest', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    a.storage.stop();
    const stored = (await a.db.records.get([row.id, 'scene/HM3D00025']))!;
    const text = rowText(stored)!;
    const { z: _z, ...bucket } = stored;
    // Text as rows held it before they were deflated, cut short.
    await a.db.records.put({ ...bucket, j: text.slice(0, 40) });
    const b = await tab(name, `${name}-b`);
    const opened = b.store.getState().document.project!;
    expect(opened.scenes.map((sc) => sc.id)).toEqual(['HM3D00033']);
    const kept = a.store.getState().document.project!.scenes[1]!;
    expect(opened.scenes[0]!.graph).toEqual(kept.graph);
    expect(opened.scenes[0]!.questions).toEqual(kept.questions);
    expect(b.store.getState().storage.message).toMatch(/set aside \(first: bucket scene\/HM3D00025: the stored bucket is not JSON/);
    const aside = await b.db.setAside.toArray();
    expect(aside).toHaveLength(1);
    expect((aside[0]!.row as { j: string }).j).toBe(text.slice(0, 40));
  });

  it('a stored bucket whose deflated text is damaged is set aside whole, and the project opens with the rest', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    a.storage.stop();
    const bucket = (await a.db.records.get([row.id, 'scene/HM3D00025']))!;
    expect(bucket.z).toBeInstanceOf(Uint8Array);
    await a.db.records.put({ ...bucket, z: bucket.z!.slice(0, bucket.z!.length >> 1) });
    const b = await tab(name, `${name}-b`);
    expect(b.store.getState().document.project!.scenes.map((sc) => sc.id)).toEqual(['HM3D00033']);
    expect(b.store.getState().storage.message).toMatch(/set aside \(first: bucket scene\/HM3D00025: the stored bucket's deflated text cannot be read/);
    expect(await b.db.setAside.count()).toBe(1);
  });

  it('records stored as objects (database version 5) are rewritten as text on first start and open unchanged', async () => {
    const name = freshName();
    const a = await tab(`${name}-src`, `${name}-src`);
    const row = await a.storage.create(house());
    a.storage.stop();
    const rows = await a.db.records.where('p').equals(row.id).toArray();
    // The same project as version 5 of the database held it: records as `r` objects.
    const v5 = new Dexie(name);
    v5.version(5).stores({
      documents: 'slot',
      meshFiles: 'key',
      verdicts: 'key',
      suggestions: '[sceneId+meshKey], sceneId',
      setAside: '++id, table',
      projects: 'id, updatedAt',
      records: '[p+b], p, [p+s]',
      outbox: '[p+k], p',
    });
    await v5.table('projects').put((await a.db.projects.get(row.id))!);
    // Version 5 kept a scene's graph, each agent's labels and its decisions in buckets of their own.
    const v5Bucket = (key: string) => {
      const [kind, a, b] = key.split('/');
      return ({ node: `graph/${a}`, edge: `graph/${a}`, label: `labels/${a}/${b}`, adjudication: `decisions/${a}` } as Record<string, string>)[kind!] ?? null;
    };
    const v5Rows = new Map<string, { p: string; b: string; s: string; r: Record<string, unknown>; bytes: number }>();
    for (const r of rows) {
      for (const [key, held] of Object.entries(bucketRecords(r))) {
        const b = v5Bucket(key) ?? r.b;
        if (!v5Rows.has(b)) v5Rows.set(b, { p: r.p, b, s: r.s, r: {}, bytes: 0 });
        v5Rows.get(b)!.r[key] = held;
      }
    }
    expect(v5Rows.size).toBeGreaterThan(rows.length);
    await v5.table('records').bulkPut([...v5Rows.values()]);
    v5.close();
    const b = await tab(name, name, row.id);
    const before = await tab(`${name}-src`, `${name}-src2`, row.id);
    expect(b.store.getState().document.project).toEqual(before.store.getState().document.project);
    const after = await b.db.records.where('p').equals(row.id).toArray();
    // Regrouped one row per scene, as text, with the same records.
    const byBucket = (list: typeof rows) => [...list].sort((x, y) => (x.b < y.b ? -1 : 1)).map((r) => ({ b: r.b, s: r.s, records: bucketRecords(r) }));
    expect(after.every((r) => (r.z instanceof Uint8Array || typeof r.j === 'string') && !('r' in r))).toBe(true);
    expect(byBucket(after)).toEqual(byBucket(rows));
  });

  it('rows whose text keys records by name (as written before the list form) open unchanged', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    a.storage.stop();
    const before = (await tab(name, `${name}-0`, row.id)).store.getState().document.project;
    const rows = await a.db.records.where('p').equals(row.id).toArray();
    expect(rows.every((r) => rowText(r)!.startsWith('['))).toBe(true);
    await a.db.records.bulkPut(rows.map(({ p, b, s, bytes }, i) => ({ p, b, s, bytes, j: JSON.stringify(bucketRecords(rows[i]!)) })));
    expect((await a.db.records.where('p').equals(row.id).toArray()).every((r) => r.j!.startsWith('{'))).toBe(true);
    const b = await tab(name, name, row.id);
    expect(b.store.getState().document.project).toEqual(before);
    expect(b.store.getState().storage.message ?? '').not.toMatch(/set aside/);
  });

  it('projects saved before records (one document) open as projects of the list', async () => {
    const name = freshName();
    const db = new TraversaDb(name);
    await db.open();
    await db.documents.put({ slot: 'current', savedAt: 1, project: { ...house(), schemaVersion: 3, name: 'Mine' } });
    await db.documents.put({ slot: 'previous', savedAt: 1, project: { ...emptyProject('Older'), schemaVersion: 3 } });
    db.close();
    const a = await tab(name, name);
    expect(a.store.getState().document.project?.name).toBe('Mine');
    expect(
      a.store
        .getState()
        .workspace.projects.map((p) => p.name)
        .sort(),
    ).toEqual(['Mine', 'Older (before the last import)']);
    expect(await a.db.documents.get('current')).toBeTruthy();
  });
});

describe('several projects', () => {
  it('create, rename, duplicate and delete; the sizes are kept per project', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const first = await a.storage.create(house());
    const second = await a.storage.create(emptyProject('Empty'));
    await a.storage.rename(first.id, 'Two houses');
    const copy = await a.storage.duplicate(first.id);
    const list = await a.storage.list();
    expect(list.map((p) => p.name).sort()).toEqual(['Empty', 'Two houses', 'Two houses (copy)']);
    const big = list.find((p) => p.id === first.id)!,
      small = list.find((p) => p.id === second.id)!;
    expect(big.bytes).toBeGreaterThan(3 * small.bytes);
    expect(list.find((p) => p.id === copy.id)!.bytes).toBe(big.bytes);
    await a.storage.open(copy.id);
    expect(a.store.getState().document.project?.name).toBe('Two houses (copy)');
    expect(a.store.getState().document.project?.scenes).toHaveLength(2);
    await a.storage.remove(first.id);
    expect((await a.storage.list()).map((p) => p.name).sort()).toEqual(['Empty', 'Two houses (copy)']);
    expect(await a.db.records.where('p').equals(first.id).count()).toBe(0);
  });

  it("opening another project leaves the last one's banners, notices, measurement, item filters and scores behind; the user's settings stay", async () => {
    const name = freshName();
    const a = await tab(name, name);
    const first = await a.storage.create(house());
    const second = await a.storage.create(emptyProject('Empty'));
    await a.storage.open(first.id);
    a.store.setState((s) => ({
      importReport: { source: 'generated.jsonl', accepted: true, problems: [], at: 1 },
      ephemeral: { ...s.ephemeral, notice: 'Saved: HUMAN a → b traversable.', measure: { points: [] } as unknown as typeof s.ephemeral.measure },
      qa: { ...s.qa, filter: 'pending', itemId: 'qa_3', rejecting: true, importReviews: 2 },
      scoring: { ...s.scoring, selectedModel: 'vlm', settings: { ...s.scoring.settings, judge: 'none' } },
    }));
    await a.storage.open(second.id);
    const s = a.store.getState();
    expect(s.importReport).toBeNull();
    expect(s.ephemeral).toMatchObject({ notice: null, measure: null });
    expect(s.qa).toMatchObject({ filter: 'all', itemId: null, rejecting: false, importReviews: 2 });
    expect(s.scoring).toMatchObject({ selectedModel: null, reports: [], settings: { judge: 'none' } });
  });

  it('a new project shows while its records commit; "saved" comes with the transaction, and a project that cannot be stored leaves the open one', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const first = await a.storage.create(house());
    const seen: { name: string | undefined; status: string }[] = [];
    const unsubscribe = a.store.subscribe((s, prev) => {
      if (s.document !== prev.document || s.storage !== prev.storage) seen.push({ name: s.document.project?.name, status: s.storage.status });
    });
    const big = readRelease(releaseFiles(Array.from({ length: 20 }, (_, i) => houseScene(`S${i}`))), 'Twenty').project!;
    const created = await a.storage.create(big);
    unsubscribe();
    expect(seen.map((x) => [x.name, x.status])).toEqual([
      ['House', 'saving'],
      ['Twenty', 'saving'],
      ['Twenty', 'saved'],
    ]);
    expect(await a.db.records.where('p').equals(created.id).count()).toBeGreaterThan(20);
    expect(a.store.getState().workspace.projectId).toBe(created.id);

    // A value that cannot be stored (a BigInt has no JSON form) refuses the whole project: nothing of it is stored and the open project stays.
    const broken = { ...emptyProject('Broken'), extra: { n: 1n } } as unknown as Project;
    await expect(a.storage.create(broken)).rejects.toThrow();
    expect(a.store.getState().document.project?.name).toBe('Twenty');
    expect(a.store.getState().storage).toMatchObject({ status: 'error', message: expect.stringContaining('Nothing was stored') });
    expect((await a.storage.list()).map((p) => p.id).sort()).toEqual([first.id, created.id].sort());
  });

  it('a project made without storage (a first scene) becomes a stored project', async () => {
    const name = freshName();
    const a = await tab(name, name);
    expect(a.store.getState().workspace.projectId).toBeNull();
    replaceDocument(a.store, emptyProject('New project')); // as createScene does with no project open
    applyEdit(a.store, PROJECT_EDITS.addScene, { id: 'scene_1' });
    await settle();
    await a.storage.flush();
    const b = await tab(name, `${name}-b`);
    expect(b.store.getState().document.project?.scenes.map((s) => s.id)).toEqual(['scene_1']);
  });
});

describe('two tabs on one project', () => {
  it('each sees the other label live, and after reload every confirmed label of both is there', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    const b = await tab(name, name, row.id);
    const es = edges(a.store.getState().document.project!);
    // Tab A labels the wheelchair, tab B the sweeper, interleaved, without waiting for each other.
    for (let i = 0; i < 4; i++) {
      applyEdit(a.store, labelEdit, {
        sceneId: 'HM3D00025',
        agent: 'WHEELCHAIR',
        from: es[i]!.from,
        to: es[i]!.to,
        label: label(i % 2 === 0, 'alice', `a${i}`),
      });
      applyEdit(b.store, labelEdit, { sceneId: 'HM3D00025', agent: 'SWEEPER', from: es[i]!.from, to: es[i]!.to, label: label(i % 2 === 1, 'alice', `b${i}`) });
    }
    await Promise.all([a.storage.flush(), b.storage.flush()]);
    await settle(50);
    await Promise.all([a.storage.flush(), b.storage.flush()]);
    for (const t of [a, b]) {
      const s = t.store.getState().document.project!.scenes[0]!;
      expect([0, 1, 2, 3].map((i) => noteOf(s, 'WHEELCHAIR', es[i]!))).toEqual(['a0', 'a1', 'a2', 'a3']);
      expect([0, 1, 2, 3].map((i) => noteOf(s, 'SWEEPER', es[i]!))).toEqual(['b0', 'b1', 'b2', 'b3']);
    }
    const reloaded = await tab(name, `${name}-reload`, row.id);
    const s = reloaded.store.getState().document.project!.scenes[0]!;
    expect([0, 1, 2, 3].map((i) => noteOf(s, 'WHEELCHAIR', es[i]!))).toEqual(['a0', 'a1', 'a2', 'a3']);
    expect([0, 1, 2, 3].map((i) => noteOf(s, 'SWEEPER', es[i]!))).toEqual(['b0', 'b1', 'b2', 'b3']);
  });

  it("undo in one tab takes back only that tab's step, never the other tab's work", async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    const b = await tab(name, name, row.id);
    const [e0, e1] = edges(a.store.getState().document.project!);
    applyEdit(a.store, labelEdit, { sceneId: 'HM3D00025', agent: 'WHEELCHAIR', from: e0!.from, to: e0!.to, label: label(false, 'alice', 'mine') });
    await a.storage.flush();
    applyEdit(b.store, labelEdit, { sceneId: 'HM3D00025', agent: 'WHEELCHAIR', from: e1!.from, to: e1!.to, label: label(true, 'bob', 'theirs') });
    await b.storage.flush();
    await settle(50);
    expect(a.store.getState().document.project!.scenes[0]!.labels.WHEELCHAIR?.[`${e1!.from}|${e1!.to}`]?.note).toBe('theirs');
    undo(a.store);
    await a.storage.flush();
    await settle(50);
    for (const t of [a, b]) {
      const s = t.store.getState().document.project!.scenes[0]!;
      expect(s.labels.WHEELCHAIR?.[`${e0!.from}|${e0!.to}`]?.note).not.toBe('mine');
      expect(s.labels.WHEELCHAIR?.[`${e1!.from}|${e1!.to}`]?.note).toBe('theirs');
    }
    redo(a.store);
    expect(a.store.getState().document.project!.scenes[0]!.labels.WHEELCHAIR?.[`${e0!.from}|${e0!.to}`]?.note).toBe('mine');
  });

  it('an undo of a record the other tab has changed since leaves their version and says so', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    const b = await tab(name, name, row.id);
    applyEdit(a.store, PROJECT_EDITS.rename, { name: 'Mine' });
    await a.storage.flush();
    await settle(50);
    applyEdit(b.store, PROJECT_EDITS.rename, { name: 'Theirs' });
    await b.storage.flush();
    await settle(50);
    undo(a.store);
    expect(a.store.getState().document.project!.name).toBe('Theirs');
    expect(a.store.getState().ephemeral.notice).toContain('changed since in another tab');
  });

  it('a project deleted in one tab is reported in the other, which stops saving into nothing', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    const b = await tab(name, name, row.id);
    await a.storage.remove(row.id);
    await settle(50);
    expect(b.store.getState().storage).toMatchObject({ status: 'error', message: expect.stringContaining('deleted in another tab') });
  });
});

describe('the outbox of a project connected to a team', () => {
  it('a change made here waits in the outbox; what the team sends takes every other record but never that one', async () => {
    const name = freshName();
    const a = await tab(name, name);
    const row = await a.storage.create(house());
    await a.db.projects.update(row.id, { sync: { url: 'http://127.0.0.1:5984/house', user: 'alice' } });
    const project = keyOf.project();
    const taxonomy = keyOf.taxonomy();
    const stored = await readRecords(a.db, row.id, [project, taxonomy]);
    const mine = { ...stored.get(project)!, value: { ...(stored.get(project)!.value as object), name: 'Mine' } };
    await writeChanges(a.db, row.id, [{ key: project, after: mine }]);
    expect((await a.db.outbox.toArray()).map((r) => r.k)).toEqual([project]);

    // The team's versions of both records arrive: the one with a change waiting here is left alone.
    const theirs = { ...mine, value: { ...mine.value, name: 'Theirs' } };
    const theirTaxonomy = { ...stored.get(taxonomy)!, order: 7 };
    await writeChanges(
      a.db,
      row.id,
      [
        { key: project, after: theirs },
        { key: taxonomy, after: theirTaxonomy },
      ],
      undefined,
      'team',
    );
    const after = await readRecords(a.db, row.id, [project, taxonomy]);
    expect((after.get(project)!.value as { name: string }).name).toBe('Mine');
    expect(after.get(taxonomy)!.order).toBe(7);
    // The team's writes are not sent back to it.
    expect((await a.db.outbox.toArray()).map((r) => r.k)).toEqual([project]);
  });
});

describe('stored document versions', () => {
  it('refuses a document written by a newer Traversa instead of damaging it', () => {
    const r = migrateProject({ schemaVersion: 99, name: 'future' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain('newer Traversa');
  });
  it('opens a version-1 project (before scans were stored) at the current version with no scan and no QA items', () => {
    const v1 = {
      schemaVersion: 1,
      name: 'old',
      profiles: [],
      scenes: [{ id: 'S', graph: { nodes: [], edges: [] }, questions: [], labels: {}, hallucinated: [] }],
    };
    const r = migrateProject(v1);
    expect(r.ok && r.project.schemaVersion).toBe(PROJECT_SCHEMA_VERSION);
    expect(r.ok && r.project.scenes[0]!.mesh).toBeNull();
    expect(r.ok && r.project.qa.items).toEqual([]);
  });
});

describe('a stored bucket’s text', () => {
  const row = (j: string) => ({ p: 'p', b: 'top', s: 'top', j, bytes: j.length });
  it('reads a list of [key, value, order], and an object keyed by record (written before the list)', () => {
    expect(bucketRecords(row('[["profile/HUMAN",{"a":1},0],["profile/ROBOT",null,1]]'))).toEqual({
      'profile/HUMAN': { value: { a: 1 }, order: 0 },
      'profile/ROBOT': { value: null, order: 1 },
    });
    expect(bucketRecords(row('{"profile/HUMAN":{"value":{"a":1},"order":0}}'))).toEqual({ 'profile/HUMAN': { value: { a: 1 }, order: 0 } });
  });

  it('refuses, with the entry named, a list entry that is not [key, value, order] or whose key would replace the map’s prototype', () => {
    expect(() => bucketRecords(row('[["profile/HUMAN",{"a":1}]]'))).toThrow(/the stored record at 0 is not \[key, value, order\]/);
    expect(() => bucketRecords(row('[["a",1,0],[1,2,3]]'))).toThrow(/the stored record at 1/);
    expect(() => bucketRecords(row('[["a",1,"0"]]'))).toThrow(/at 0/);
    expect(() => bucketRecords(row('[["__proto__",{"polluted":true},0]]'))).toThrow(/at 0/);
    expect(() => bucketRecords(row('"text"'))).toThrow(/not a list of records/);
    expect(() => bucketRecords(row('{"__proto__":{"value":{"polluted":true},"order":0}}'))).toThrow(/the stored record __proto__ is not/);
  });

  it('a key listed twice is read as a map would read it: the last one holds', () => {
    expect(bucketRecords(row('[["profile/A",1,0],["profile/B",2,1],["profile/A",3,2]]'))).toEqual({
      'profile/A': { value: 3, order: 2 },
      'profile/B': { value: 2, order: 1 },
    });
  });

  it('is kept deflated, and read back exactly (text outside Latin-1 included)', () => {
    const text = JSON.stringify([
      ['node/S/n1', { name: 'Küche — 厨房 🏠', x: 1.25 }, 0],
      ['node/S/n2', { name: 'x'.repeat(5000) }, 1],
    ]);
    const packed = packedRow('p', 'scene/S', 'scene:S', text);
    expect(packed.j).toBeUndefined();
    expect(packed.bytes).toBe(text.length);
    expect(packed.z!.byteLength).toBeLessThan(text.length / 4);
    // Only the bytes themselves are kept, not a larger buffer they are a view of.
    expect(packed.z!.buffer.byteLength).toBe(packed.z!.byteLength);
    expect(rowText(packed)).toBe(text);
    expect(bucketRecords(packed)['node/S/n1']!.value).toEqual({ name: 'Küche — 厨房 🏠', x: 1.25 });
    // A row whose inflated length is not the one written is not read as records.
    expect(() => bucketRecords({ ...packed, u: packed.u! + 7 })).toThrow(/deflated text cannot be read/);
  });

  it('a short row (one QA item) is kept as text: deflating it costs more than it saves', () => {
    const text = JSON.stringify([['qa/qa_1', { question: 'Is the kitchen next to the hall?' }, 0]]);
    expect(text.length).toBeLessThan(PLAIN_BELOW);
    const row = packedRow('p', 'qa/qa_1', 'qa', text);
    expect(row.z).toBeUndefined();
    expect(row.j).toBe(text);
    expect(bucketRecords(row)['qa/qa_1']!.value).toEqual({ question: 'Is the kitchen next to the hall?' });
    expect(packedRow('p', 'qa/qa_1', 'qa', JSON.stringify([['qa/qa_1', { question: 'x'.repeat(PLAIN_BELOW) }, 0]])).j).toBeUndefined();
  });
});
