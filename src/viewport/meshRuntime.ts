import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Matrix4, Mesh, Object3D } from 'three';

/** A scene's loaded scan as the viewport needs it (the engine's LoadedMesh satisfies this). */
export interface SceneMeshRuntime {
  object: Object3D;
  collision: Mesh;
  /** Changed in place when the scene's up axis or unit scale changes. */
  frame: Matrix4;
  /** Draw it double-sided (its surfaces face away from the views above); follows `frame`. */
  doubleSided: boolean;
}

/**
 * Loaded meshes live outside the store (three.js objects are not document data). The app owns
 * the registry; the viewport subscribes to it.
 */
export interface MeshRegistry {
  get(sceneId: string): SceneMeshRuntime | undefined;
  subscribe(listener: () => void): () => void;
  version(): number;
  /** The share of the view a scene's scan covered once drawn (after it appeared or turned). */
  reportCoverage?(sceneId: string, share: number): void;
}

export const MeshRegistryContext = createContext<MeshRegistry | null>(null);

export function useSceneMesh(sceneId: string | null): SceneMeshRuntime | undefined {
  const registry = useContext(MeshRegistryContext);
  useSyncExternalStore(registry?.subscribe ?? noopSubscribe, registry?.version ?? zero);
  return sceneId && registry ? registry.get(sceneId) : undefined;
}

const noopSubscribe = () => () => {};
const zero = () => 0;
