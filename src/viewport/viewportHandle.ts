import type { CameraPose } from '../state/store.ts';

/**
 * What the rest of the studio may ask of the live 3D view: a picture and the pose of the current
 * camera (for saving a viewpoint), and where the driven agent is drawn (world; it moves while a
 * planned motion plays). Set by the viewport while it is mounted.
 */
export const viewportHandle: {
  capture: (() => { pose: CameraPose; thumbnail?: string }) | null;
  agentPose: (() => { x: number; y: number; z: number; yaw: number } | null) | null;
} = { capture: null, agentPose: null };
