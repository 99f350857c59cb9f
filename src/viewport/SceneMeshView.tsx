import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { DoubleSide, Material, Mesh, Plane, type Group, type Object3D, type Side } from 'three';
import { viewCoverage } from './coverage.ts';
import type { SceneMeshRuntime } from './meshRuntime.ts';

interface Props {
  mesh: SceneMeshRuntime;
  /** Clipping planes: the slice above, and in the label view the one below. */
  planes: Plane[];
  /** Called once the scan has been drawn after it appeared or was re-oriented: the share of the view it covers. */
  onCoverage?: (share: number) => void;
}

/** The side a material was loaded with (a glTF material may be double-sided of its own). */
const OWN_SIDE = 'traversaOwnSide';

/**
 * The loaded scan under its frame matrix. The slice planes (above, and in the label view below) clip every material; the render
 * object never takes part in picking (the collision mesh and its BVH do that).
 */
export function SceneMeshView({ mesh, planes, onCoverage }: Props) {
  const group = useRef<Group>(null);
  const { invalidate } = useThree();
  // The frame is changed in place when the up axis or scale changes (reframeMesh), so its values,
  // not its identity, say when to move the scan.
  const frameKey = mesh.frame.elements.join(',');
  useLayoutEffect(() => {
    const g = group.current;
    if (!g) return;
    g.matrix.copy(mesh.frame);
    g.matrixWorldNeedsUpdate = true;
    invalidate();
  }, [mesh, frameKey, invalidate]);

  // A new array each render: compare the planes themselves so materials are only rebuilt when they change.
  const key = planes.map((p) => `${p.normal.y}:${p.constant}`).join('|');
  useEffect(() => {
    // Cut walls show their inner faces, so a sliced plan reads as walls rather than as empty floor;
    // a scan that faces away from the views above is drawn double-sided always (facing.ts says why).
    const sliced = planes.length > 0;
    forEachMaterial(mesh.object, (m) => {
      const own = (m.userData[OWN_SIDE] ??= m.side) as Side;
      m.clippingPlanes = sliced ? planes : null;
      m.side = sliced || mesh.doubleSided ? DoubleSide : own;
      m.needsUpdate = true;
    });
    invalidate();
  }, [mesh, key, mesh.doubleSided, invalidate]);
  useEffect(() => {
    mesh.object.traverse((o) => {
      if (o instanceof Mesh) o.raycast = () => {};
    });
  }, [mesh]);

  // Measure what the user sees two frames after the scan appears or turns (the camera has been
  // framed on it by then); a frame is asked for, since the canvas only draws on demand.
  const probe = useRef(0);
  const coverageRun = useRef(0);
  useEffect(() => {
    probe.current = 2;
    invalidate();
  }, [mesh, frameKey, mesh.doubleSided, invalidate]);
  useFrame(({ gl, camera }) => {
    if (probe.current === 0 || !group.current) return;
    if (--probe.current > 0) {
      invalidate();
      return;
    }
    // A scan replaced or turned again before the read completes reports nothing; a failed read neither.
    const asked = ++coverageRun.current;
    viewCoverage(gl, group.current, camera).then(
      (share) => {
        if (asked === coverageRun.current) onCoverage?.(share);
      },
      () => {},
    );
  });

  return (
    <group ref={group} matrixAutoUpdate={false}>
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
