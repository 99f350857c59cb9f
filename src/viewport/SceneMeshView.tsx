import { useEffect } from 'react';
import { DoubleSide, FrontSide, Material, Mesh, Plane, type Object3D } from 'three';
import type { SceneMeshRuntime } from './meshRuntime.ts';

/**
 * The loaded scan under its frame matrix. The slice plane clips every material; the render
 * object never takes part in picking (the collision mesh and its BVH do that).
 */
export function SceneMeshView({ mesh, slice }: { mesh: SceneMeshRuntime; slice: Plane | null }) {
  useEffect(() => {
    // Cut walls show their inner faces, so a sliced plan reads as walls rather than as empty floor.
    forEachMaterial(mesh.object, (m) => { m.clippingPlanes = slice ? [slice] : null; m.side = slice ? DoubleSide : FrontSide; m.needsUpdate = true; });
  }, [mesh, slice]);
  useEffect(() => {
    mesh.object.traverse((o) => { if (o instanceof Mesh) o.raycast = () => {}; });
  }, [mesh]);
  return (
    <group matrixAutoUpdate={false} matrix={mesh.frame}>
      <primitive object={mesh.object} />
    </group>
  );
}

function forEachMaterial(root: Object3D, fn: (m: Material) => void) {
  root.traverse((o) => {
    const m = (o as Mesh).material;
    if (Array.isArray(m)) m.forEach(fn);
    else if (m) fn(m);
  });
}
