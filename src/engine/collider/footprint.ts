import type { AgentProfile } from '../../core/agents.ts';
import { SIDE_CLEARANCE_M, STEP_TOLERANCE_M } from '../../core/rules.ts';

/**
 * The agent's body as the collider sees it: its plan shape inflated by the side margin, its
 * height, and the highest rise it climbs. Agent-local plan coordinates are (u, v): u to the
 * agent's left, v forward along its heading.
 */
export interface Footprint {
  shape: 'box' | 'cylinder';
  /** Half the inflated extent across the heading (u); the radius for a cylinder. */
  halfWidthM: number;
  /** Half the inflated extent along the heading (v); the radius for a cylinder. */
  halfDepthM: number;
  /** The side margin the extents include, per side. */
  marginM: number;
  /** The agent's true (uninflated) half width, for clearance readouts. */
  bodyHalfWidthM: number;
  bodyHalfDepthM: number;
  heightM: number;
  /** maxStepM + STEP_TOLERANCE_M: the same limit rules.ts judges sills by. */
  stepLimitM: number;
  /**
   * The plan outline as a convex polygon of half-planes n·(u, v) ≤ d (TOUCH_M inside the true
   * size). Exact for a box; for a
   * cylinder a circumscribed regular polygon (see CYLINDER_SIDES). Either way its bounding
   * rectangle is ±halfWidthM × ±halfDepthM.
   */
  planes: { nu: number; nv: number; d: number }[];
  /** Radius of the circle through the outline's corners. */
  outerRadiusM: number;
}

/**
 * Sides of the polygon that stands in for a cylinder where triangles are clipped to the footprint
 * (support and obstacle heights). Circumscribed, with edge normals straight ahead and straight to
 * the sides, so the body is exact across and along the heading and at most r·(sec(π/32) − 1)
 * ≈ 0.5 % of the radius (1.5 mm for a 0.32 m radius) too big on the diagonals. Whether the body
 * touches something is decided with the true circle (see column.ts).
 */
export const CYLINDER_SIDES = 32;

/**
 * Contact needs overlap, not touch: the outline is tested a micron inside its true size, so a
 * doorway exactly as wide as the footprint lets it through, as rules.ts's `width + 2 × 0.02 ≤ w`
 * does (and float32 scan coordinates do not decide the case).
 */
export const TOUCH_M = 1e-6;

/** Free height above the step limit before the body begins: keeps the surface it stands on out of the body test. */
export const BODY_GAP_M = 0.005;

/**
 * The agent's footprint: a box `width × depth` (width across the direction of travel, depth along
 * it) or a cylinder of diameter `width`, grown by `margin` on every side, with its height and step
 * limit. The default margin is the rules' side clearance, so the collider lets through exactly the
 * doorways rules.ts judges passable (agent width + 2 × 0.02 m ≤ clear width).
 */
export function footprintOf(profile: AgentProfile, margin = SIDE_CLEARANCE_M): Footprint {
  const box = profile.shape === 'box' && profile.depthM !== null;
  const bodyHalfWidthM = profile.widthM / 2;
  const bodyHalfDepthM = box ? profile.depthM! / 2 : bodyHalfWidthM;
  const halfWidthM = bodyHalfWidthM + margin;
  const halfDepthM = bodyHalfDepthM + margin;
  const planes = box
    ? [
        { nu: 1, nv: 0, d: halfWidthM - TOUCH_M },
        { nu: 0, nv: 1, d: halfDepthM - TOUCH_M },
        { nu: -1, nv: 0, d: halfWidthM - TOUCH_M },
        { nu: 0, nv: -1, d: halfDepthM - TOUCH_M },
      ]
    : Array.from({ length: CYLINDER_SIDES }, (_, k) => {
        const a = (2 * Math.PI * k) / CYLINDER_SIDES;
        return { nu: Math.cos(a), nv: Math.sin(a), d: halfWidthM - TOUCH_M };
      });
  return {
    shape: box ? 'box' : 'cylinder',
    halfWidthM,
    halfDepthM,
    marginM: margin,
    bodyHalfWidthM,
    bodyHalfDepthM,
    heightM: profile.heightM,
    stepLimitM: profile.maxStepM + STEP_TOLERANCE_M,
    planes,
    outerRadiusM: box ? Math.hypot(halfWidthM, halfDepthM) : halfWidthM / Math.cos(Math.PI / CYLINDER_SIDES),
  };
}
