import type { AgentProfile } from '../../core/agents.ts';
import type { Vec3 } from '../../core/graph.ts';
import { autoDrive } from '../collider/autoDrive.ts';
import type { Pose } from '../collider/body.ts';
import type { ColliderWorld } from '../collider/world.ts';

/** Closer than this (centre to stop, on the plan) the shown motion already ends at the obstacle. */
const AT_STOP_M = 0.3;
/** The farthest the collider drives on towards a stop. */
const MAX_APPROACH_M = 4;

/**
 * A stopped drive's motion carried on to what stopped it. The planner's search shows the pose
 * farthest along the route that its map reaches — for a stop met early (a sill or a door right
 * after the start) that can be the start itself, metres from the stop mark. From there the
 * collider drives the agent straight at the stop, as far as the scan lets it, so the playback ends
 * against the obstacle it names.
 */
export function approachStop(world: ColliderWorld, profile: AgentProfile, motion: readonly Pose[], start: Vec3, stop: Vec3 | null): Pose[] {
  if (!stop) return [...motion];
  const from = motion.at(-1) ?? start;
  const gap = Math.hypot(stop.x - from.x, stop.z - from.z);
  if (gap < AT_STOP_M || gap > MAX_APPROACH_M) return [...motion];
  let drive;
  try {
    drive = autoDrive(world, profile, [{ x: from.x, y: from.y, z: from.z }, stop], { maxSteps: Math.ceil((2 * gap) / 0.02) + 50 });
  } catch {
    return [...motion]; // the start does not fit the footprint: nothing more to show
  }
  const on = drive.trajectory.slice(motion.length ? 1 : 0);
  return [...motion, ...on];
}
