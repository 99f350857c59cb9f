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

/** How far apart the poses the collider drives are, at most: a planned motion comes every 1–2 cm. */
const CONFIRM_STEP_M = 0.04;
const CONFIRM_TURN_RAD = (5 * Math.PI) / 180 - 1e-9;

export function confirmMotion(world: ColliderWorld, profile: AgentProfile, motion: readonly PlanPose[], startFloorY: number): Confirmation {
  const first = motion[0];
  if (!first) throw new Error('planner: an empty motion cannot be confirmed');
  const body = AgentBody.place(world, profile, { x: first.x, y: startFloorY + 0.02, z: first.z }, first.yaw);
  const poses: Pose[] = [body.pose];
  if (body.contact) return { ok: false, index: 0, contact: body.contact, poses };
  // The narrowest width passed, read every 2 cm where it is tight (a doorway is 10 cm deep and more):
  // the driver's own readout reads at every move, which on a dense scan is most of a confirmation's time.
  const readouts = new LiveReadouts(5, 2);
  readouts.reset(body);
  let highestRiseM = 0;
  let last = first;
  for (let i = 1; i < motion.length; i++) {
    const to = motion[i]!;
    // Every CONFIRM_STEP_M or CONFIRM_TURN_RAD (and the end): the footprint is 40 cm long and more, so
    // poses that far apart overlap on all but a sliver, and no obstacle fits between two of them.
    if (i < motion.length - 1 && Math.hypot(to.x - last.x, to.z - last.z) < CONFIRM_STEP_M && Math.abs(to.yaw - last.yaw) < CONFIRM_TURN_RAD) continue;
    last = to;
    const from = body.pose;
    const s = Math.sin(to.yaw),
      c = Math.cos(to.yaw);
    const dx = to.x - from.x,
      dz = to.z - from.z;
    const r = body.step({ turn: to.yaw - from.yaw, forward: dx * s + dz * c, strafe: dx * c - dz * s });
    if (!r.moved) return { ok: false, index: i, contact: r.contact!, poses };
    readouts.update(body, r);
    highestRiseM = Math.max(highestRiseM, r.stepHeightM);
    poses.push(r.pose);
  }
  return {
    ok: true,
    poses,
    highestRiseM,
    tightestClearanceM: readouts.tightestClearanceM,
    narrowestWidthM: readouts.narrowest?.widthM ?? null,
  };
}
