import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { emptyProject, PROJECT_SCHEMA_VERSION } from '../../src/core/project.ts';
import { startPersistence } from '../../src/persistence/autosave.ts';
import { TraversaDb } from '../../src/persistence/db.ts';
import { migrateProject } from '../../src/core/migrate.ts';
import { replaceDocument } from '../../src/state/history.ts';
import { createStudioStore } from '../../src/state/store.ts';

let n = 0;
const freshDb = () => new TraversaDb(`traversa-test-${n++}`);

describe('autosave', () => {
  it('saves a change and a new session opens it', async () => {
    const db = freshDb();
    const store = createStudioStore();
    const p = await startPersistence(store, db, 5);
    replaceDocument(store, emptyProject('kept'));
    await p.flush();
    p.stop();

    const again = createStudioStore();
    await startPersistence(again, db);
    expect(again.getState().document.project?.name).toBe('kept');
    expect(again.getState().storage.status).toBe('saved');
  });

  it('never writes before the stored project has loaded', async () => {
    const db = freshDb();
    await db.documents.put({ slot: 'current', savedAt: 1, project: emptyProject('stored') });
    const store = createStudioStore();
    // A change made while loading is replaced by the stored document, not written over it.
    const loading = startPersistence(store, db, 5);
    replaceDocument(store, emptyProject('too early'));
    const p = await loading;
    await p.flush();
    expect((await db.documents.get('current'))?.project).toMatchObject({ name: 'stored' });
  });

  it('a damaged stored project is reported and set aside unchanged, and new work is still saved', async () => {
    const db = freshDb();
    await db.documents.put({ slot: 'current', savedAt: 1, project: { schemaVersion: 1, name: 3 } });
    const store = createStudioStore();
    const p = await startPersistence(store, db, 5);
    expect(store.getState().storage.status).toBe('error');
    expect(store.getState().storage.message).toContain('damaged');
    replaceDocument(store, emptyProject('new'));
    await p.flush();
    expect((await db.documents.get('damaged'))?.project).toEqual({ schemaVersion: 1, name: 3 });
    expect((await db.documents.get('current'))?.project).toMatchObject({ name: 'new' });
  });

  it('a failed write is shown to the user', async () => {
    const db = freshDb();
    const store = createStudioStore();
    const p = await startPersistence(store, db, 5);
    db.documents.put = () => Promise.reject(Object.assign(new Error('quota'), { name: 'QuotaExceededError' })) as never;
    replaceDocument(store, emptyProject('x'));
    await p.flush();
    expect(store.getState().storage.status).toBe('error');
    expect(store.getState().storage.message).toContain('no storage space');
  });
});

describe('stored document versions', () => {
  it('refuses a document written by a newer Traversa instead of damaging it', () => {
    const r = migrateProject({ schemaVersion: 99, name: 'future' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain('newer Traversa');
  });
  it('accepts the current version', () => {
    expect(migrateProject(emptyProject('now')).ok).toBe(true);
  });
});

describe('schema migrations', () => {
  it('opens a version-1 project (before scans were stored) at the current version with no scan and no QA items', () => {
    const v1 = { schemaVersion: 1, name: 'old', profiles: [], scenes: [{ id: 'S', graph: { nodes: [], edges: [] }, questions: [], labels: {}, hallucinated: [] }] };
    const r = migrateProject(v1);
    expect(r.ok).toBe(true);
    expect(r.ok && r.project.schemaVersion).toBe(PROJECT_SCHEMA_VERSION);
    expect(r.ok && r.project.scenes[0]!.mesh).toBeNull();
    expect(r.ok && r.project.qa.items).toEqual([]);
  });
  it('opens a version-2 project (before QA items) with the default taxonomy and keeps its scenes', () => {
    const v2 = { schemaVersion: 2, name: 'old', profiles: [], scenes: [{ id: 'S', graph: { nodes: [], edges: [] }, questions: [], labels: {}, hallucinated: [], mesh: null }] };
    const r = migrateProject(v2);
    expect(r.ok).toBe(true);
    expect(r.ok && r.project.scenes.map((s) => s.id)).toEqual(['S']);
    expect(r.ok && r.project.qa.taxonomy.capabilities.length).toBeGreaterThan(0);
  });
});

describe('saving status', () => {
  it('an edit undone before it was written leaves nothing unsaved (not "Saving…" forever)', async () => {
    const db = freshDb();
    const store = createStudioStore();
    const p = await startPersistence(store, db, 5);
    const stored = emptyProject('stored');
    replaceDocument(store, stored);
    await p.flush();
    replaceDocument(store, { ...stored, name: 'edited' });
    replaceDocument(store, stored);
    await p.flush();
    expect(store.getState().storage.status).toBe('saved');
  });
});
