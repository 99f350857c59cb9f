import { floorChoiceProblem } from '../../../core/floors.ts';
import type { Vec3 } from '../../../core/graph.ts';
import * as edit from '../../../core/graphEdit.ts';
import { applyEdit, sceneEdit, withScene, type Edit } from '../../../state/edits.ts';
import { sceneFloorInfo } from '../../../state/slice.ts';
import { beginGesture, cancelGesture, commitGesture, gestureActive, previewDocument } from '../../../state/history.ts';
import type { StudioStore } from '../../../state/store.ts';
import type { Command } from '../../../state/commands.ts';
import { currentFloorIndex, hasScene } from '../../../state/workspaceCommands.ts';
import { feedWorkspace } from '../../../state/workspaceFeeds.ts';
import { setEphemeral, setSession } from '../../../state/patch.ts';

/** Graph edits of the selected scene, each one undo step (a drag is one step too). */

export const GRAPH_EDITS = {
  placeNode: sceneEdit('graph.placeNode', 'Place node', (s, a: { at: Vec3; floor: number | null }) => edit.addNode(s, a.at, undefined, a.floor).scene),
  renameNode: sceneEdit('graph.renameNode', 'Rename node', (s, a: { id: string; name: string }) => edit.renameNode(s, a.id, a.name)),
  describeNode: sceneEdit('graph.describeNode', 'Describe node', (s, a: { id: string; text: string }) => edit.describeNode(s, a.id, a.text)),
  assignFloor: sceneEdit('graph.assignFloor', 'Assign floor', (s, a: { ids: string[]; floor: number | null }) => edit.assignFloor(s, a.ids, a.floor)),
  connect: sceneEdit('graph.connect', 'Connect nodes', (s, a: { a: string; b: string }) => edit.connect(s, a.a, a.b).scene),
  deleteNode: sceneEdit('graph.deleteNode', 'Delete node', (s, a: { id: string }) => edit.deleteNodes(s, [a.id])),
  deleteEdge: sceneEdit('graph.deleteEdge', 'Delete edge', (s, a: { id: string }) => edit.deleteEdges(s, [a.id])),
} as const;

/** The selected scene's id, or null. */
const selected = (store: StudioStore) => store.getState().session.sceneId;
/** The selected scene as the document holds it now. */
const sceneNow = (store: StudioStore) => store.getState().document.project?.scenes.find((s) => s.id === selected(store));

/** Place a node at a point on the floor (mesh frame) and select it. */
export function placeNode(store: StudioStore, at: Vec3, floor: number | null = null): string | null {
  const sceneId = selected(store);
  if (!sceneId || !applyEdit(store, GRAPH_EDITS.placeNode, { sceneId, at, floor })) return null;
  // A new node is the scene's last.
  const id = sceneNow(store)!.graph.nodes.at(-1)!.id;
  setSession(store, { selection: { kind: 'node', id } });
  return id;
}

const onSelected =
  <A>(e: Edit<A & { sceneId: string }>) =>
  (store: StudioStore, args: A) => {
    const sceneId = selected(store);
    if (sceneId) applyEdit(store, e, { ...args, sceneId });
  };
export const renameNode = (store: StudioStore, id: string, name: string) => onSelected(GRAPH_EDITS.renameNode)(store, { id, name });
export const describeNode = (store: StudioStore, id: string, text: string) => onSelected(GRAPH_EDITS.describeNode)(store, { id, text });
export const assignFloor = (store: StudioStore, ids: string[], floor: number | null) => onSelected(GRAPH_EDITS.assignFloor)(store, { ids, floor });

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
  const sceneId = selected(store);
  if (!sceneId || !applyEdit(store, GRAPH_EDITS.connect, { sceneId, a, b })) return null;
  // A new edge is the scene's last.
  const id = sceneNow(store)!.graph.edges.at(-1)!.id;
  setSession(store, { selection: { kind: 'edge', id } });
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
  const sceneId = selected(store);
  if (sceneId) applyEdit(store, sel.kind === 'node' ? GRAPH_EDITS.deleteNode : GRAPH_EDITS.deleteEdge, { sceneId, id: sel.id });
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
  if (gestureActive(store)) {
    cancelGesture(store);
    return;
  }
  const { ephemeral, session } = store.getState();
  if (ephemeral.drive) {
    setEphemeral(store, { drive: null });
    return;
  }
  if (ephemeral.connectFrom || ephemeral.measure) {
    setEphemeral(store, { connectFrom: null, measure: null });
    return;
  }
  if (session.selection) {
    setSession(store, { selection: null });
    return;
  }
  if (session.tool !== 'select') setSession(store, { tool: 'select' });
}

/** The scene editor's keys: delete, rename, assign a floor, cancel. */
export const graphCommands: Command[] = [
  {
    id: 'selection.delete',
    label: 'Delete the selected node or edge',
    shortcut: 'Delete',
    undoable: true,
    views: ['scene'],
    enabled: (s) => hasScene(s) && !!s.session.selection,
    run: deleteSelection,
  },
  {
    id: 'selection.deleteBackspace',
    label: 'Delete the selected node or edge',
    shortcut: 'Backspace',
    undoable: true,
    views: ['scene'],
    enabled: (s) => hasScene(s) && !!s.session.selection,
    run: deleteSelection,
  },
  {
    id: 'node.rename',
    label: 'Rename the selected node',
    shortcut: 'F2',
    undoable: false,
    views: ['scene'],
    enabled: (s) => s.session.selection?.kind === 'node',
    run: (st) => st.setState((s) => ({ ephemeral: { ...s.ephemeral, renameRequest: s.ephemeral.renameRequest + 1 } })),
  },
  {
    id: 'node.assignFloor',
    label: 'Assign the selected node to the sliced floor',
    shortcut: 'G',
    undoable: true,
    views: ['scene'],
    enabled: (s) => hasScene(s) && s.session.selection?.kind === 'node',
    run: (st) => {
      const s = st.getState();
      assignFloor(st, [s.session.selection!.id], currentFloorIndex(s));
    },
  },
  { id: 'escape', label: 'Cancel the drag, the connection or the selection', shortcut: 'Escape', undoable: false, run: escape },
];

feedWorkspace({ connectPick: connectToolPick, placeNode, startNodeDrag, dragNode, endNodeDrag });
