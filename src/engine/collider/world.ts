import { Group, Matrix4, Mesh, BufferAttribute, BufferGeometry, type Object3D } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { scanSurface, type Surface, type SurfaceLayer } from '../rays/surface.ts';
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

/** The surfaces an agent collides with: doors only for an agent that cannot open them. */
export function blockingSurfaces(world: ColliderWorld, canOpenDoors: boolean): SurfaceLayer[] {
  const list: SurfaceLayer[] = [{ surface: world.solid, door: false }];
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
  loaded.object.traverse((o) => {
    if (o instanceof Mesh && isDoor(o)) doors = true;
  });
  if (!doors) return { solid: scanSurface(loaded), doors: null };
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
  const solid = new Group(),
    doors = new Group();
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
