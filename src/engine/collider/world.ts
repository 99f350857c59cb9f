import { DoubleSide, Group, Matrix3, Matrix4, Mesh, Ray, Vector3, BufferAttribute, BufferGeometry, type Object3D } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { Surface } from '../measure/surface.ts';
import { mergeTriangles } from '../mesh/collisionMerge.ts';
import type { LoadedMesh } from '../mesh/types.ts';

/**
 * What the agent moves through. `solid` blocks every agent; `doors` (closed door leaves, kept
 * apart so they can be told from walls) blocks only agents that cannot open doors, and is
 * invisible to the rest — they open the door and walk through its opening.
 */
export interface ColliderWorld {
  solid: Surface;
  doors: Surface | null;
  /** Lift parts, when a split kept them apart from `solid` (suggest/geometry.ts): solid to every agent. */
  lifts?: Surface | null;
}

/** The BVH of a surface, typed as the 0.9 MeshBVH whatever copy's typings won (drei pulls a 0.8 one). */
export function bvhOf(surface: Surface): MeshBVH {
  const bvh = surface.geometry.boundsTree as unknown as MeshBVH | undefined;
  if (!bvh) throw new Error('collider: the surface has no boundsTree (build its MeshBVH first)');
  return bvh;
}

/** The surfaces an agent collides with: doors only for an agent that cannot open them. */
export function blockingSurfaces(world: ColliderWorld, canOpenDoors: boolean): { surface: Surface; door: boolean }[] {
  const list = [{ surface: world.solid, door: false }];
  if (world.lifts) list.push({ surface: world.lifts, door: false });
  if (world.doors && !canOpenDoors) list.push({ surface: world.doors, door: true });
  return list;
}

/** A Surface over raw triangles in the mesh frame, with its BVH built. */
export function surfaceFromTriangles(positions: Float32Array, index: Uint32Array, frame = new Matrix4()): Surface {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  geometry.setIndex(new BufferAttribute(index, 1));
  geometry.boundsTree = new MeshBVH(geometry) as unknown as NonNullable<BufferGeometry['boundsTree']>;
  return { geometry, frame };
}

const isDoorLeaf = (m: Mesh): boolean => /door-leaf/i.test(m.name);

/**
 * The collider world of a loaded scan. Without door meshes it reuses the scan's collision mesh and
 * BVH as they are (no cost); with them it splits the render object (colliderWorldFromObject).
 */
export function colliderWorldOf(loaded: Pick<LoadedMesh, 'object' | 'collision' | 'frame'>, isDoor: (mesh: Mesh) => boolean = isDoorLeaf): ColliderWorld {
  let doors = false;
  loaded.object.traverse((o) => { if (o instanceof Mesh && isDoor(o)) doors = true; });
  if (!doors) return { solid: { geometry: loaded.collision.geometry, frame: loaded.frame }, doors: null };
  return colliderWorldFromObject(loaded.object, loaded.frame, isDoor);
}

/**
 * A collider world from a loaded scan's render object (`LoadedMesh.object`, mesh frame): the meshes
 * `isDoor` picks (by default those named like `door-leaf`, as the sample house names its closed
 * leaves) become the doors surface, everything else the solid one. Builds two BVHs on the calling
 * thread (~0.3 s per million triangles); a scan without door meshes gets `doors: null`.
 * `LoadedMesh.collision` cannot be reused here: it merges the doors into the walls.
 */
export function colliderWorldFromObject(object: Object3D, frame: Matrix4, isDoor: (mesh: Mesh) => boolean = isDoorLeaf): ColliderWorld {
  object.updateMatrixWorld(true);
  const toRoot = object.matrixWorld.clone().invert();
  const solid = new Group(), doors = new Group();
  object.traverse((o) => {
    if (!(o instanceof Mesh)) return;
    // A clone shares the geometry (and an InstancedMesh's instances); only its placement is set here.
    const copy = o.clone(false);
    copy.matrixAutoUpdate = false;
    copy.matrix.multiplyMatrices(toRoot, o.matrixWorld);
    (isDoor(o) ? doors : solid).add(copy);
  });
  const build = (g: Group): Surface | null => {
    if (g.children.length === 0) return null;
    const { positions, index } = mergeTriangles(g, 'collider');
    return index.length ? surfaceFromTriangles(positions, index, frame.clone()) : null;
  };
  const solidSurface = build(solid);
  if (!solidSurface) throw new Error('collider: the scan has no solid triangles');
  return { solid: solidSurface, doors: build(doors) };
}

// ---------------------------------------------------------------------------------------------
// Rays against a world. These run many times per step, so they reuse scratch objects.

export interface WorldHit {
  distance: number; // world metres
  point: Vector3; // world
  door: boolean;
}

const toLocal = new Matrix4();
const linear = new Matrix3();
const localRay = new Ray();

/**
 * First hit of a world ray (unit `dir`) within `far` metres on the given surfaces, both sides of
 * every triangle. Null when nothing is hit. `out` is filled and returned to avoid allocation.
 */
export function castRay(surfaces: { surface: Surface; door: boolean }[], origin: Vector3, dir: Vector3, far: number, out?: WorldHit): WorldHit | null {
  let best: WorldHit | null = null;
  for (const { surface, door } of surfaces) {
    toLocal.copy(surface.frame).invert();
    localRay.origin.copy(origin).applyMatrix4(toLocal);
    localRay.direction.copy(dir).applyMatrix3(linear.setFromMatrix4(toLocal));
    // Its length before normalising is how many local units one world metre spans.
    const stretch = localRay.direction.length();
    localRay.direction.divideScalar(stretch);
    const limit = (best ? best.distance : far) * stretch;
    const hit = bvhOf(surface).raycastFirst(localRay, DoubleSide, 0, limit);
    if (!hit) continue;
    const distance = hit.distance / stretch;
    if (best && distance >= best.distance) continue;
    best = out ?? { distance: 0, point: new Vector3(), door: false };
    best.distance = distance;
    best.point.copy(origin).addScaledVector(dir, distance);
    best.door = door;
  }
  return best;
}

const DOWN = new Vector3(0, -1, 0);
const downOrigin = new Vector3();
const downHit: WorldHit = { distance: 0, point: new Vector3(), door: false };

/** Height of the first surface straight below (x, fromY, z) within `far` metres, or null. */
export function surfaceBelowY(surfaces: { surface: Surface; door: boolean }[], x: number, fromY: number, z: number, far: number): number | null {
  const hit = castRay(surfaces, downOrigin.set(x, fromY, z), DOWN, far, downHit);
  return hit ? hit.point.y : null;
}
