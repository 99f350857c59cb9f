import { useEffect } from 'react';
import { DoubleSide, FrontSide, Material, Mesh, Plane, type Object3D } from 'three';
import type { SceneMeshRuntime } from './meshRuntime.ts';

/**
 * The loaded scan under its frame matrix. The slice planes (above, and in the label view below) clip every material; the render
 * object never takes part in picking (the collision mesh and its BVH do that).
 */
export function SceneMeshView({ mesh, planes }: { mesh: SceneMeshRuntime; planes: Plane[] }) {
  // A new array each render: compare the planes themselves so materials are only rebuilt when they change.
  const key = planes.map((p) => `${p.normal.y}:${p.constant}`).join('|');
  useEffect(() => {
    // Cut walls show their inner faces, so a sliced plan reads as walls rather than as empty floor.
    const sliced = planes.length > 0;
    forEachMaterial(mesh.object, (m) => { m.clippingPlanes = sliced ? planes : null; m.side = sliced ? DoubleSide : FrontSide; m.needsUpdate = true; });
  }, [mesh, key]);
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
