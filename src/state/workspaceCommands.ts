import { floorBands } from '../core/floors.ts';
import type { Command } from './commands.ts';
import { selectedScene } from './commands.ts';
import { assignFloor, deleteSelection, escape } from './graphCommands.ts';
import type { StudioState, StudioStore, Tool, CameraMode } from './store.ts';

const setSession = (store: StudioStore, patch: Partial<StudioState['session']>) =>
  store.setState((s) => ({ session: { ...s.session, ...patch } }));
const inScene = (s: StudioState) => s.session.view === 'scene' && !!selectedScene(s);
/** Views that show the 3D workspace (editing and labelling): cameras and the slice work in both. */
const in3d = (s: StudioState) => (s.session.view === 'scene' || s.session.view === 'label' || s.session.view === 'qa') && !!selectedScene(s);
/** Views where the measuring tool works: editing, and writing question-answer items (answers filled from it). */
const canMeasure = (s: StudioState) => (s.session.view === 'scene' || s.session.view === 'qa') && !!selectedScene(s);

/** Floor heights of the selected scene (world Y): detected from its mesh, else from its nodes' heights. */
export function sceneFloors(s: StudioState): number[] {
  const scene = selectedScene(s);
  if (!scene) return [];
  const mesh = s.meshes[scene.id];
  if (mesh?.state === 'ready' && mesh.floors.length) return mesh.floors;
  return floorBands(scene.graph.nodes).map((b) => b.min);
}

/** How far above a floor the slice cuts, so that floor's rooms and walls stay visible. */
export const SLICE_ABOVE_FLOOR = 1.6;

function stepSlice(store: StudioStore, delta: number) {
  const s = store.getState();
  const floors = sceneFloors(s);
  if (!floors.length) return;
  const current = s.session.slice.on ? s.session.slice.height - SLICE_ABOVE_FLOOR : Infinity;
  let at = floors.findIndex((f) => Math.abs(f - current) < 0.05);
  if (at < 0) at = delta > 0 ? -1 : floors.length;
  const next = Math.min(floors.length - 1, Math.max(0, at + delta));
  setSession(store, { slice: { on: true, height: floors[next]! + SLICE_ABOVE_FLOOR } });
}

/** The floor index the slice shows (or the lowest), used when assigning floors. */
export function currentFloorIndex(s: StudioState): number {
  const floors = sceneFloors(s);
  if (!s.session.slice.on) return 0;
  let best = 0;
  floors.forEach((f, i) => { if (f <= s.session.slice.height) best = i; });
  return best;
}

const tool = (id: Tool, label: string, key: string, enabled = inScene): Command => ({
  id: `tool.${id}`, label, shortcut: key, undoable: false, enabled,
  run: (st) => { setSession(st, { tool: id }); st.setState((s) => ({ ephemeral: { ...s.ephemeral, connectFrom: null, measure: null } })); },
});
const camera = (id: CameraMode, label: string, key: string): Command => ({
  id: `camera.${id}`, label, shortcut: key, undoable: false, enabled: in3d, run: (st) => setSession(st, { camera: id }),
});

export const workspaceCommands: Command[] = [
  tool('select', 'Select and drag nodes', 'V', canMeasure),
  tool('place', 'Place a node on the floor under the cursor', 'N'),
  tool('connect', 'Connect nodes (click one, then the next)', 'C'),
  tool('measure', 'Measure distance, step height or clear width', 'M', canMeasure),
  { id: 'measure.toggleMode', label: 'Measure: switch between distance and clear width', shortcut: 'W', undoable: false, enabled: (s) => canMeasure(s) && s.session.tool === 'measure',
    run: (st) => { setSession(st, { measureMode: st.getState().session.measureMode === 'distance' ? 'width' : 'distance' }); st.setState((s) => ({ ephemeral: { ...s.ephemeral, measure: null } })); } },
  camera('orbit', 'Orbit view', 'O'),
  camera('top', 'Top-down orthographic view', 'T'),
  camera('first', 'First-person view (W A S D to walk, drag to look)', 'F'),
  { id: 'slice.toggle', label: 'Slice: hide everything above a height', shortcut: 'L', undoable: false, enabled: in3d,
    run: (st) => { const s = st.getState().session.slice; if (s.on) setSession(st, { slice: { ...s, on: false } }); else stepSlice(st, 0); } },
  { id: 'slice.up', label: 'Slice at the next floor up', shortcut: 'PageUp', undoable: false, enabled: in3d, run: (st) => stepSlice(st, 1) },
  { id: 'slice.down', label: 'Slice at the next floor down', shortcut: 'PageDown', undoable: false, enabled: in3d, run: (st) => stepSlice(st, -1) },
  { id: 'selection.delete', label: 'Delete the selected node or edge', shortcut: 'Delete', undoable: true, enabled: (s) => inScene(s) && !!s.session.selection, run: deleteSelection },
  { id: 'selection.deleteBackspace', label: 'Delete the selected node or edge', shortcut: 'Backspace', undoable: true, enabled: (s) => inScene(s) && !!s.session.selection, run: deleteSelection },
  { id: 'node.rename', label: 'Rename the selected node', shortcut: 'F2', undoable: false, enabled: (s) => s.session.selection?.kind === 'node',
    run: (st) => st.setState((s) => ({ ephemeral: { ...s.ephemeral, renameRequest: s.ephemeral.renameRequest + 1 } })) },
  { id: 'node.assignFloor', label: 'Assign the selected node to the sliced floor', shortcut: 'G', undoable: true, enabled: (s) => inScene(s) && s.session.selection?.kind === 'node',
    run: (st) => { const s = st.getState(); assignFloor(st, [s.session.selection!.id], currentFloorIndex(s)); } },
  { id: 'escape', label: 'Cancel the drag, the connection or the selection', shortcut: 'Escape', undoable: false, run: escape },
];
