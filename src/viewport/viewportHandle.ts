import type { CameraPose } from '../state/store.ts';

/**
 * What the rest of the studio may ask of the live 3D view: a picture and the pose of the current
 * camera (for saving a viewpoint). Set by the viewport while it is mounted.
 */
export const viewportHandle: { capture: (() => { pose: CameraPose; thumbnail?: string }) | null } = { capture: null };
