import type { PoseSpace } from './poseSpace.ts';

/** A pose on the plan: position (world x, z) and yaw (heading (sin yaw, cos yaw)). */
export interface PlanPose {
  x: number;
  z: number;
  yaw: number;
}

/** The largest turn between two poses of a motion: the lattice's heading bin. */
const MAX_TURN_RAD = (5 * Math.PI) / 180;
/** How many neighbours either side set the travel direction where the heading is free. */
const TRAVEL_SPAN = 3;

/**
 * The motion a lattice path describes, as an agent would drive it. Where the heading is free ("any
 * heading" points) the agent faces the way it travels, turning on the spot (it has room to) before
 * it must hold a heading; where the heading is fixed it keeps the path's heading, facing whichever
 * way of the box's two is nearer the last. Then shortcuts: a run of lattice steps is replaced by one
 * straight move (turning as it goes) wherever every pose along it is surely free on the map (the
 * collider need not be asked), and the result is cut into steps of at most one lattice step and 5°.
 */
export function motionOf(space: PoseSpace, path: readonly number[], { smooth = true, fromYaw = NaN } = {}): PlanPose[] {
  if (path.length === 0) return [];
  const box = space.ANY >= 0;
  const pts = path.map((s) => {
    const p = Math.floor(s / space.S);
    return { x: space.x(p), z: space.z(p), k: s - p * space.S };
  });
  const travel = (i: number): number => {
    const a = pts[Math.max(0, i - TRAVEL_SPAN)]!,
      b = pts[Math.min(pts.length - 1, i + TRAVEL_SPAN)]!;
    return a.x === b.x && a.z === b.z ? NaN : Math.atan2(b.x - a.x, b.z - a.z);
  };
  const poses: PlanPose[] = [];
  let prevYaw = fromYaw;
  for (let i = 0; i < pts.length; i++) {
    const { x, z, k } = pts[i]!;
    const fixed = box && k !== space.ANY;
    let yaw: number;
    if (fixed) {
      const base = space.yaw(k);
      const ref = Number.isNaN(prevYaw) ? travel(i) : prevYaw;
      yaw = Number.isNaN(ref) ? base : nearestTurn(base, ref, Math.PI);
    } else {
      const t = travel(i);
      yaw = Number.isNaN(t) ? (Number.isNaN(prevYaw) ? 0 : prevYaw) : Number.isNaN(prevYaw) ? t : nearestTurn(t, prevYaw, 2 * Math.PI);
    }
    if (!Number.isNaN(prevYaw) && box && Math.abs(yaw - prevYaw) > MAX_TURN_RAD) {
      // Turn on the spot where the heading is free: here if this point spins, else at the last point.
      const prev = poses[poses.length - 1]!;
      const here = !fixed;
      const at = here ? { x, z } : { x: prev.x, z: prev.z };
      const steps = Math.ceil(Math.abs(yaw - prevYaw) / MAX_TURN_RAD);
      for (let m = 1; m < steps; m++) poses.push({ ...at, yaw: prevYaw + ((yaw - prevYaw) * m) / steps });
      if (!here) poses.push({ ...at, yaw });
    }
    poses.push({ x, z, yaw });
    prevYaw = yaw;
  }
  return densify(smooth ? shortcut(space, poses) : poses, space.stepM);
}

/** `angle` shifted by whole periods to lie nearest `ref`. */
function nearestTurn(angle: number, ref: number, period: number): number {
  return angle + Math.round((ref - angle) / period) * period;
}

function segmentFree(space: PoseSpace, a: PlanPose, b: PlanPose): boolean {
  const n = stepsBetween(a, b, space.stepM);
  for (let m = 1; m < n; m++) {
    const t = m / n;
    if (!space.surelyFree(a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t, a.yaw + (b.yaw - a.yaw) * t)) return false;
  }
  return true;
}

function stepsBetween(a: PlanPose, b: PlanPose, stepM: number): number {
  return Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.z - a.z) / stepM - 1e-9), Math.ceil(Math.abs(b.yaw - a.yaw) / MAX_TURN_RAD - 1e-9));
}

/** Greedy shortcuts: from each kept pose, the farthest of 128, 64, … 1 poses ahead reachable in a straight move. */
function shortcut(space: PoseSpace, poses: PlanPose[]): PlanPose[] {
  const out = [poses[0]!];
  let i = 0;
  while (i < poses.length - 1) {
    let j = i + 1;
    for (let span = 128; span > 1; span >>= 1) {
      const cand = Math.min(poses.length - 1, i + span);
      if (cand > i + 1 && segmentFree(space, poses[i]!, poses[cand]!)) {
        j = cand;
        break;
      }
    }
    out.push(poses[j]!);
    i = j;
  }
  return out;
}

function densify(poses: PlanPose[], stepM: number): PlanPose[] {
  const out = [poses[0]!];
  for (let i = 1; i < poses.length; i++) {
    const a = poses[i - 1]!,
      b = poses[i]!;
    const n = stepsBetween(a, b, stepM);
    for (let m = 1; m <= n; m++) {
      const t = m / n;
      out.push({ x: a.x + (b.x - a.x) * t, z: a.z + (b.z - a.z) * t, yaw: a.yaw + (b.yaw - a.yaw) * t });
    }
  }
  return out;
}
