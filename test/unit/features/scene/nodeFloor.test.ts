import { describe, expect, it } from 'vitest';
import { setNodeFloor } from '../../../../src/features/scene/state/graphCommands.ts';
import { undo } from '../../../../src/state/history.ts';
import type { MeshStatus, StudioStore } from '../../../../src/state/store.ts';
import { labellingStore, twoStoreyProject } from '../../../support/labelStudio.ts';

/** The two-storey house in the scene view, with its scan's floors as detected, or without a scan. */
function editing(scan: 'ready' | 'loading' | 'none'): StudioStore {
  const p = twoStoreyProject();
  if (scan !== 'none') p.scenes[0]!.mesh = { key: 'scan-1', mainFile: 'house.glb', files: [], upAxis: 'y', unitScale: 1 };
  const store = labellingStore(p);
  const meshes: Record<string, MeshStatus> =
    scan === 'ready'
      ? { HOUSE: { state: 'ready', triangles: 100, floors: [0, 2.8], warnings: [] } }
      : scan === 'loading'
        ? { HOUSE: { state: 'loading', stage: 'parse', fraction: 0.5, message: 'Reading…' } }
        : {};
  store.setState((s) => ({ session: { ...s.session, view: 'scene', selection: { kind: 'node', id: 'bedroom' } }, meshes }));
  return store;
}
const floorOf = (store: StudioStore, id: string) => store.getState().document.project!.scenes[0]!.graph.nodes.find((n) => n.id === id)!.floor;

describe('editing a node’s floor number', () => {
  it('a floor the scan does not have is refused with the reason, and nothing changes', () => {
    const store = editing('ready');
    const before = store.getState().document;
    expect(setNodeFloor(store, 'bedroom', 2)).toMatch(/The scan has 2 floors \(1–2\): there is no floor 3/);
    expect(store.getState().document).toBe(before);
    expect(store.getState().history.past).toEqual([]);
  });

  it('a floor the scan has is set as exactly one undo step', () => {
    const store = editing('ready');
    expect(setNodeFloor(store, 'bedroom', 1)).toBeNull();
    expect(floorOf(store, 'bedroom')).toBe(1);
    expect(store.getState().history.past.map((e) => e.label)).toEqual(['Assign floor']);
    undo(store);
    expect(floorOf(store, 'bedroom')).toBeNull();
  });

  it('clearing the floor is allowed; the same floor again is no step at all', () => {
    const store = editing('ready');
    setNodeFloor(store, 'bedroom', 1);
    expect(setNodeFloor(store, 'bedroom', 1)).toBeNull();
    expect(setNodeFloor(store, 'bedroom', null)).toBeNull();
    expect(store.getState().history.past.map((e) => e.label)).toEqual(['Assign floor', 'Assign floor']);
    expect(floorOf(store, 'bedroom')).toBeNull();
  });

  it('floor 0, a fraction or a negative number are refused', () => {
    const store = editing('ready');
    expect(setNodeFloor(store, 'bedroom', -1)).toMatch(/numbered from 1/);
    expect(setNodeFloor(store, 'bedroom', 0.5)).toMatch(/whole number/);
    expect(store.getState().history.past).toEqual([]);
  });

  it('without a scan the floors come from the nodes’ heights (here two), and the message says so', () => {
    const store = editing('none');
    expect(setNodeFloor(store, 'kitchen', 2)).toMatch(/Without a scan, floors come from the nodes’ heights, and they make 2 floors/);
    expect(setNodeFloor(store, 'kitchen', 1)).toBeNull();
    expect(floorOf(store, 'kitchen')).toBe(1);
  });

  it('while the scan is still loading its floors are not known: refused, nothing changes', () => {
    const store = editing('loading');
    expect(setNodeFloor(store, 'bedroom', 1)).toMatch(/still loading/);
    expect(floorOf(store, 'bedroom')).toBeNull();
  });
});
