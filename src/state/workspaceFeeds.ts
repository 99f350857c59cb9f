import type { Vec3 } from '../core/graph.ts';
import type { ImpliedRoute } from '../core/impliedRoute.ts';
import type { Mark } from '../core/vqa/item.ts';
import type { DriveView, StudioState, StudioStore } from './store.ts';

/**
 * What the features show in the 3D workspace and do through it. The viewport draws every view but
 * names no feature: labelling feeds it the segment and the drive, the QA feature the open item's
 * marks, nodes and route, scene editing the pointer's gestures. Each feature's state/ folder feeds
 * its part when it is loaded; a part nobody fed is not drawn (or the gesture does nothing).
 */
export interface WorkspaceFeeds {
  /** The segment being labelled (drawn in the label view). */
  segment: (s: StudioState) => { from: string; to: string } | undefined;
  /** The agent being driven for the current queue item. */
  drive: (s: StudioState) => DriveView | null;
  /** The open QA item's marks and referenced nodes, and the route its question implies (the QA view). */
  marks: (s: StudioState) => Mark[];
  referenced: (s: StudioState) => string[];
  implied: (s: StudioState) => ImpliedRoute | null;
  /** Pointer gestures of the scene editor (points in the scan's frame). */
  connectPick: (store: StudioStore, nodeId: string) => void;
  placeNode: (store: StudioStore, at: Vec3, floor: number | null) => void;
  startNodeDrag: (store: StudioStore) => void;
  dragNode: (store: StudioStore, id: string, to: Vec3) => void;
  endNodeDrag: (store: StudioStore) => void;
  /** The mark tool: a mark on the open QA item. */
  addMark: (store: StudioStore, at: Vec3) => void;
}

const feeds: Partial<WorkspaceFeeds> = {};

/** A feature feeds its part of the workspace (once, when its state module loads). */
export function feedWorkspace(part: Partial<WorkspaceFeeds>): void {
  Object.assign(feeds, part);
}

/** The part a feature fed, or undefined. */
export const workspaceFeed = <K extends keyof WorkspaceFeeds>(key: K): WorkspaceFeeds[K] | undefined => feeds[key];
