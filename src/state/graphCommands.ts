import { floorChoiceProblem } from '../core/floors.ts';
import type { Vec3 } from '../core/graph.ts';
import * as edit from '../core/graphEdit.ts';
import type { Project, Scene } from '../core/project.ts';
import { sceneFloorInfo } from './slice.ts';
import { beginGesture, cancelGesture, commitDocument, commitGesture, gestureActive, previewDocument } from './history.ts';
import type { StudioState, StudioStore } from './store.ts';

/** Graph edits of the selected scene, each one undo step (a drag is one step too). */

const withScene = (p: Project, sceneId: string, fn: (s: Scene) => Scene): Project => {
  let changed = false;
  const scenes = p.scenes.map((s) => {
    if (s.id !== sceneId) return s;
    const next = fn(s);
    changed ||= next !== s;
    return next;
  });
  return changed ? { ...p, scenes } : p;
};

/** One undoable edit of a scene (by default the selected one). */
export function editScene(store: StudioStore, label: string, fn: (s: Scene) => Scene, sceneId = store.getState().session.sceneId): void {
  if (sceneId) commitDocument(store, label, (p) => withScene(p, sceneId, fn));
}

const setSession = (store: StudioStore, patch: Partial<StudioState['session']>) =>
  store.setState((s) => ({ session: { ...s.session, ...patch } }));
const setEphemeral = (store: StudioStore, patch: Partial<StudioState['ephemeral']>) =>
  store.setState((s) => ({ ephemeral: { ...s.ephemeral, ...patch } }));

/** Place a node at a point on the floor (mesh frame) and select it. */
export function placeNode(store: StudioStore, at: Vec3, floor: number | null = null): string | null {
  let id: string | null = null;
  editScene(store, 'Place node', (s) => {
    const r = edit.addNode(s, at, undefined, floor);
    id = r.id;
    return r.scene;
  });
  if (id) setSession(store, { selection: { kind: 'node', id } });
  return id;
}

export const renameNode = (store: StudioStore, id: string, name: string) => editScene(store, 'Rename node', (s) => edit.renameNode(s, id, name));
export const describeNode = (store: StudioStore, id: string, text: string) => editScene(store, 'Describe node', (s) => edit.describeNode(s, id, text));
export const assignFloor = (store: StudioStore, ids: string[], floor: number | null) => editScene(store, 'Assign floor', (s) => edit.assignFloor(s, ids, floor));

/**
 * Give a node of the selected scene a floor (0-based; null clears it), as typed in the node panel:
 * one undo step, or — for a floor the scan does not have — nothing at all and the reason why.
 */
export function setNodeFloor(store: StudioStore, id: string, floor: number | null): string | null {
  const info = sceneFloorInfo(store.getState());
  if (floor !== null && info.from === 'loading') return 'The scan is still loading: its floors are not known yet. Nothing was changed.';
  const problem = floorChoiceProblem(floor, info.floors.length, info.from === 'scan' ? 'scan' : 'nodes');
  if (problem) return problem;
  assignFloor(store, [id], floor);
  return null;
}

export function connectNodes(store: StudioStore, a: string, b: string): string | null {
  let id: string | null = null;
  editScene(store, 'Connect nodes', (s) => {
    const r = edit.connect(s, a, b);
    id = r.id;
    return r.scene;
  });
  if (id) setSession(store, { selection: { kind: 'edge', id } });
  return id;
}

/**
 * The connect tool: the first click picks a node, the second connects it and becomes the next
 * start, so a corridor of rooms is connected click after click.
 */
export function connectToolPick(store: StudioStore, nodeId: string): void {
  const from = store.getState().ephemeral.connectFrom;
  if (from && from !== nodeId) connectNodes(store, from, nodeId);
  setEphemeral(store, { connectFrom: nodeId });
}

export function deleteSelection(store: StudioStore): void {
  const sel = store.getState().session.selection;
  if (!sel) return;
  editScene(store, sel.kind === 'node' ? 'Delete node' : 'Delete edge', (s) => (sel.kind === 'node' ? edit.deleteNodes(s, [sel.id]) : edit.deleteEdges(s, [sel.id])));
  setSession(store, { selection: null });
}

export function startNodeDrag(store: StudioStore): void {
  beginGesture(store);
}

export function dragNode(store: StudioStore, id: string, to: Vec3): void {
  const sceneId = store.getState().session.sceneId;
  if (sceneId) previewDocument(store, (p) => withScene(p, sceneId, (s) => edit.moveNode(s, id, to)));
}

export const endNodeDrag = (store: StudioStore) => commitGesture(store, 'Move node');

/** Escape: cancel a drag in progress, else the connect chain and measurement, else the selection. */
export function escape(store: StudioStore): void {
  if (gestureActive(store)) { cancelGesture(store); return; }
  const { ephemeral, session } = store.getState();
  if (ephemeral.drive) { setEphemeral(store, { drive: null }); return; }
  if (ephemeral.connectFrom || ephemeral.measure) { setEphemeral(store, { connectFrom: null, measure: null }); return; }
  if (session.selection) { setSession(store, { selection: null }); return; }
  if (session.tool !== 'select') setSession(store, { tool: 'select' });
}
