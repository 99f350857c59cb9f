import type { CameraPose } from '../state/store.ts';

/**
 * What the rest of the studio may ask of the live 3D view: a picture and the pose of the current
 * camera (for saving a viewpoint), the walk view's camera (for a tour walked by hand), and where the driven agent is drawn (world; it moves while a
 * planned motion plays). Set by the viewport while it is mounted.
 */
export const viewportHandle: {
  capture: (() => { pose: CameraPose; thumbnail?: string; size: { width: number; height: number } }) | null;
  agentPose: (() => { x: number; y: number; z: number; yaw: number } | null) | null;
  /** The walk view's camera (world eye, yaw and pitch in radians, as the tour's poses turn), while the walk view is shown. */
  walkPose: (() => { eye: { x: number; y: number; z: number }; yawRad: number; pitchRad: number }) | null;
} = { capture: null, agentPose: null, walkPose: null };
