import { BoxGeometry, BufferAttribute, BufferGeometry, Group, Matrix4, Mesh, Vector3, type Object3D } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { NavGraph, Vec3 } from '../../src/core/graph.ts';
import { mergeTriangles } from '../../src/engine/mesh/collisionMerge.ts';
import type { LoadedMesh } from '../../src/engine/mesh/types.ts';

/**
 * Small synthetic scans for the suggestion engine's tests, built from named boxes in metres, Y up
 * (world). `loaded(frame)` hands them over as the loader would: in the scan's own frame, so that
 * `frame` maps them back to the world coordinates they were written in.
 */

export type P3 = [number, number, number];

export interface Opening {
  centre: number;
  width: number;
  head?: number;
}

export class TestScan {
  private readonly content = new Group();

  /** A closed box; `name` decides whether it is a door ("door"), a lift part ("lift") or solid. */
  box(name: string, min: P3, max: P3): this {
    const size = new Vector3(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
    const geometry = new BoxGeometry(size.x, size.y, size.z).translate((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
    const mesh = new Mesh(geometry);
    mesh.name = name;
    this.content.add(mesh);
    return this;
  }

  /** A floor slab whose top is at `top`. */
  floor(x0: number, x1: number, z0: number, z1: number, top = 0, name = 'floor'): this {
    return this.box(name, [x0, top - 0.2, z0], [x1, top, z1]);
  }

  /** A 0.1 m wall centred on `at`, running along `run` from `from` to `to`, with openings (lintel above each). */
  wall(run: 'x' | 'z', at: number, from: number, to: number, { base = 0, height = 2.5, openings = [] as Opening[] } = {}): this {
    const piece = (a: number, b: number, y0: number, y1: number) => {
      if (b - a <= 1e-9 || y1 - y0 <= 1e-9) return;
      if (run === 'x') this.box('wall', [a, y0, at - 0.05], [b, y1, at + 0.05]);
      else this.box('wall', [at - 0.05, y0, a], [at + 0.05, y1, b]);
    };
    let cursor = from;
    for (const o of [...openings].sort((p, q) => p.centre - q.centre)) {
      piece(cursor, o.centre - o.width / 2, base, base + height);
      piece(o.centre - o.width / 2, o.centre + o.width / 2, base + (o.head ?? 2.1), base + height);
      cursor = o.centre + o.width / 2;
    }
    piece(cursor, to, base, base + height);
    return this;
  }

  /** Walls round the rectangle's outside. */
  enclose(x0: number, x1: number, z0: number, z1: number, opts: { base?: number; height?: number } = {}): this {
    this.wall('x', z0 - 0.05, x0 - 0.1, x1 + 0.1, opts).wall('x', z1 + 0.05, x0 - 0.1, x1 + 0.1, opts);
    return this.wall('z', x0 - 0.05, z0, z1, opts).wall('z', x1 + 0.05, z0, z1, opts);
  }

  /** The scan as loadMesh returns it, stored in the frame that `frame` maps to the world. */
  loaded(frame = new Matrix4()): LoadedMesh {
    const object = new Group();
    object.name = 'test-scan';
    const placed = this.content.clone();
    placed.matrixAutoUpdate = false;
    placed.matrix.copy(frame.clone().invert());
    object.add(placed);
    object.updateMatrixWorld(true);
    return asLoaded(object, 'test-scan', frame);
  }
}

/** A world point in the scan's own frame (where graph files keep node positions). */
export function inFrame(p: P3, frame = new Matrix4()): Vec3 {
  const v = new Vector3(...p).applyMatrix4(frame.clone().invert());
  return { x: v.x, y: v.y, z: v.z };
}

/** A graph of two nodes `n1` (at `a`) and `n2` (at `b`) joined by one edge; positions given in world. */
export function twoNodes(a: P3, b: P3, frame = new Matrix4()): NavGraph {
  return {
    nodes: [
      { id: 'n1', name: 'A', description: '', position: inFrame(a, frame), floor: null },
      { id: 'n2', name: 'B', description: '', position: inFrame(b, frame), floor: null },
    ],
    edges: [{ id: 'e1', from: 'n1', to: 'n2' }],
  };
}

/** Two 3 × 3 m rooms side by side (x 0–3 and 3–6), joined by an opening in the wall at x = 3. */
export function twoRooms({
  doorWidth = 0.85,
  sill,
  doorLeaf = false,
  closed = false,
}: { doorWidth?: number; sill?: number; doorLeaf?: boolean; closed?: boolean } = {}): TestScan {
  const scan = new TestScan().floor(-0.1, 6.1, -0.1, 3.1).enclose(0, 6, 0, 3);
  scan.wall('z', 3, 0, 3, { openings: closed ? [] : [{ centre: 1.5, width: doorWidth }] });
  const z0 = 1.5 - doorWidth / 2,
    z1 = 1.5 + doorWidth / 2;
  if (sill !== undefined) scan.box('sill', [2.95, 0, z0], [3.05, sill, z1]);
  if (doorLeaf) scan.box('door', [2.98, 0.01, z0], [3.02, 2.09, z1]);
  return scan;
}
export const ROOM_NODES: [P3, P3] = [
  [1.5, 0.02, 1.5],
  [4.5, 0.02, 1.5],
];

/** A scan object (its matrices up to date) as loadMesh returns it: its triangles merged into one collision mesh with a BVH, nothing else found. */
export function asLoaded(object: Object3D, name: string, frame: Matrix4): LoadedMesh {
  const { positions, index } = mergeTriangles(object, name);
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  geometry.setIndex(new BufferAttribute(index, 1));
  geometry.boundsTree = new MeshBVH(geometry) as unknown as NonNullable<BufferGeometry['boundsTree']>;
  return {
    object,
    collision: new Mesh(geometry),
    frame,
    floors: [],
    facing: { up: 0, down: 0, total: 0 },
    doubleSided: false,
    warnings: [],
    stats: { triangles: index.length / 3, vertices: positions.length / 3, textures: 0, bytes: 0, format: 'glb' },
    timings: { read: 0, parse: 0, textures: 0, bvh: 0 },
    dispose() {
      geometry.dispose();
    },
  };
}
