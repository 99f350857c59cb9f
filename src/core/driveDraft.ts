import type { AgentProfile } from './agents.ts';
import { neededWidthM, NOTES, STEP_TOLERANCE_M, type ReasonCategory } from './rules.ts';

/**
 * What a drive measured, in metres: at what stopped it, or along the way when it got through.
 * Every field is optional; which are present depends on the reason.
 */
export type DriveMeasured = {
  /** Clear width of the narrowest passage (where it stopped, or on the way). */
  clearWidthM?: number;
  /** The width the agent needs: its width plus the side clearance each side. */
  neededWidthM?: number;
  /** The highest step or sill (where it stopped, or climbed on the way). */
  stepHeightM?: number;
  /** Free height of the lowest opening. */
  clearHeightM?: number;
  risers?: number;
  riserM?: number;
  /** The smallest free space beside the body on the way. */
  tightestClearanceM?: number;
  /** Length of the motion on the plan. */
  lengthM?: number;
};

export interface DriveFindings {
  reached: boolean;
  reason: ReasonCategory | null;
  measured: DriveMeasured;
  /** What the collider said, for a stop the measurements do not explain. */
  message?: string;
}

/**
 * The label draft a drive proposes (the annotator still decides): the reason category and a note
 * worded exactly as the rules word it (rules.ts NOTES), so a drive, a suggestion and the ground
 * truth say "step too high" the same way. Null when the agent got through.
 */
export function driveDraft(f: DriveFindings, profile: AgentProfile): { reason: ReasonCategory; note: string } | null {
  if (f.reached || !f.reason) return null;
  const m = f.measured;
  switch (f.reason) {
    case 'stairs':
      return { reason: 'stairs', note: NOTES.stairs() };
    case 'lift':
      return { reason: 'lift', note: NOTES.lift() };
    case 'door':
      return { reason: 'door', note: NOTES.door() };
    case 'step':
      return m.stepHeightM !== undefined ? { reason: 'step', note: NOTES.step(m.stepHeightM, profile.maxStepM) } : other(f);
    case 'narrow':
      if (m.clearHeightM !== undefined) return { reason: 'narrow', note: NOTES.headroom(m.clearHeightM, profile.heightM) };
      return m.clearWidthM !== undefined ? { reason: 'narrow', note: NOTES.narrow(m.clearWidthM, m.neededWidthM ?? neededWidthM(profile)) } : other(f);
    case 'turning':
      return { reason: 'turning', note: NOTES.turning(profile, m.clearWidthM) };
    case 'other':
      return other(f);
  }
}

function other(f: DriveFindings): { reason: ReasonCategory; note: string } {
  return { reason: 'other', note: f.message ?? 'Stopped by something the drive could not classify' };
}

/** A collider contact, as plain data (engine/collider/body.ts Contact). */
export interface ContactFinding {
  kind: 'wall' | 'step' | 'door' | 'drop';
  message: string;
  heightM?: number;
}

/**
 * What a contact met while driving by hand says: a door the agent cannot open, a step above its
 * limit, a drop the collider will not go down (in the collider's words). A wall or furniture
 * touched, or a step within the limit, is where the driver steered, not a property of the
 * passage: null, no finding. (Read from one contact at whatever angle it was met, an opening's
 * width is not a measurement: 0.16–2.4 m at the sample house's 1.2 m doors. The planner, `G`,
 * squares up to a doorway and measures it.)
 */
export function findingsOfContact(contact: ContactFinding, profile: AgentProfile): DriveFindings | null {
  if (contact.kind === 'door') return { reached: false, reason: 'door', measured: {} };
  if (contact.kind === 'step') {
    return contact.heightM !== undefined && contact.heightM > profile.maxStepM + STEP_TOLERANCE_M
      ? { reached: false, reason: 'step', measured: { stepHeightM: contact.heightM } }
      : null;
  }
  if (contact.kind === 'drop') return { reached: false, reason: 'other', measured: {}, message: contact.message };
  return null;
}
