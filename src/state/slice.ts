import { floorBands, worldHeight } from '../core/floors.ts';
import { selectedScene } from './commands.ts';
import type { StudioState, StudioStore, View } from './store.ts';

/** How far above a floor the slice cuts, so that floor's rooms and walls stay visible. */
export const SLICE_ABOVE_FLOOR = 1.6;
/** How far below the lowest floor shown the label view hides things (keeps that floor's slab and sills). */
const SLICE_BELOW_FLOOR = 0.5;

export interface FloorInfo {
  /** Floor heights, world Y, ascending. */
  floors: number[];
  /** Detected in the scan, or (without a loaded scan) the nodes' height bands; `loading` while the scan's are not known yet. */
  from: 'scan' | 'nodes' | 'loading';
}

/** The selected scene's floors and where they come from. */
export function sceneFloorInfo(s: StudioState): FloorInfo {
  const scene = selectedScene(s);
  if (!scene) return { floors: [], from: 'nodes' };
  const mesh = s.meshes[scene.id];
  if (mesh?.state === 'ready' && mesh.floors.length) return { floors: mesh.floors, from: 'scan' };
  const fromNodes = floorBands(scene.graph.nodes, scene.mesh?.upAxis ?? 'y').map((b) => b.min * (scene.mesh?.unitScale ?? 1));
  return { floors: fromNodes, from: scene.mesh && (!mesh || mesh.state === 'loading') ? 'loading' : 'nodes' };
}

let floorsCache: { key: unknown; mesh: unknown; floors: number[] } | null = null;
/** Floor heights of the selected scene (world Y): detected from its mesh, else from its nodes' heights. */
export function sceneFloors(s: StudioState): number[] {
  const scene = selectedScene(s);
  const key = scene?.graph.nodes,
    mesh = scene ? s.meshes[scene.id] : undefined;
  if (floorsCache && floorsCache.key === key && floorsCache.mesh === mesh) return floorsCache.floors;
  const floors = sceneFloorInfo(s).floors;
  floorsCache = { key, mesh, floors };
  return floors;
}

/** What the 3D view hides: everything above `height` when on, and in the label view everything below `below`. */
export interface ViewSlice {
  on: boolean;
  height: number;
  below: number | null;
}

/** Floor index of each node (its assigned floor, else the highest floor at or below it). */
export function nodeFloors(s: StudioState, ids: readonly string[]): number[] | null {
  const scene = selectedScene(s);
  const floors = sceneFloors(s);
  if (!scene || !floors.length) return null;
  const nodes = ids.map((id) => scene.graph.nodes.find((n) => n.id === id));
  if (nodes.some((n) => !n)) return null;
  return nodes.map((n) => {
    if (n!.floor !== null && floors[n!.floor] !== undefined) return n!.floor;
    return floorAt(floors, worldHeight(n!, scene.mesh));
  });
}

/** The floor a world height stands on: the highest at or below it (half a metre of slack). */
export function floorAt(floors: readonly number[], y: number): number {
  let best = 0;
  floors.forEach((f, k) => {
    if (f <= y + SLICE_BELOW_FLOOR) best = k;
  });
  return best;
}

/** At the highest of the nodes' floors with the lowest still shown, lower floors hidden. */
export function nodesSlice(s: StudioState, ids: readonly string[]): ViewSlice | null {
  const scene = selectedScene(s);
  const idx = nodeFloors(s, ids);
  if (!scene || !idx) return null;
  const floors = sceneFloors(s);
  const heights = ids.map((id) =>
    worldHeight(
      scene.graph.nodes.find((n) => n.id === id)!,
      scene.mesh,
    ),
  );
  const lo = Math.min(...idx),
    hi = Math.max(...idx);
  return {
    on: true,
    height: Math.max(floors[hi]! + SLICE_ABOVE_FLOOR, ...heights.map((h) => h + 0.1)),
    below: lo > 0 ? Math.min(floors[lo]! - SLICE_BELOW_FLOOR, ...heights.map((h) => h - 0.1)) : null,
  };
}

const FOLLOWED = new Map<View, (s: StudioState) => ViewSlice | null>();

/**
 * What the slice follows in a view until the user sets it by hand: the labelling feature registers
 * the current segment's floors for the label view, the QA feature the open item's for the QA view.
 */
export function followSliceIn(view: View, slice: (s: StudioState) => ViewSlice | null): void {
  FOLLOWED.set(view, slice);
}

/** The slice the 3D view shows: the route's in the Score view, what the view follows (until set by hand), else the session's. */
export function viewSlice(s: StudioState): ViewSlice {
  if (s.session.view === 'score' && s.ephemeral.pathPreview?.slice) return s.ephemeral.pathPreview.slice; // the route viewer: the route's floors
  const follow = s.session.sliceFollowsItem ? FOLLOWED.get(s.session.view) : undefined;
  return follow?.(s) ?? { ...s.session.slice, below: null };
}

/** Set the slice by hand (the label view stops following the segment until the queue moves). */
export function setSlice(store: StudioStore, slice: { on: boolean; height: number }): void {
  store.setState((s) => ({ session: { ...s.session, slice, sliceFollowsItem: false } }));
}

/** The label view follows the current segment's floor again. */
export function followSegment(store: StudioStore): void {
  store.setState((s) => ({ session: { ...s.session, sliceFollowsItem: true } }));
}
