import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { SuggestionRunner } from '../../../src/features/suggestions/app/suggestions.ts';
import type { MeshManager } from '../../../src/services/meshManager.ts';
import { moveNode, renameNode } from '../../../src/core/graphEdit.ts';
import type { Project } from '../../../src/core/project.ts';
import { staleReason, suggestionBasis } from '../../../src/core/suggestionBasis.ts';
import { TraversaDb } from '../../../src/persistence/db.ts';
import { keepSuggestions, loadSuggestions, loadSuggestionsOf, SUGGESTIONS_VERSION, type KeptSuggestions } from '../../../src/persistence/suggestionStore.ts';
import { applyEdit } from '../../../src/state/edits.ts';
import { dragNode, endNodeDrag, startNodeDrag } from '../../../src/features/scene/state/graphCommands.ts';
import { SCAN_EDITS } from '../../../src/state/scanEdits.ts';
import { replaceDocument, undo } from '../../../src/state/history.ts';
import { sceneQueue } from '../../../src/features/labelling/state/queueSelectors.ts';
import { createStudioStore } from '../../../src/state/store.ts';
import { freshSuggestions, suggestionFor, suggestionsStale } from '../../../src/features/suggestions/state/suggestionSelectors.ts';
import { twoStoreyProject } from '../../support/twoStoreys.ts';

let n = 0;
const freshDb = () => new TraversaDb(`traversa-suggestions-${n++}`);

function scanned(key = 'scan-1'): Project {
  const p = twoStoreyProject();
  p.scenes[0]!.mesh = { key, mainFile: 'house.glb', files: [], upAxis: 'y', unitScale: 1 };
  return p;
}

/** Suggestions as the worker's results become: the stairs blocked for the wheelchair. */
function computedFor(p: Project, computedAt = 1000): KeptSuggestions {
  const basis = suggestionBasis(p.scenes[0]!, p.profiles)!;
  return {
    computedAt,
    basis,
    agents: {
      WHEELCHAIR: {
        'foot|landing': {
          traversable: false,
          reason: 'stairs',
          note: 'Stairs: 17 risers of 0.175 m',
          measured: { risers: 17, riserM: 0.175 },
          navmeshRoute: false,
        },
        'hall|kitchen': { traversable: true, reason: null, note: 'Clear', measured: { clearWidthM: Infinity, cornerWidthsM: [0.8, 0.9] }, navmeshRoute: true },
      },
    },
  };
}

function studioWith(p: Project, kept: KeptSuggestions) {
  const store = createStudioStore();
  replaceDocument(store, p);
  store.setState((s) => ({ session: { ...s.session, sceneId: 'HOUSE' }, suggestions: { HOUSE: { state: 'ready', ...kept } } }));
  return store;
}

describe('suggestions know what they were computed from', () => {
  it('are fresh on the scan, graph and agents they were computed from; renaming a node or giving it a floor changes nothing', () => {
    const p = scanned();
    const basis = suggestionBasis(p.scenes[0]!, p.profiles)!;
    expect(staleReason(basis, suggestionBasis(p.scenes[0]!, p.profiles))).toBeNull();
    const renamed = { ...renameNode(p.scenes[0]!, 'hall', 'Entrance hall') };
    renamed.graph = { ...renamed.graph, nodes: renamed.graph.nodes.map((x) => (x.id === 'hall' ? { ...x, floor: 0 } : x)) };
    expect(staleReason(basis, suggestionBasis(renamed, p.profiles))).toBeNull();
  });

  it('are stale once the scan is replaced or removed, the graph edited, or the agents changed', () => {
    const p = scanned();
    const scene = p.scenes[0]!;
    const basis = suggestionBasis(scene, p.profiles)!;
    expect(staleReason(basis, suggestionBasis({ ...scene, mesh: { ...scene.mesh!, key: 'scan-2' } }, p.profiles))).toMatch(/another scan/);
    expect(staleReason(basis, suggestionBasis({ ...scene, mesh: null }, p.profiles))).toMatch(/no longer has/);
    expect(staleReason(basis, suggestionBasis({ ...scene, mesh: { ...scene.mesh!, upAxis: 'z' } }, p.profiles))).toMatch(/up axis/);
    expect(staleReason(basis, suggestionBasis(moveNode(scene, 'hall', { x: 0.5, y: 0, z: 0 }), p.profiles))).toMatch(/graph was edited/);
    const wider = p.profiles.map((x) => (x.name === 'WHEELCHAIR' ? { ...x, widthM: 0.8 } : x));
    expect(staleReason(basis, suggestionBasis(scene, wider))).toMatch(/agent profiles/);
  });
});

