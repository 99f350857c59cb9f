import type { AgentProfile } from '../../core/agents.ts';
import type { DriveMeasured } from '../../core/driveDraft.ts';
import type { Vec3 } from '../../core/graph.ts';
import { doubtOfMeasure, turningDoubt } from '../../core/doubt.ts';
import { neededWidthM, SIDE_CLEARANCE_M, STEP_TOLERANCE_M, type ReasonCategory } from '../../core/rules.ts';
import { DOUBTFUL } from '../terrain/holes.ts';
import type { Terrain } from '../terrain/terrain.ts';

/**
 * When a drive's answer rests on a measurement within the scan's noise of the agent's limit, the
 * answer is a guess, and the draft says so with the figures instead (core/doubt.ts words it and sets
 * how near is too near). The noise is the scan's own round the edge (terrain/noise.ts). Besides the
 * measurements the rules read — a sill, a clear height, a clear width, and the longest footprint a
 * corner turns (within the planner's 2 cm lattice too) — a stop at a gap in the scanned floor too
 * large to read as missing data is a doubt (terrain/holes.ts).
 */

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

export function doubtOf(d: DoubtInput, profile: AgentProfile, terrain: Terrain, noiseM: number): string | null {
  const m = d.measured;
  const stepLimit = profile.maxStepM + STEP_TOLERANCE_M;
  const needed = neededWidthM(profile);
  if (d.reached) {
    return (
      (m.stepHeightM !== undefined ? doubtOfMeasure('sill', m.stepHeightM, stepLimit, noiseM) : null) ??
      (m.clearWidthM !== undefined ? doubtOfMeasure('width', m.clearWidthM, needed, noiseM) : null)
    );
  }
  if (d.stoppedAt && gapNear(terrain, d.stoppedAt)) {
    return 'A gap in the scanned floor too large to read as missing data (over 30 cm across) and too small to be a real opening stops it — the scan cannot tell; check the floor there';
  }
  switch (d.reason) {
    case 'step':
      return m.stepHeightM !== undefined ? doubtOfMeasure('sill', m.stepHeightM, stepLimit, noiseM) : null;
    case 'narrow':
      if (m.clearHeightM !== undefined) return doubtOfMeasure('headroom', m.clearHeightM, profile.heightM, noiseM);
      return m.clearWidthM !== undefined ? doubtOfMeasure('width', m.clearWidthM, needed, noiseM) : null;
    case 'turning': {
      if (m.clearWidthM === undefined || profile.depthM === null) return null;
      // The longest footprint, as wide as the agent's narrow side with its side clearance, the corner turns.
      const w = Math.min(profile.widthM, profile.depthM) + 2 * SIDE_CLEARANCE_M,
        l = Math.max(profile.widthM, profile.depthM) + 2 * SIDE_CLEARANCE_M;
      return turningDoubt(m.clearWidthM, m.clearWidthM, w, l, noiseM, LATTICE_M);
    }
    default:
      return null;
  }
}

function gapNear(terrain: Terrain, at: Vec3): boolean {
  const g = terrain.region.grid;
  const r = Math.ceil(GAP_NEAR_M / g.cellM);
  const i0 = Math.floor((at.x - g.x0) / g.cellM),
    j0 = Math.floor((at.z - g.z0) / g.cellM);
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
