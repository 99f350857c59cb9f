import { Box3, BufferAttribute, BufferGeometry, Group, InstancedMesh, Matrix4, Mesh, Vector3, type Object3D } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { mergeTriangles } from '../mesh/collisionMerge.ts';
import type { LoadedMesh } from '../mesh/types.ts';
import type { Surface } from '../rays/surface.ts';

/**
 * The scan split for judging traversability.
 *
 * Naming convention (docs/manual/labelling-and-drive.md repeats it): a mesh whose own name or any
 * ancestor's name contains "door" (any case) is an OPENABLE DOOR LEAF — left out of the walls, so a
 * doorway's clear width is measured jamb to jamb and the reference route passes through it; it is
 * an obstacle only for agents that cannot open doors. A mesh named with "lift" or "elevator" is a
 * LIFT part: left out of the walkable scan (a cabin is not a floor one walks to another storey on)
 * and kept as a world-space box so an edge between two lift lobbies can be recognised. Everything
 * else is `solid`. Real scans (HM3D, Matterport) carry no such names: then `solid` is the loaded
 * collision mesh itself and there are no doors or lifts; closed doors are then simply walls, and
 * lifts are recognised from the nodes alone.
 */
export interface SceneGeometry {
  /** Everything except door leaves and lift parts, mesh frame, with a BVH. */
  solid: Surface;
  /** Openable door leaves, or null when the scan names none. */
  doors: Surface | null;
  /** World-space bounds of each lift (touching lift parts merged). */
  lifts: Box3[];
  /** The lift parts themselves (cabin floors, shaft walls), mesh frame, or null when none is named. */
  liftParts: Surface | null;
  /** Mesh frame → world. */
  frame: Matrix4;
  /** Whether any door or lift part was found by name. */
  named: boolean;
}

export const DOOR_NAME = /door/i;
export const LIFT_NAME = /lift|elevator/i;

type Part = 'door' | 'lift' | 'solid';

/** The nearest name on the way up that says door or lift decides (and names the part); unnamed chains are solid. */
function partOf(o: Object3D, root: Object3D): { part: Part; node: Object3D } {
  for (let n: Object3D | null = o; n; n = n === root ? null : n.parent) {
    if (DOOR_NAME.test(n.name)) return { part: 'door', node: n };
    if (LIFT_NAME.test(n.name)) return { part: 'lift', node: n };
  }
  return { part: 'solid', node: o };
}

/** Split a loaded scan into solid, doors and lifts (see SceneGeometry). */
export function prepareGeometry(loaded: LoadedMesh): SceneGeometry {
  const root = loaded.object;
  root.updateMatrixWorld(true);
  const parts: Record<Part, Mesh[]> = { door: [], lift: [], solid: [] };
  // Meshes under one lift-named node are one lift part.
  const liftParts = new Map<Object3D, Mesh[]>();
  root.traverse((o) => {
    if (!(o instanceof Mesh)) return;
    const { part, node } = partOf(o, root);
    parts[part].push(o);
    if (part === 'lift') liftParts.set(node, [...(liftParts.get(node) ?? []), o]);
  });
  const frame = loaded.frame.clone();
  if (parts.door.length === 0 && parts.lift.length === 0) {
    return { solid: { geometry: loaded.collision.geometry, frame }, doors: null, lifts: [], liftParts: null, frame, named: false };
  }
  const solid = surfaceOf(root, parts.solid, frame);
  if (!solid) throw new Error('the scan has nothing but door and lift parts: no floor or walls to judge');
  return {
    solid,
    doors: surfaceOf(root, parts.door, frame),
    lifts: liftBoxes(root, [...liftParts.values()], frame),
    liftParts: surfaceOf(root, parts.lift, frame),
    frame,
    named: true,
  };
}

/**
 * Stand-ins for `meshes` under one group, each carrying its mesh's transform relative to `root`, so
 * the loader's own triangle merge (instances, draw ranges, mirrored winding) does the work.
 */
function proxies(root: Object3D, meshes: Mesh[]): Group {
  const group = new Group();
  const toRoot = root.matrixWorld.clone().invert();
  for (const m of meshes) {
    const proxy = m instanceof InstancedMesh ? new InstancedMesh(m.geometry, undefined, m.count) : new Mesh(m.geometry);
    if (m instanceof InstancedMesh && proxy instanceof InstancedMesh) proxy.instanceMatrix = m.instanceMatrix;
    proxy.matrixAutoUpdate = false;
    proxy.matrix.multiplyMatrices(toRoot, m.matrixWorld);
    group.add(proxy);
  }
  return group;
}

function surfaceOf(root: Object3D, meshes: Mesh[], frame: Matrix4): Surface | null {
  if (meshes.length === 0) return null;
  const { positions, index } = mergeTriangles(proxies(root, meshes), 'scan');
  if (index.length === 0) return null;
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  geometry.setIndex(new BufferAttribute(index, 1));
  // drei's older three-mesh-bvh typing wins the `boundsTree` augmentation (see collisionBuild.ts).
  geometry.boundsTree = new MeshBVH(geometry) as unknown as NonNullable<BufferGeometry['boundsTree']>;
  geometry.computeBoundingBox();
  return { geometry, frame };
}

/**
 * World boxes of the lift parts. Parts whose plans lie within 0.5 m of each other are one lift,
 * whatever the height between them: a cabin floor per stop, stacked in one shaft.
 */
function liftBoxes(root: Object3D, groups: Mesh[][], frame: Matrix4): Box3[] {
  const boxes: Box3[] = [];
  const v = new Vector3();
  for (const meshes of groups) {
    const { positions: p } = mergeTriangles(proxies(root, meshes), 'scan');
    const box = new Box3();
    for (let i = 0; i < p.length; i += 3) box.expandByPoint(v.set(p[i]!, p[i + 1]!, p[i + 2]!).applyMatrix4(frame));
    if (!box.isEmpty()) boxes.push(box);
  }
  const planNear = (a: Box3, b: Box3) => a.min.x - 0.5 <= b.max.x && b.min.x - 0.5 <= a.max.x && a.min.z - 0.5 <= b.max.z && b.min.z - 0.5 <= a.max.z;
  // Merge until nothing is near: a chain of parts can join two boxes that were not near at first.
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < boxes.length && !changed; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        if (!planNear(boxes[i]!, boxes[j]!)) continue;
        boxes[i]!.union(boxes[j]!);
        boxes.splice(j, 1);
        changed = true;
        break;
      }
    }
  }
  return boxes;
}
