import { describe, expect, it } from 'vitest';
import { emptyProject } from '../../../../src/core/project.ts';
import { findCommand, runCommand } from '../../../../src/state/commands.ts';
import { stateCommands } from '../../../../src/app/commandList.ts';
import {
  connectNodes,
  connectToolPick,
  deleteSelection,
  dragNode,
  endNodeDrag,
  escape,
  placeNode,
  renameNode,
  startNodeDrag,
} from '../../../../src/features/scene/state/graphCommands.ts';
import { replaceDocument, undo, redo } from '../../../../src/state/history.ts';
import { createStudioStore } from '../../../../src/state/store.ts';
import { blocked, sceneOf } from '../../../support/sceneBuilder.ts';

function studioWithEmptyScene() {
  const store = createStudioStore();
  const p = emptyProject('edit');
  p.scenes.push(sceneOf({ id: 'S', graph: { nodes: [], edges: [] } }));
  replaceDocument(store, p);
  store.setState((s) => ({ session: { ...s.session, sceneId: 'S', view: 'scene' } }));
  const scene = () => store.getState().document.project!.scenes[0]!;
  return { store, scene };
}

describe('building a graph on the floor', () => {
  it('places three nodes, connects two edges, renames one; each is one undo step', () => {
    const { store, scene } = studioWithEmptyScene();
    const a = placeNode(store, { x: 0, y: 0, z: 0 })!;
    const b = placeNode(store, { x: 3, y: 0, z: 0 })!;
    const c = placeNode(store, { x: 3, y: 0, z: 4 })!;
    expect([a, b, c]).toEqual(['node_1', 'node_2', 'node_3']);
    expect(connectNodes(store, a, b)).toBe('edge_1');
    expect(connectNodes(store, b, c)).toBe('edge_2');
    renameNode(store, a, 'Kitchen');
    expect(scene().graph.nodes[0]!.name).toBe('Kitchen');
    expect(store.getState().history.past.map((h) => h.label)).toEqual([
      'Place node',
      'Place node',
      'Place node',
      'Connect nodes',
      'Connect nodes',
      'Rename node',
    ]);
    undo(store);
    expect(scene().graph.nodes[0]!.name).not.toBe('Kitchen');
    undo(store);
    expect(scene().graph.edges).toHaveLength(1);
    redo(store);
    redo(store);
    expect(scene().graph.edges).toHaveLength(2);
    expect(scene().graph.nodes[0]!.name).toBe('Kitchen');
  });

  it('refuses to connect a node to itself or to connect twice', () => {
    const { store, scene } = studioWithEmptyScene();
    const a = placeNode(store, { x: 0, y: 0, z: 0 })!;
    const b = placeNode(store, { x: 1, y: 0, z: 0 })!;
    expect(connectNodes(store, a, a)).toBeNull();
    connectNodes(store, a, b);
    expect(connectNodes(store, b, a)).toBeNull();
    expect(scene().graph.edges).toHaveLength(1);
  });

  it('the connect tool chains: each click connects to the previous node', () => {
    const { store, scene } = studioWithEmptyScene();
    const ids = [0, 1, 2].map((x) => placeNode(store, { x, y: 0, z: 0 })!);
    ids.forEach((id) => connectToolPick(store, id));
    expect(scene().graph.edges.map((e) => `${e.from}|${e.to}`)).toEqual(['node_1|node_2', 'node_2|node_3']);
  });

  it('dragging a node is one undo step however many moves it takes, and Escape cancels a drag', () => {
    const { store, scene } = studioWithEmptyScene();
    const a = placeNode(store, { x: 0, y: 0, z: 0 })!;
    startNodeDrag(store);
    for (let i = 1; i <= 10; i++) dragNode(store, a, { x: i / 10, y: 0, z: 0 });
    endNodeDrag(store);
    expect(scene().graph.nodes[0]!.position.x).toBe(1);
    expect(store.getState().history.past.map((h) => h.label)).toEqual(['Place node', 'Move node']);
    undo(store);
    expect(scene().graph.nodes[0]!.position.x).toBe(0);
    redo(store);
    startNodeDrag(store);
    dragNode(store, a, { x: 5, y: 0, z: 5 });
    escape(store);
    expect(scene().graph.nodes[0]!.position).toEqual({ x: 1, y: 0, z: 0 });
    expect(store.getState().history.past).toHaveLength(2);
  });

  it('deleting a node takes its edges and their labels with it, and undo brings all back', () => {
    const { store, scene } = studioWithEmptyScene();
    const a = placeNode(store, { x: 0, y: 0, z: 0 })!;
    const b = placeNode(store, { x: 1, y: 0, z: 0 })!;
    connectNodes(store, a, b);
    replaceDocument(store, { ...store.getState().document.project!, scenes: [{ ...scene(), labels: { WHEELCHAIR: { [`${a}|${b}`]: blocked('Stairs') } } }] });
    store.setState((s) => ({ session: { ...s.session, selection: { kind: 'node', id: a } } }));
    runCommand(store, findCommand(stateCommands, 'selection.delete'));
    expect(scene().graph.nodes.map((n) => n.id)).toEqual([b]);
    expect(scene().graph.edges).toEqual([]);
    expect(scene().labels.WHEELCHAIR).toEqual({});
    undo(store);
    expect(scene().graph.edges).toHaveLength(1);
    expect(scene().labels.WHEELCHAIR![`${a}|${b}`]!.note).toBe('Stairs');
  });

  it('new ids continue the release numbering (node_117 → node_118)', () => {
    const { store, scene } = studioWithEmptyScene();
    placeNode(store, { x: 0, y: 0, z: 0 });
    replaceDocument(store, {
      ...store.getState().document.project!,
      scenes: [{ ...scene(), graph: { nodes: [{ ...scene().graph.nodes[0]!, id: 'node_117' }], edges: [] } }],
    });
    expect(placeNode(store, { x: 1, y: 0, z: 0 })).toBe('node_118');
  });

  it('deleting with nothing selected changes nothing', () => {
    const { store } = studioWithEmptyScene();
    deleteSelection(store);
    expect(store.getState().history.past).toHaveLength(0);
  });
});

describe('slicing floor by floor', () => {
  it('PageUp and PageDown step the slice through the floors the nodes stand on', () => {
    const { store } = studioWithEmptyScene();
    placeNode(store, { x: 0, y: 0, z: 0 });
    placeNode(store, { x: 0, y: 2.8, z: 0 });
    const up = findCommand(stateCommands, 'slice.up'),
      down = findCommand(stateCommands, 'slice.down');
    runCommand(store, up);
    expect(store.getState().session.slice).toEqual({ on: true, height: 1.6 });
    runCommand(store, up);
    expect(store.getState().session.slice.height).toBeCloseTo(4.4);
    runCommand(store, up);
    expect(store.getState().session.slice.height).toBeCloseTo(4.4);
    runCommand(store, down);
    expect(store.getState().session.slice.height).toBeCloseTo(1.6);
  });
});
