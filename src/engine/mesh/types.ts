import type { Matrix4, Mesh, Object3D, WebGLRenderer } from 'three';
import type { Facing } from './facing.ts';
import type { LevelAreas } from './upAxis.ts';
import type { WorkerFactory } from './workerClient.ts';

export type MeshFormat = 'glb' | 'gltf' | 'ply' | 'obj';

/** The main mesh file plus its side files (a .gltf's .bin and images, an .obj's .mtl and textures). */
export interface MeshInput {
  files: { name: string; data: Blob | ArrayBuffer }[];
}

export interface LoadMeshOptions {
  /** The scan's up axis; Z-up scans get a −90° turn about X in `frame`. */
  upAxis: 'y' | 'z';
  /** Uniform scale from the file's units to metres (applied in `frame`, never to vertex data). */
  unitScale: number;
  /**
   * Needed to pick GPU formats for Basis textures (KTX2 and GOOGLE_texture_basis); without one a
   * throw-away renderer is made, and where none can be (Node) GOOGLE_texture_basis images become RGBA.
   */
  renderer?: WebGLRenderer;
  /**
   * Where parse and BVH work runs. The default starts Vite module workers when `Worker` exists and
   * otherwise works on the calling thread; return null from a factory to force the calling thread.
   */
  createWorker?: WorkerFactory;
  /** Overrides the parse and BVH time-outs (ms), which otherwise grow with the input size. */
  timeoutMs?: number;
}

export type LoadStage = 'read' | 'parse' | 'textures' | 'bvh' | 'done';

export interface LoadProgress {
  stage: LoadStage;
  /** 0..1 within the stage; never decreases within a stage, and stages only move forward. */
  fraction: number;
  message: string;
}

export interface MeshStats {
  /** Triangles of the render object (instances counted). */
  triangles: number;
  /** Vertices of the render object's geometries (as stored, so unwelded formats count corners). */
  vertices: number;
  /** Distinct textures on the render object's materials. */
  textures: number;
  /** Bytes of all input files. */
  bytes: number;
  format: MeshFormat;
}

export interface LoadTimings {
  read: number;
  parse: number;
  /** For glTF, texture decoding runs inside the parse; this is its span and overlaps `parse`. */
  textures: number;
  bvh: number;
}

export interface LoadedMesh {
  /** Render-ready object in the mesh's own frame: materials, textures, vertex colours and node transforms kept. */
  object: Object3D;
  /**
   * One merged, welded, indexed, position-only geometry in the mesh's own frame (node transforms baked
   * in) with `geometry.boundsTree` built and the accelerated raycast; its material is invisible.
   */
  collision: Mesh;
  /** Mesh frame → world (Y up, metres). Put it on a wrapper group holding `object` and `collision`. */
  frame: Matrix4;
  stats: MeshStats;
  /** Floor heights in world Y, ascending (see floors.ts). `reframeMesh` keeps them current when `frame` changes. */
  floors: number[];
  /** Which way its surfaces face in the world (facing.ts); depends on `frame`, like `floors`. */
  facing: Facing;
  /** Level area across each axis of the file's own frame, which says which way is up (upAxis.ts); absent when not measured. */
  levels?: LevelAreas;
  /** Draw the render object double-sided (`drawBothSides(facing)`; see facing.ts for why). */
  doubleSided: boolean;
  timings: LoadTimings;
  /** Problems that did not stop the load (a missing .mtl or texture, an image that did not decode). */
  warnings: string[];
  /** Frees geometries, materials, textures and the BVH. */
  dispose(): void;
}
