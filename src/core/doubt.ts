/**
 * When a label rests on a measurement within a scan's noise of an agent's limit, the measurement
 * cannot settle it, and the draft (a drive's or a suggestion's) says so with the figures instead of
 * guessing. `noiseM` is the scan's own surface noise round the edge (engine/terrain/noise.ts): a
 * generated house has none and is never in doubt but on an exact tie.
 *
 * - heights (a sill against the step limit, a clear height against the agent's): within
 *   `HEIGHT_SPREAD` noises — a height is read as the difference of two surfaces' typical levels;
 * - widths (a clear width against the width needed, the longest footprint a corner turns against the
 *   agent's): within `WIDTH_SPREAD` noises — a width is bounded by the highest bump of each of two
 *   noisy jambs, so it moves by more;
 * plus, for a drive, the planner's own lattice (`latticeM`) for widths.
 */

export type DoubtMeasure = 'sill' | 'headroom' | 'width' | 'turning';

const HEIGHT_SPREAD = 4;
const WIDTH_SPREAD = 12;

/** How far from its limit a measurement of this kind must lie for the scan to settle it. */
export function doubtMargin(kind: DoubtMeasure, noiseM: number, latticeM = 0): number {
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
export function doubtOfMeasure(kind: DoubtMeasure, measuredM: number, limitM: number, noiseM: number, latticeM = 0): string | null {
  const margin = doubtMargin(kind, noiseM, latticeM);
  if (!(Math.abs(measuredM - limitM) <= margin) || (noiseM <= 0 && latticeM <= 0 && measuredM !== limitM)) return null;
  const w = WHAT[kind];
  const within = noiseM > 0 ? `within the scan's noise (${mm(margin)})` : `within the planner's ${(latticeM * 100).toFixed(0)} cm`;
  return `${w.name} ${m3(measuredM)} m: ${within} of the ${m3(limitM)} m ${w.limit} — the scan cannot tell; check ${w.check}`;
}
