import { Matrix4, Vector3 } from 'three';
import type { Scene } from '../core/project.ts';

/** Node positions in world coordinates (the scan frame applied). */
export function worldPositions(scene: Scene, frame: Matrix4): Map<string, Vector3> {
  return new Map(scene.graph.nodes.map((n) => [n.id, new Vector3(n.position.x, n.position.y, n.position.z).applyMatrix4(frame)]));
}

export function toSceneFrame(world: Vector3, frame: Matrix4): { x: number; y: number; z: number } {
  const p = world.clone().applyMatrix4(frame.clone().invert());
  const r = (v: number) => Math.round(v * 1e4) / 1e4; // 0.1 mm: enough for annotation, tidy in exports
  return { x: r(p.x), y: r(p.y), z: r(p.z) };
}

/** World bounds to frame the camera on: the mesh's, else the graph's (with a margin). */
export function framingBounds(points: Iterable<Vector3>): { center: Vector3; size: number } {
  const min = new Vector3(Infinity, Infinity, Infinity),
    max = new Vector3(-Infinity, -Infinity, -Infinity);
  let any = false;
  for (const p of points) {
    min.min(p);
    max.max(p);
    any = true;
  }
  if (!any) return { center: new Vector3(), size: 10 };
  return { center: min.clone().add(max).multiplyScalar(0.5), size: Math.max(max.x - min.x, max.z - min.z, max.y - min.y, 4) };
}
