import type { Pose, StepCommand } from './body.ts';
import type { Footprint } from './footprint.ts';
import type { ClearWidthReading } from './readouts.ts';

/** A doorway a box is lining up with: its centre on the plan and the yaw straight through it. */
export interface Opening {
  x: number;
  z: number;
  /** Yaw of the passage axis, pointing the way the agent is going. */
  axisYaw: number;
  widthM: number;
}

/** Largest turn per step while squaring up (as for any turn of a box). */
const MAX_TURN_RAD = (15 * Math.PI) / 180;
/** Lateral offset from the passage axis that counts as lined up. */
const LINED_UP_M = 0.005;

/** The opening behind a clear-width reading across it, its axis pointing along `travelYaw`. */
export function openingOf(reading: ClearWidthReading, travelYaw: number): Opening {
  const dx = reading.b.x - reading.a.x,
    dz = reading.b.z - reading.a.z;
  // The axis is perpendicular to the jamb-to-jamb span; of its two senses, the one going on.
  let axisYaw = Math.atan2(dz, -dx);
  if (Math.cos(axisYaw - travelYaw) < 0) axisYaw = wrap(axisYaw + Math.PI);
  return { x: (reading.a.x + reading.b.x) / 2, z: (reading.a.z + reading.b.z) / 2, axisYaw, widthM: reading.widthM };
}

/**
 * Whether the whole footprint has gone through the opening (it can steer freely again), or the
 * agent has wandered off elsewhere.
 */
export function passedOpening(pose: Pose, o: Opening, fp: Footprint): boolean {
  const along = (pose.x - o.x) * Math.sin(o.axisYaw) + (pose.z - o.z) * Math.cos(o.axisYaw);
  return along > Math.max(fp.halfWidthM, fp.halfDepthM) + 0.1 || Math.hypot(pose.x - o.x, pose.z - o.z) > 2;
}

/**
 * Moves that square a box up to a doorway it met at an angle, as a driver would: turn towards the
 * passage axis (≤ 15° a step), slide sideways onto the axis, then go straight through along it.
 * Each is tried with and without the turn, then the turn alone.
 */
export function squareUpCommands(pose: Pose, o: Opening, stepM: number): StepCommand[] {
  const ax = Math.sin(o.axisYaw),
    az = Math.cos(o.axisYaw);
  // Offset to the left of the axis (left of the axis direction is (az, −ax)).
  const lateral = (pose.x - o.x) * az - (pose.z - o.z) * ax;
  let dirX: number, dirZ: number, len: number;
  if (Math.abs(lateral) > LINED_UP_M) {
    const sign = lateral > 0 ? -1 : 1;
    dirX = sign * az;
    dirZ = -sign * ax;
    len = Math.min(stepM, Math.abs(lateral));
  } else {
    dirX = ax;
    dirZ = az;
    len = stepM;
  }
  const turn = Math.max(-MAX_TURN_RAD, Math.min(MAX_TURN_RAD, wrap(o.axisYaw - pose.yaw)));
  const moveAlong = (t: number): StepCommand => {
    // The world direction expressed in the turned body's forward and left.
    const rel = Math.atan2(dirX, dirZ) - (pose.yaw + t);
    return { turn: t, forward: len * Math.cos(rel), strafe: len * Math.sin(rel) };
  };
  const commands = [moveAlong(turn)];
  if (turn !== 0) commands.push(moveAlong(0), { forward: 0, turn });
  return commands;
}

const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));
