/**
 * When a label rests on a measurement within a scan's noise of an agent's limit, the measurement
 * cannot settle it, and the draft (a drive's or a suggestion's) says so with the figures instead of
 * guessing. `noiseM` is the scan's own surface noise round the edge (engine/terrain/noise.ts): a
 * generated house has none and is never in doubt but on an exact tie.
 *
 * - heights (a sill against the step limit, a clear height against the agent's): within
 *   `HEIGHT_SPREAD` noises — a height is read as the difference of two surfaces' typical levels;
 * - a clear width against the width needed: within `WIDTH_SPREAD` noises — a width is bounded by the
 *   highest bump of each of two noisy jambs, so it moves by more;
 * - the longest footprint a corner turns against the agent's: within what that length moves when
 *   both legs' widths move by a width's margin (`turningDoubt`) — at least 2√2 times that margin
 *   (L = (a·sin θ + b·cos θ − w) / (sin θ cos θ), both legs at once). Held to a width's margin alone,
 *   a corner read 1 mm wider one way than the other fell in doubt driven one way and out of it the other;
 * plus, for a drive, the planner's own lattice (`latticeM`) for widths.
 */

import { maxTurningLengthM } from './rules.ts';

export type DoubtMeasure = 'sill' | 'headroom' | 'width' | 'turning';

const HEIGHT_SPREAD = 4;
const WIDTH_SPREAD = 12;

/** How far from its limit a measurement of this kind must lie for the scan to settle it. */
export function doubtMargin(kind: Exclude<DoubtMeasure, 'turning'>, noiseM: number, latticeM = 0): number {
  if (kind === 'sill' || kind === 'headroom') return HEIGHT_SPREAD * noiseM;
  return WIDTH_SPREAD * noiseM + latticeM;
}

const m3 = (v: number) => v.toFixed(3);
const mm = (m: number) => `±${(m * 1000).toFixed(0)} mm`;

const WHAT: Record<DoubtMeasure, { name: string; limit: string; check: string }> = {
  sill: { name: 'Sill', limit: 'the agent can cross', check: 'the sill' },
  headroom: { name: 'Clear height', limit: "of the agent's height", check: 'the opening' },
  width: { name: 'Clear width', limit: 'needed', check: 'the passage' },
  turning: { name: 'Longest footprint the corner turns', limit: "of the agent's footprint", check: 'the corner' },
};

/**
 * The doubt over one measurement against its limit (both in metres), or null when the scan
 * settles it: e.g. "Sill 0.021 m: within the scan's noise (±4 mm) of the 0.021 m the agent can
 * cross — the scan cannot tell; check the sill".
 */
export function doubtOfMeasure(kind: Exclude<DoubtMeasure, 'turning'>, measuredM: number, limitM: number, noiseM: number, latticeM = 0): string | null {
  return worded(kind, measuredM, limitM, doubtMargin(kind, noiseM, latticeM), noiseM, latticeM);
}

/**
 * The doubt over the longest footprint `w` wide that turns a corner of legs `a` and `b` (as measured)
 * against the agent's length `limitM`: the legs are what the scan measures, so the margin is how far
 * that length moves when both move by a width's margin, plus the lattice.
 */
export function turningDoubt(a: number, b: number, w: number, limitM: number, noiseM: number, latticeM = 0): string | null {
  const turns = maxTurningLengthM(a, b, w);
  const d = doubtMargin('width', noiseM);
  const margin = Math.max(maxTurningLengthM(a + d, b + d, w) - turns, turns - maxTurningLengthM(a - d, b - d, w)) + latticeM;
  return worded('turning', turns, limitM, margin, noiseM, latticeM);
}

function worded(kind: DoubtMeasure, measuredM: number, limitM: number, margin: number, noiseM: number, latticeM: number): string | null {
  if (!(Math.abs(measuredM - limitM) <= margin) || (noiseM <= 0 && latticeM <= 0 && measuredM !== limitM)) return null;
  const w = WHAT[kind];
  const within = noiseM > 0 ? `within the scan's noise (${mm(margin)})` : `within the planner's ${(latticeM * 100).toFixed(0)} cm`;
  return `${w.name} ${m3(measuredM)} m: ${within} of the ${m3(limitM)} m ${w.limit} — the scan cannot tell; check ${w.check}`;
}
