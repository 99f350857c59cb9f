import type { Scene } from '../core/project.ts';
import { sceneEdit } from './edits.ts';

/** A scene's scan reference (the scan's bytes live in storage, not in the document). */
type MeshRef = NonNullable<Scene['mesh']>;

export const SCAN_EDITS = {
  attach: sceneEdit('scan.attach', 'Attach scan', (s, a: { mesh: MeshRef }) => ({ ...s, mesh: a.mesh })),
  remove: sceneEdit('scan.remove', 'Remove scan', (s) => (s.mesh ? { ...s, mesh: null } : s)),
  /** The scan's up axis and unit scale (how its own frame maps to the world). */
  frame: sceneEdit('scan.frame', 'Change mesh frame', (s, a: { frame: Partial<Pick<MeshRef, 'upAxis' | 'unitScale'>> }) =>
    s.mesh ? { ...s, mesh: { ...s.mesh, ...a.frame } } : s,
  ),
} as const;
