import { DoubleSide, Matrix4, Ray, Vector3 } from 'three';
import type { MeshBVH } from 'three-mesh-bvh';
import type { Surface } from '../measure/surface.ts';

/**
 * First-hit rays against one surface, in world coordinates. The probes cast hundreds of thousands
 * of rays per scene, so unlike `raycastSurface` this inverts the frame once, reuses its vectors and
 * skips the transforms altogether when the frame is the identity (Y-up scans in metres).
 */
export class Caster {
  private readonly bvh: MeshBVH | null;
  private readonly toLocal: Matrix4;
  private readonly toWorld: Matrix4;
  private readonly identity: boolean;
  /** World length of one mesh-frame unit (frames are rotation × uniform scale). */
  private readonly scale: number;
  private readonly ray = new Ray();
  private readonly hitPoint = new Vector3();
  private hitFacing = true;

  constructor(surface: Surface | null) {
    this.bvh = (surface?.geometry.boundsTree as MeshBVH | undefined) ?? null;
    this.toWorld = surface?.frame.clone() ?? new Matrix4();
    this.toLocal = this.toWorld.clone().invert();
    this.identity = this.toWorld.equals(new Matrix4());
    this.scale = new Vector3().setFromMatrixScale(this.toWorld).x;
  }

  /**
   * World distance to the first surface along `dir` (unit, world) from `origin` within `far`, or -1.
   * `hit()` then holds the world point.
   */
  cast(origin: Vector3, dir: Vector3, far: number): number {
    if (!this.bvh || far <= 0) return -1;
    this.ray.origin.copy(origin);
    this.ray.direction.copy(dir);
    if (!this.identity) {
      this.ray.origin.applyMatrix4(this.toLocal);
      this.ray.direction.transformDirection(this.toLocal);
    }
    const h = this.bvh.raycastFirst(this.ray, DoubleSide, 0, far / this.scale);
    if (!h) return -1;
    this.hitFacing = !h.face || h.face.normal.dot(this.ray.direction) < 0;
    this.hitPoint.copy(h.point);
    if (!this.identity) this.hitPoint.applyMatrix4(this.toWorld);
    return h.distance * this.scale;
  }

  /** The world point of the last successful `cast` (overwritten by the next one). */
  hit(): Vector3 {
    return this.hitPoint;
  }

  /**
   * Whether the last successful `cast` met its surface's front (by the winding, facing the ray): a
   * ray up that meets a front is under a ceiling, one that meets a back started inside a solid.
   */
  hitFront(): boolean {
    return this.hitFacing;
  }

  private static readonly DOWN = new Vector3(0, -1, 0);

  /** Height of the first surface straight below `point` within `maxDrop`, or null. */
  floorY(point: Vector3, maxDrop: number): number | null {
    const d = this.cast(point, Caster.DOWN, maxDrop);
    return d < 0 ? null : point.y - d;
  }
}