describe('in the studio, out-of-date suggestions are shown as such and not offered', () => {
  it('moving a node makes them stale (no suggestion for the segment, Enter has nothing to accept); undoing the move makes them fresh again', () => {
    const p = scanned();
    const store = studioWith(p, computedFor(p));
    const stairs = sceneQueue(store.getState()).find((i) => i.agent === 'WHEELCHAIR' && i.from === 'foot')!;
    expect(suggestionFor(store.getState(), 'HOUSE', stairs)?.reason).toBe('stairs');
    startNodeDrag(store);
    dragNode(store, 'landing', { x: 0, y: 3, z: 4.5 });
    endNodeDrag(store);
    expect(suggestionsStale(store.getState(), 'HOUSE')).toMatch(/graph was edited/);
    expect(suggestionFor(store.getState(), 'HOUSE', stairs)).toBeUndefined();
    expect(freshSuggestions(store.getState(), 'HOUSE')).toBeNull();
    undo(store);
    expect(suggestionsStale(store.getState(), 'HOUSE')).toBeNull();
    expect(suggestionFor(store.getState(), 'HOUSE', stairs)?.reason).toBe('stairs');
  });

  it('replacing the scan makes them stale', () => {
    const p = scanned();
    const store = studioWith(p, computedFor(p));
    applyEdit(store, SCAN_EDITS.attach, { sceneId: 'HOUSE', mesh: { ...scanOf(store), key: 'scan-2' } });
    expect(suggestionsStale(store.getState(), 'HOUSE')).toMatch(/another scan/);
  });

  it('they never enter the document: no undo step, nothing in the project', () => {
    const p = scanned();
    const store = studioWith(p, computedFor(p));
    expect(store.getState().history.past).toEqual([]);
    expect(JSON.stringify(store.getState().document.project)).not.toContain('risers');
  });
});

