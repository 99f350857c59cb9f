import type { Vec3 } from '../../core/graph.ts';

/**
 * Steps, sills and stairs from the floor profile along the route (heights every centimetre).
 *
 * A step is a run of consecutive centimetres over which the floor changes steeply in one direction
 * (more than 3 mm per cm, i.e. steeper than about 17°, so ramps are not steps but a bevelled sill
 * is one step); its rise is the whole change over the run, which on the flat treads either side of a
 * vertical riser is the ray-measured height difference — exact to well under a millimetre.
 *
 * Stairs: at least 3 rises of 0.08–0.25 m in the same direction, each within 0.6 m of the last,
 * together at least 0.5 m. The highest step that is not part of stairs is the sill height.
 */

/** One change of floor height along the route (a riser, a sill's edge, a step). */
export interface StepEvidence {
  /** Distance along the route on the plan from `a`, metres. */
  s: number;
  at: Vec3;
  /** Signed: up (+) or down (−) walking from `a` to `b`. */
  riseM: number;
  /** Part of a flight of stairs. */
  stair: boolean;
}

export interface StairsEvidence {
  risers: number;
  /** Median riser height. */
  riserM: number;
  totalRiseM: number;
  fromS: number;
  toS: number;
}

const STEEP_PER_CM = 0.003;
const MIN_STEP_M = 0.005;
const RISER_MIN_M = 0.08;
const RISER_MAX_M = 0.25;
const MIN_RISERS = 3;
const MIN_FLIGHT_RISE_M = 0.5;
const MAX_GOING_M = 0.6;

export interface ProfilePoint {
  s: number;
  at: Vec3;
}

export interface StepFindings {
  steps: StepEvidence[];
  stairs: StairsEvidence | null;
  /** Highest |rise| of the steps outside stairs, or undefined when there are none. */
  sillHeightM: number | undefined;
}

/**
 * `points[i]` is where floor[i] was read (or a function giving it: only the steps' points are asked
 * for, so a caller reading thousands of lines need not make a point per centimetre).
 */
export function findSteps(points: readonly ProfilePoint[] | ((i: number) => ProfilePoint), floor: ArrayLike<number>): StepFindings {
  const pointAt = typeof points === 'function' ? points : (i: number) => points[i]!;
  const steps: StepEvidence[] = [];
  let i = 1;
  while (i < floor.length) {
    const d = floor[i]! - floor[i - 1]!;
    if (Math.abs(d) <= STEEP_PER_CM) {
      i++;
      continue;
    }
    const sign = Math.sign(d);
    const first = i - 1;
    while (i < floor.length && Math.sign(floor[i]! - floor[i - 1]!) === sign && Math.abs(floor[i]! - floor[i - 1]!) > STEEP_PER_CM) i++;
    const rise = floor[i - 1]! - floor[first]!;
    if (Math.abs(rise) >= MIN_STEP_M) {
      const mid = pointAt(Math.round((first + i - 1) / 2));
      steps.push({ s: round4(mid.s), at: mid.at, riseM: round4(rise), stair: false });
    }
  }
  const stairs = markStairs(steps);
  const others = steps.filter((s) => !s.stair).map((s) => Math.abs(s.riseM));
  return { steps, stairs, sillHeightM: others.length ? Math.max(...others) : undefined };
}

/** Mark the steps that belong to flights; the evidence covers all flights on the route together. */
function markStairs(steps: StepEvidence[]): StairsEvidence | null {
  const isRiser = (s: StepEvidence) => Math.abs(s.riseM) >= RISER_MIN_M && Math.abs(s.riseM) <= RISER_MAX_M;
  let k = 0;
  while (k < steps.length) {
    if (!isRiser(steps[k]!)) {
      k++;
      continue;
    }
    const group = [steps[k]!];
    let j = k + 1;
    while (
      j < steps.length &&
      isRiser(steps[j]!) &&
      Math.sign(steps[j]!.riseM) === Math.sign(group[0]!.riseM) &&
      steps[j]!.s - group[group.length - 1]!.s <= MAX_GOING_M
    )
      group.push(steps[j++]!);
    const total = group.reduce((n, s) => n + Math.abs(s.riseM), 0);
    if (group.length >= MIN_RISERS && total >= MIN_FLIGHT_RISE_M) for (const s of group) s.stair = true;
    k = j;
  }
  const risers = steps.filter((s) => s.stair);
  if (risers.length === 0) return null;
  const heights = risers.map((s) => Math.abs(s.riseM)).sort((a, b) => a - b);
  const mid = heights.length >> 1;
  const median = heights.length % 2 ? heights[mid]! : (heights[mid - 1]! + heights[mid]!) / 2;
  return {
    risers: risers.length,
    riserM: round4(median),
    totalRiseM: round4(heights.reduce((n, h) => n + h, 0)),
    fromS: risers[0]!.s,
    toS: risers[risers.length - 1]!.s,
  };
}

/** To a tenth of a millimetre: float noise off, precision kept. */
export const round4 = (v: number): number => Math.round(v * 1e4) / 1e4 + 0;
