import type { AgentProfile } from '../../core/agents.ts';
import { AgentBody, type Contact, type Pose } from '../collider/body.ts';
import { LiveReadouts } from '../collider/readouts.ts';
import type { ColliderWorld } from '../collider/world.ts';
import type { PlanPose } from './motion.ts';

/**
 * The exact collider (collider/body.ts: true footprint, every triangle, step-up and follow-down)
 * driven through a planned motion pose by pose. The planner's map is a centimetre raster of the same
 * model, so they agree but for a few millimetres; this is what makes `reached` the collider's word,
 * not the raster's. Measures what the drive readouts show while it goes.
 */
export type Confirmation =
  | { ok: true; poses: Pose[]; highestRiseM: number; tightestClearanceM: number; narrowestWidthM: number | null }
  | { ok: false; index: number; contact: Contact; poses: Pose[] };

export function confirmMotion(world: ColliderWorld, profile: AgentProfile, motion: readonly PlanPose[], startFloorY: number): Confirmation {
  const first = motion[0];
  if (!first) throw new Error('planner: an empty motion cannot be confirmed');
  const body = AgentBody.place(world, profile, { x: first.x, y: startFloorY + 0.02, z: first.z }, first.yaw);
  const poses: Pose[] = [body.pose];
  if (body.contact) return { ok: false, index: 0, contact: body.contact, poses };
  const readouts = new LiveReadouts();
  readouts.reset(body);
  let highestRiseM = 0;
  for (let i = 1; i < motion.length; i++) {
    const from = body.pose, to = motion[i]!;
    const s = Math.sin(to.yaw), c = Math.cos(to.yaw);
    const dx = to.x - from.x, dz = to.z - from.z;
    const r = body.step({ turn: to.yaw - from.yaw, forward: dx * s + dz * c, strafe: dx * c - dz * s });
    if (!r.moved) return { ok: false, index: i, contact: r.contact!, poses };
    readouts.update(body, r);
    highestRiseM = Math.max(highestRiseM, r.stepHeightM);
    poses.push(r.pose);
  }
  return {
    ok: true, poses, highestRiseM: Math.round(highestRiseM * 1000) / 1000, tightestClearanceM: readouts.tightestClearanceM,
    narrowestWidthM: readouts.narrowest?.widthM ?? null,
  };
}
