import { Vector3, type Matrix4 } from 'three';
import type { TourPose } from '../../core/tour/types.ts';
import { pixelCentre, viewRay, type Lens } from '../../core/tour/view.ts';
import { castRay, newRayHit } from '../rays/cast.ts';
import type { Surface } from '../rays/surface.ts';
import type { WorldPose } from '../tour/poses.ts';

/**
 * Depth frames: what the tour camera sees, as distances. The camera is the tour's own
 * (core/tour/view.ts, the renderer's three.js PerspectiveCamera: vertical field of view, yaw then
 * pitch, no roll), each pixel's ray cast through the scan's BVH by the one ray caster.
 */

/** A pose of a poses document in the world, as the renderer draws it (the document keeps positions in the scan's frame). */
export function worldPoseOf(pose: TourPose, frame: Matrix4): WorldPose {
  const eye = new Vector3(pose.position.x, pose.position.y, pose.position.z).applyMatrix4(frame);
  const rad = Math.PI / 180;
  return { t: pose.t, eye: { x: eye.x, y: eye.y, z: eye.z }, yawRad: pose.yawDeg * rad, pitchRad: pose.pitchDeg * rad };
}

/**
 * The z-depth of each pixel of a width × height picture (rows from the top, metres along the
 * camera's view axis, not along the ray): the picture the colour frame is, at that size. 0 where
 * the ray meets nothing nearer than `farM` deep.
 */
export function renderDepth(surface: Surface, pose: WorldPose, lens: Lens, width: number, height: number, farM: number): Float32Array {
  const out = new Float32Array(width * height);
  const look = { eye: pose.eye, yawRad: pose.yawRad, pitchRad: pose.pitchRad };
  const origin = new Vector3(pose.eye.x, pose.eye.y, pose.eye.z);
  const dir = new Vector3();
  const hit = newRayHit();
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const c = pixelCentre(col, row, width, height);
      const ray = viewRay(look, lens, c.x, c.y);
      dir.set(ray.dir.x, ray.dir.y, ray.dir.z);
      const h = castRay(surface, origin, dir, farM / ray.along, hit);
      out[row * width + col] = h ? h.distance * ray.along : 0;
    }
  }
  return out;
}
