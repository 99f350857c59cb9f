import type { Vec3 } from '../../core/graph.ts';
import { attempt, searchFrom, type Attempt } from './attempt.ts';
import { bridge, type FineOf } from './bridge.ts';
import { motionOf, type PlanPose } from './motion.ts';
import type { PoseSpace } from './poseSpace.ts';
import { append } from '../../core/arrays.ts';

/** A way as pieces of paths, each on its own lattice (coarse, or fine across a bottleneck). */
export interface Piece {
  space: PoseSpace;
  path: number[];
}

export interface Plan {
  found: boolean;
  pieces: Piece[];
  expanded: number;
  /** The last coarse search: when nothing was found, how far it got. */
  last: Attempt;
}

/** How many bottlenecks on one edge are crossed at 1 cm. */
const MAX_BRIDGES = 3;

/**
 * The way from a to b: a coarse search (2 cm); where it is stuck and a guide (a disc slightly
 * narrower than the agent) gets through, a bridge at 1 cm across the bottleneck (bridge.ts), then
 * coarse again from the far side.
 */
export function planWay(
  coarse: PoseSpace,
  a: Vec3,
  b: Vec3,
  across: { fine: FineOf; guide: () => { x: number; z: number }[] | null; radiusM: number } | null,
): Plan {
  let last = attempt(coarse, a, b);
  let expanded = last.result.expanded;
  if (last.result.found) return { found: true, pieces: [{ space: coarse, path: last.result.path }], expanded, last };
  if (!across || last.start < 0) return { found: false, pieces: [], expanded, last };
  const guide = across.guide();
  if (!guide) return { found: false, pieces: [], expanded, last };
  const pieces: Piece[] = [];
  for (let n = 0; n < MAX_BRIDGES; n++) {
    const br = bridge(coarse, last.result, across.fine, guide, across.radiusM, last.goal);
    if (!br) break;
    expanded += br.expanded;
    pieces.push({ space: coarse, path: br.before }, { space: br.fine, path: br.across });
    if (Math.floor(br.exit / coarse.S) === last.goal) return { found: true, pieces, expanded, last };
    const next: Attempt = { ...last, result: searchFrom(coarse, [br.exit], last.goal) };
    expanded += next.result.expanded;
    if (next.result.found) {
      pieces.push({ space: coarse, path: next.result.path });
      return { found: true, pieces, expanded, last: next };
    }
    last = next;
  }
  return { found: false, pieces: [], expanded, last };
}

/** The motion of a plan's pieces, one after the other, the heading carried from piece to piece. */
export function motionOfPieces(pieces: readonly Piece[], smooth = true): PlanPose[] {
  const out: PlanPose[] = [];
  for (const { space, path } of pieces) {
    const fromYaw = out.length ? out[out.length - 1]!.yaw : NaN;
    const m = motionOf(space, path, { smooth, fromYaw });
    const first = m[0];
    const prev = out[out.length - 1];
    append(out, prev && first && Math.hypot(first.x - prev.x, first.z - prev.z) < 1e-9 ? m.slice(1) : m);
  }
  return out;
}
