import type { Command } from './commands.ts';
import { selectedScene } from './commands.ts';
import { followSegment, sceneFloors, setSlice, SLICE_ABOVE_FLOOR, viewSlice } from './slice.ts';
import type { StudioState, StudioStore, Tool, CameraMode } from './store.ts';
import { setSession } from './patch.ts';

export const hasScene = (s: StudioState): boolean => !!selectedScene(s);
/** Views that show the 3D workspace (editing, labelling, QA items): cameras and the slice work in all three. */
const VIEWS_3D = ['scene', 'label', 'qa'] as const;
/** Views where the measuring tool works: editing, and writing question-answer items (answers filled from it). */
const MEASURE_VIEWS = ['scene', 'qa'] as const;

/** Slice at the floor `delta` floors from the one shown (0: the top floor when off), set by hand. */
function stepSlice(store: StudioStore, delta: number) {
  const s = store.getState();
  const floors = sceneFloors(s);
  if (!floors.length) return;
  const shown = viewSlice(s);
  const current = shown.on ? shown.height - SLICE_ABOVE_FLOOR : Infinity;
  let at = floors.findIndex((f) => Math.abs(f - current) < 0.05);
  if (at < 0) at = delta > 0 ? -1 : floors.length;
  const next = Math.min(floors.length - 1, Math.max(0, at + delta));
  setSlice(store, { on: true, height: floors[next]! + SLICE_ABOVE_FLOOR });
}

/** The floor index the slice shows (or the lowest), used when assigning floors. */
export function currentFloorIndex(s: StudioState): number {
  const floors = sceneFloors(s);
  const shown = viewSlice(s);
  if (!shown.on) return 0;
  let best = 0;
  floors.forEach((f, i) => {
    if (f <= shown.height) best = i;
  });
  return best;
}

const tool = (id: Tool, label: string, key: string, views: Command['views'] = ['scene']): Command => ({
  id: `tool.${id}`,
  label,
  shortcut: key,
  undoable: false,
  views,
  enabled: hasScene,
  run: (st) => {
    setSession(st, { tool: id });
    st.setState((s) => ({ ephemeral: { ...s.ephemeral, connectFrom: null, measure: null } }));
  },
});
const camera = (id: CameraMode, label: string, key: string): Command => ({
  id: `camera.${id}`,
  label,
  shortcut: key,
  undoable: false,
  views: VIEWS_3D,
  enabled: hasScene,
  run: (st) => setSession(st, { camera: id }),
});

export const workspaceCommands: Command[] = [
  tool('select', 'Select and drag nodes', 'V', MEASURE_VIEWS),
  tool('place', 'Place a node on the floor under the cursor', 'N'),
  tool('connect', 'Connect nodes (click one, then the next)', 'C'),
  tool('measure', 'Measure distance, step height or clear width', 'M', MEASURE_VIEWS),
  {
    id: 'measure.toggleMode',
    label: 'Measure: switch between distance and clear width',
    shortcut: 'W',
    undoable: false,
    views: MEASURE_VIEWS,
    enabled: (s) => hasScene(s) && s.session.tool === 'measure',
    run: (st) => {
      setSession(st, { measureMode: st.getState().session.measureMode === 'distance' ? 'width' : 'distance' });
      st.setState((s) => ({ ephemeral: { ...s.ephemeral, measure: null } }));
    },
  },
  camera('orbit', 'Orbit view', 'O'),
  camera('top', 'Top-down orthographic view', 'T'),
  camera('first', 'First-person view (arrow keys walk, Shift hurries, drag to look)', 'F'),
  {
    id: 'slice.toggle',
    label: 'Slice: hide everything above a height',
    shortcut: 'L',
    undoable: false,
    views: VIEWS_3D,
    enabled: hasScene,
    run: (st) => {
      const s = viewSlice(st.getState());
      if (s.on) setSlice(st, { height: s.height, on: false });
      else stepSlice(st, 0);
    },
  },
  {
    id: 'slice.up',
    label: 'Slice at the next floor up',
    shortcut: 'PageUp',
    undoable: false,
    views: VIEWS_3D,
    enabled: hasScene,
    run: (st) => stepSlice(st, 1),
  },
  {
    id: 'slice.down',
    label: 'Slice at the next floor down',
    shortcut: 'PageDown',
    undoable: false,
    views: VIEWS_3D,
    enabled: hasScene,
    run: (st) => stepSlice(st, -1),
  },
  {
    id: 'slice.followSegment',
    label: 'Slice at the current segment’s (or open item’s) floor again',
    undoable: false,
    views: ['label', 'qa'],
    enabled: (s) => !s.session.sliceFollowsItem,
    run: followSegment,
  },
];