describe('suggestions kept with the project (IndexedDB)', () => {
  it('read back as they were kept, by scene and scan', async () => {
    const db = freshDb();
    const p = scanned();
    await keepSuggestions(db, 'HOUSE', computedFor(p));
    const { kept, setAside } = await loadSuggestions(db, 'HOUSE', 'scan-1');
    expect(kept).toEqual(computedFor(p));
    expect(setAside).toEqual([]);
    expect((await loadSuggestions(db, 'OTHER', 'scan-1')).kept).toBeNull();
  });

  it('many scenes are read in one go, each given its own (or none)', async () => {
    const db = freshDb();
    await keepSuggestions(db, 'HOUSE', computedFor(scanned('scan-1'), 1000));
    await keepSuggestions(db, 'BARN', computedFor(scanned('scan-2'), 2000));
    const found = await loadSuggestionsOf(db, [
      { sceneId: 'HOUSE', meshKey: 'scan-1' },
      { sceneId: 'BARN', meshKey: 'scan-2' },
      { sceneId: 'SHED', meshKey: null },
    ]);
    expect(found.get('HOUSE')?.kept?.basis.meshKey).toBe('scan-1');
    expect(found.get('BARN')?.kept?.basis.meshKey).toBe('scan-2');
    expect(found.get('SHED')).toEqual({ kept: null, setAside: [] });
  });

  it('those of the scene’s own scan come first; without them, the latest of another scan (which the basis shows stale)', async () => {
    const db = freshDb();
    await keepSuggestions(db, 'HOUSE', computedFor(scanned('scan-1'), 1000));
    await keepSuggestions(db, 'HOUSE', computedFor(scanned('scan-2'), 2000));
    expect((await loadSuggestions(db, 'HOUSE', 'scan-1')).kept?.basis.meshKey).toBe('scan-1');
    expect((await loadSuggestions(db, 'HOUSE', 'scan-3')).kept?.basis.meshKey).toBe('scan-2');
    expect((await loadSuggestions(db, 'HOUSE', null)).kept?.basis.meshKey).toBe('scan-2');
  });

  it('a damaged row, or one from a newer Traversa, is set aside unchanged with the reason, never deleted; the readable one is still read', async () => {
    const db = freshDb();
    const p = scanned();
    await keepSuggestions(db, 'HOUSE', computedFor(p));
    const damaged = { sceneId: 'HOUSE', meshKey: 'scan-0', version: 1, savedAt: 5, suggestions: { computedAt: 'yesterday' } };
    const future = { sceneId: 'HOUSE', meshKey: 'scan-9', version: SUGGESTIONS_VERSION + 1, savedAt: 6, suggestions: { shape: 'new' } };
    await db.suggestions.bulkPut([damaged, future]);
    const { kept, setAside } = await loadSuggestions(db, 'HOUSE', 'scan-1');
    expect(kept?.basis.meshKey).toBe('scan-1');
    expect(setAside).toHaveLength(2);
    const aside = await db.setAside.toArray();
    expect(aside.map((r) => r.row)).toEqual(expect.arrayContaining([damaged, future]));
    expect(aside.find((r) => (r.row as typeof future).meshKey === 'scan-9')?.reason).toMatch(/newer Traversa/);
    expect(aside.find((r) => (r.row as typeof damaged).meshKey === 'scan-0')?.reason).toMatch(/damaged at computedAt/);
    expect((await db.suggestions.toArray()).map((r) => r.meshKey)).toEqual(['scan-1']);
  });

  it('a reload reads them back into the studio; a scene whose graph changed meanwhile shows them stale', async () => {
    const db = freshDb();
    const p = scanned();
    await keepSuggestions(db, 'HOUSE', computedFor(p));

    const store = createStudioStore();
    const runner = new SuggestionRunner(store, {} as MeshManager, db);
    replaceDocument(store, p); // the stored project opens
    await runner.restore();
    const shown = store.getState().suggestions.HOUSE;
    expect(shown).toMatchObject({ state: 'ready', kept: true, basis: { meshKey: 'scan-1' } });
    expect(suggestionsStale(store.getState(), 'HOUSE')).toBeNull();

    const moved = { ...p, scenes: [moveNode(p.scenes[0]!, 'bedroom', { x: 1, y: 3, z: 0 })] };
    const again = createStudioStore();
    const runner2 = new SuggestionRunner(again, {} as MeshManager, db);
    replaceDocument(again, moved);
    await runner2.restore();
    expect(again.getState().suggestions.HOUSE?.state).toBe('ready');
    expect(suggestionsStale(again.getState(), 'HOUSE')).toMatch(/graph was edited/);
  });

  it('when a scene gets its earlier scan back (undo of a replacement), its suggestions for that scan come back', async () => {
    const db = freshDb();
    const p1 = scanned('scan-1');
    await keepSuggestions(db, 'HOUSE', computedFor(p1, 1000));
    const store = createStudioStore();
    const runner = new SuggestionRunner(store, {} as MeshManager, db);
    replaceDocument(store, p1);
    await runner.restore();
    applyEdit(store, SCAN_EDITS.attach, { sceneId: 'HOUSE', mesh: { ...scanOf(store), key: 'scan-2' } });
    await runner.restore();
    expect(suggestionsStale(store.getState(), 'HOUSE')).toMatch(/another scan/);
    // Recomputed on the new scan (as “Recompute suggestions” does: shown, and kept).
    const onScan2 = computedFor(scanned('scan-2'), 2000);
    await keepSuggestions(db, 'HOUSE', onScan2);
    store.setState((s) => ({ suggestions: { ...s.suggestions, HOUSE: { state: 'ready', ...onScan2 } } }));
    undo(store);
    await runner.restore();
    expect(store.getState().suggestions.HOUSE).toMatchObject({ state: 'ready', computedAt: 1000, basis: { meshKey: 'scan-1' } });
    expect(suggestionsStale(store.getState(), 'HOUSE')).toBeNull();
  });
});

/** The HOUSE scene's scan reference as the document holds it. */
function scanOf(store: ReturnType<typeof studioWith>) {
  return store.getState().document.project!.scenes.find((x) => x.id === 'HOUSE')!.mesh!;
}
