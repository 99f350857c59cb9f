import type { AgentProfile } from '../../core/agents.ts';
import type { DriveMeasured } from '../../core/driveDraft.ts';
import type { Vec3 } from '../../core/graph.ts';
import { maxTurningLengthM, neededWidthM, SIDE_CLEARANCE_M, STEP_TOLERANCE_M, type ReasonCategory } from '../../core/rules.ts';
import { DOUBTFUL } from '../terrain/holes.ts';
import type { Terrain } from '../terrain/terrain.ts';

/**
 * When a drive's answer rests on a measurement within the scan's noise of the agent's limit, the
 * answer is a guess, and the draft says so with the figures instead (issue: "where a scan is
 * genuinely ambiguous at a place, the draft says so"). The noise is the scan's own round the edge
 * (terrain/noise.ts): a generated house has none and is never in doubt but on an exact tie.
 *
 * - a sill or step: its height against the step limit, within `HEIGHT_SPREAD` noises;
 * - a clear height against the agent's height, the same;
 * - a clear width against the width needed, within `WIDTH_SPREAD` noises: the collider meets the
 *   highest bump of a noisy jamb, both jambs, so widths move by more than heights do;
 * - a turn round a corner, when the longest footprint the corner turns is within the planner's
 *   lattice (2 cm) and that width spread of the agent's;
 * - a stop at a gap in the scanned floor too large to read as missing data (terrain/holes.ts).
 */

const HEIGHT_SPREAD = 4;
const WIDTH_SPREAD = 12;
/** The planner's lattice step: a turn with less to spare than this is decided by the lattice, not the corner. */
const LATTICE_M = 0.02;
/** How near a stop a doubtful gap must lie to be what stopped it. */
const GAP_NEAR_M = 0.5;

export interface DoubtInput {
  reached: boolean;
  reason: ReasonCategory | null;
  measured: DriveMeasured;
  stoppedAt: Vec3 | null;
}

const mm = (m: number) => `${(m * 1000).toFixed(0)} mm`;
const m3 = (v: number) => v.toFixed(3);

export function doubtOf(d: DoubtInput, profile: AgentProfile, terrain: Terrain, noiseM: number): string | null {
  const heightTol = HEIGHT_SPREAD * noiseM, widthTol = WIDTH_SPREAD * noiseM;
  const noise = `the scan's noise here (±${mm(heightTol)})`;
  const m = d.measured;
  const stepLimit = profile.maxStepM + STEP_TOLERANCE_M;
  const needed = neededWidthM(profile);
  if (d.reached) {
    if (m.stepHeightM !== undefined && stepLimit - m.stepHeightM <= heightTol && noiseM > 0) {
      return `It crossed a ${m3(m.stepHeightM)} m step, within ${noise} of the ${m3(profile.maxStepM)} m it can cross: check the sill in the scan`;
    }
    if (m.clearWidthM !== undefined && m.clearWidthM - needed <= widthTol && noiseM > 0) {
      return `It passed a ${m3(m.clearWidthM)} m clear width, within the scan's noise (±${mm(widthTol)}) of the ${m3(needed)} m it needs: check the passage in the scan`;
    }
    return null;
  }
  if (d.stoppedAt && gapNear(terrain, d.stoppedAt)) {
    return 'It is stopped at a gap in the scanned floor too large to read as missing data (over 30 cm across) and too small to be a real opening: check the scan there';
  }
  switch (d.reason) {
    case 'step':
      if (m.stepHeightM !== undefined && m.stepHeightM - stepLimit <= heightTol) {
        return `Sill ${m3(m.stepHeightM)} m: within ${noise} of the ${m3(profile.maxStepM)} m the agent can cross, so the scan cannot tell; check the sill`;
      }
      return null;
    case 'narrow':
      if (m.clearHeightM !== undefined && profile.heightM - m.clearHeightM <= heightTol) {
        return `Clear height ${m3(m.clearHeightM)} m: within ${noise} of the agent's ${m3(profile.heightM)} m, so the scan cannot tell; check the opening`;
      }
      if (m.clearHeightM === undefined && m.clearWidthM !== undefined && needed - m.clearWidthM <= widthTol) {
        return `Clear width ${m3(m.clearWidthM)} m: within the scan's noise (±${mm(widthTol)}) of the ${m3(needed)} m needed, so the scan cannot tell; check the passage`;
      }
      return null;
    case 'turning': {
      if (m.clearWidthM === undefined || profile.depthM === null) return null;
      // The longest footprint, as wide as the agent's narrow side with its side clearance, the corner turns.
      const w = Math.min(profile.widthM, profile.depthM) + 2 * SIDE_CLEARANCE_M, l = Math.max(profile.widthM, profile.depthM) + 2 * SIDE_CLEARANCE_M;
      const spare = maxTurningLengthM(m.clearWidthM, m.clearWidthM, w) - l;
      if (spare > -(LATTICE_M + widthTol) && spare < LATTICE_M + 3 * widthTol) {
        return `The ${m3(m.clearWidthM)} m corner turns a footprint ${spare >= 0 ? `${mm(spare)} longer` : `${mm(-spare)} shorter`} than the agent's (its side clearance included): within the planner's 2 cm and the scan's noise, so the scan cannot tell; check the corner`;
      }
      return null;
    }
    default:
      return null;
  }
}

function gapNear(terrain: Terrain, at: Vec3): boolean {
  const g = terrain.region.grid;
  const r = Math.ceil(GAP_NEAR_M / g.cellM);
  const i0 = Math.floor((at.x - g.x0) / g.cellM), j0 = Math.floor((at.z - g.z0) / g.cellM);
  for (let j = Math.max(0, j0 - r); j <= Math.min(g.nz - 1, j0 + r); j++) {
    for (let i = Math.max(0, i0 - r); i <= Math.min(g.nx - 1, i0 + r); i++) if (terrain.filled[j * g.nx + i] === DOUBTFUL) return true;
  }
  return false;
}

/**
 * Whether a stop's figures contradict its reason: a narrow passage wider than needed, a low
 * opening higher than the agent, a step no higher than it climbs. Such a draft must not be proposed.
 */
export function contradicts(reason: ReasonCategory | null, m: DriveMeasured, profile: AgentProfile): boolean {
  if (reason === 'step') return m.stepHeightM !== undefined && m.stepHeightM <= profile.maxStepM + STEP_TOLERANCE_M;
  if (reason !== 'narrow') return false;
  if (m.clearHeightM !== undefined) return m.clearHeightM >= profile.heightM;
  return m.clearWidthM !== undefined && m.clearWidthM >= (m.neededWidthM ?? neededWidthM(profile));
}
