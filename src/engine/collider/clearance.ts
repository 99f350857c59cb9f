import { Vector3 } from 'three';
import { castRay, newRayHit } from '../rays/cast.ts';
import type { SurfaceLayer } from '../rays/surface.ts';
import { BODY_GAP_M, type Footprint } from './footprint.ts';

/** Free space beside the agent's true body (without the margin), perpendicular to its heading. */
export interface SideClearance {
  leftM: number;
  rightM: number;
  /** Plan point on the agent's axis where the tighter side was measured (for a box: rear, middle or front). */
  at: { x: number; z: number };
}

/** Side rays reach this far beyond the body; farther is reported as Infinity (open). */
export const CLEARANCE_REACH_M = 2;

/** Heights in the body band (above the step limit, up to the agent's height) that clearance and widths are measured at. */
export function bandHeights(fp: Footprint, floor: number): number[] {
  const lo = floor + fp.stepLimitM + BODY_GAP_M,
    hi = floor + fp.heightM;
  return [lo + 0.01, (lo + hi) / 2, hi - 0.01];
}

const origin = new Vector3();
const dir = new Vector3();
const hit = newRayHit();

/**
 * Side clearance at a pose: horizontal rays to the left and right, perpendicular to the heading,
 * from the body's axis at three heights — for a box from its rear edge, middle and front edge
 * (a box can scrape along its whole length), for a cylinder from its centre. Each side's
 * clearance is the shortest ray minus the true half width. 6–18 first-hit rays.
 */
export function sideClearance(surfaces: readonly SurfaceLayer[], fp: Footprint, pose: { x: number; y: number; z: number; yaw: number }): SideClearance {
  const s = Math.sin(pose.yaw),
    c = Math.cos(pose.yaw);
  const along = fp.shape === 'box' ? [-fp.bodyHalfDepthM, 0, fp.bodyHalfDepthM] : [0];
  const reach = fp.bodyHalfWidthM + CLEARANCE_REACH_M;
  let left = Infinity,
    right = Infinity,
    tightest = Infinity;
  const at = { x: pose.x, z: pose.z };
  for (const h of bandHeights(fp, pose.y)) {
    for (const v of along) {
      origin.set(pose.x + v * s, h, pose.z + v * c);
      // Left is local +X: (cos yaw, 0, −sin yaw).
      const l = castRay(surfaces, origin, dir.set(c, 0, -s), reach, hit);
      const lm = l ? l.distance - fp.bodyHalfWidthM : Infinity;
      const r = castRay(surfaces, origin, dir.set(-c, 0, s), reach, hit);
      const rm = r ? r.distance - fp.bodyHalfWidthM : Infinity;
      left = Math.min(left, lm);
      right = Math.min(right, rm);
      if (Math.min(lm, rm) < tightest) {
        tightest = Math.min(lm, rm);
        at.x = origin.x;
        at.z = origin.z;
      }
    }
  }
  return { leftM: left, rightM: right, at };
}
