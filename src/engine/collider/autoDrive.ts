import type { AgentProfile } from '../../core/agents.ts';
import type { Vec3 } from '../../core/graph.ts';
import { AgentBody, type Contact, type Pose, type StepCommand, type StepResult } from './body.ts';
import { PlanPolyline } from './polyline.ts';
import { LiveReadouts, openingWidthAhead } from './readouts.ts';
import { openingOf, passedOpening, squareUpCommands, type Opening } from './squareUp.ts';
import type { ColliderWorld } from './world.ts';

export interface AutoDriveOptions {
  /** Length of one step (metres). */
  stepM?: number;
  /** Give up after this many steps (default: three times the route length in steps, plus 200). */
  maxSteps?: number;
  /** The footprint's side margin (default: the rules' side clearance). */
  margin?: number;
  /** How far ahead on the route the agent aims (default: 2 steps for a cylinder, 0.25 m for a box). */
  lookaheadM?: number;
  /** The drive has reached the end within this distance on the plan. */
  goalToleranceM?: number;
}

export interface AutoDriveResult {
  reached: boolean;
  /** Every pose from the start, one per step that moved. */
  trajectory: Pose[];
  /** What stopped the drive (absent when it reached the end). */
  contact?: Contact;
  measured: {
    /**
     * At a wall or door contact: the clear width of the opening the agent is stuck in front of.
     * Otherwise the narrowest clear width read on the way (the live readout, see LiveReadouts).
     */
    clearWidthM?: number;
    /** At a step contact: the obstacle's height. Otherwise the highest rise climbed on the way (absent when none). */
    stepHeightM?: number;
    /** The smallest side clearance over the drive (Infinity when nothing was ever within reach). */
    tightestClearanceM: number;
  };
}

/**
 * Largest turn per step for a box; a sharper bend is taken over several steps, sweeping its
 * corners gradually. A cylinder turns on the spot at no cost (its footprint does not change), so
 * it faces the route at once.
 */
const MAX_BOX_TURN_RAD = (15 * Math.PI) / 180;
/** Sideways nudges the local search tries (metres). */
const NUDGES_M = [0.01, 0.02];
/** Steps without getting further along the route before the drive gives up as stuck. */
const STALL_STEPS = 40;

/**
 * Drive an agent along a route polyline (world, from node A to node B) in small steps, facing the
 * direction of travel, until it reaches the end or the first thing that blocks it.
 *
 * Steering is a pursuit of a point `lookaheadM` ahead on the route. Each step is a greedy local
 * search, not a planner: the straight command first, then the same step with half or no turn,
 * then with sideways nudges of 1–2 cm (towards the route first), then a turn on the spot; the
 * first one that fits and gets further along the route (or, turning on the spot, closer to the
 * wanted heading) is taken. A box that is still stuck against a door frame squares up to the
 * opening (squareUp.ts): turn to its axis, slide onto it, go through straight. Reversing and
 * re-approaching is not modelled, so a box can still be stopped where a planner with room to
 * manoeuvre would get it through. When nothing fits, the drive stops and reports what blocked
 * the straight command; when the route stops progressing for 40 steps (or `maxSteps` run out),
 * it stops with the last such contact (none if the straight command never was blocked). It is
 * deterministic: same inputs, same trajectory.
 */
export function autoDrive(world: ColliderWorld, profile: AgentProfile, route: Vec3[], opts: AutoDriveOptions = {}): AutoDriveResult {
  const stepM = opts.stepM ?? 0.02;
  const line = new PlanPolyline(route);
  const maxSteps = opts.maxSteps ?? Math.ceil((3 * line.length) / stepM) + 200;
  const goal = opts.goalToleranceM ?? Math.max(stepM, 0.02);
  const start = route[0];
  if (!start) throw new Error('autoDrive: the route is empty');
  const body = AgentBody.place(world, profile, start, line.yawAt(0), opts.margin);
  const fp = body.footprint;
  const lookahead = opts.lookaheadM ?? (fp.shape === 'box' ? 0.25 : 2 * stepM);
  const trajectory: Pose[] = [body.pose];

  const readouts = new LiveReadouts();
  readouts.reset(body);
  let highestRise = 0;
  // The way the agent was trying to go: where a stop looks for the opening it is stuck in.
  let travel = line.yawAt(0);
  const finish = (reached: boolean, contact?: Contact): AutoDriveResult => {
    const pose = body.pose;
    const measured: AutoDriveResult['measured'] = { tightestClearanceM: readouts.tightestClearanceM };
    const width =
      contact && (contact.kind === 'wall' || contact.kind === 'door') ? openingWidthAhead(world, fp, pose, contact.point, travel) : readouts.narrowest;
    if (width) measured.clearWidthM = width.widthM;
    if (contact?.kind === 'step') measured.stepHeightM = contact.heightM;
    else if (highestRise > 0) measured.stepHeightM = Math.round(highestRise * 1000) / 1000;
    return { reached, trajectory, ...(contact ? { contact } : {}), measured };
  };

  if (body.contact) return finish(false, body.contact);
  let s = 0,
    bestS = 0,
    stall = 0;
  // What blocked the straight command: in this step, and most recently.
  let blocked: Contact | undefined, lastBlocked: Contact | undefined;
  let opening: Opening | null = null;
  for (let n = 0; n < maxSteps; n++) {
    const pose = body.pose;
    const end = line.pointAt(line.length);
    const toEnd = Math.hypot(end.x - pose.x, end.z - pose.z);
    if (toEnd <= goal) return finish(true);

    const carrot = line.pointAt(s + lookahead);
    const wanted = Math.atan2(carrot.x - pose.x, carrot.z - pose.z);
    travel = wanted;
    const error = wrap(wanted - pose.yaw);
    const turn = fp.shape === 'box' ? clamp(error, MAX_BOX_TURN_RAD) : error;
    const forward = Math.min(stepM, toEnd);
    // Nudge towards the route first: its side is the sign of the route point's left offset.
    const left = Math.cos(pose.yaw) * (carrot.x - pose.x) - Math.sin(pose.yaw) * (carrot.z - pose.z);
    const towards = left >= 0 ? 1 : -1;

    const candidates: StepCommand[] = [{ forward, turn }];
    if (turn !== 0) candidates.push({ forward, turn: turn / 2 }, { forward, turn: 0 });
    for (const d of NUDGES_M)
      for (const side of [towards, -towards]) candidates.push({ forward, turn, strafe: side * d }, { forward, turn: 0, strafe: side * d });
    if (turn !== 0) candidates.push({ forward: 0, turn });

    // The straight command is always tried (its contact is what a stop reports); the
    // alternatives only when they would get further.
    let taken: StepResult | null = null;
    blocked = undefined;
    for (const [k, cmd] of candidates.entries()) {
      if (k > 0) {
        const [x, z, yaw] = target(pose, cmd);
        const better = cmd.forward === 0 ? Math.abs(wrap(wanted - yaw)) < Math.abs(error) - 1e-9 : line.project(x, z, s).s > s + 1e-6;
        if (!better) continue;
      }
      const result = body.step(cmd);
      if (result.moved) {
        taken = result;
        break;
      }
      if (k === 0) blocked = lastBlocked = result.contact;
    }
    // A box that met a door frame at an angle squares up to the opening, found once per doorway.
    if (!taken && fp.shape === 'box' && blocked && (blocked.kind === 'wall' || blocked.kind === 'door')) {
      if (!opening) {
        const reading = openingWidthAhead(world, fp, pose, blocked.point, wanted);
        opening = reading ? openingOf(reading, wanted) : null;
      }
      // Squaring up to an opening narrower than the footprint would only wedge it in.
      const fits = opening !== null && opening.widthM >= 2 * fp.halfWidthM;
      for (const cmd of fits ? squareUpCommands(pose, opening!, stepM) : []) {
        const result = body.step(cmd);
        if (result.moved) {
          taken = result;
          break;
        }
      }
    }
    if (!taken) return finish(false, blocked);

    const p = taken.pose;
    trajectory.push(p);
    s = Math.max(s, line.project(p.x, p.z, s).s);
    highestRise = Math.max(highestRise, taken.stepHeightM);
    readouts.update(body, taken);
    if (opening && passedOpening(p, opening, fp)) opening = null;
    if (s > bestS + 1e-3) {
      bestS = s;
      stall = 0;
    } else if (++stall > STALL_STEPS) return finish(false, lastBlocked);
  }
  return finish(false, lastBlocked);
}

/** Where a command would put the agent: (x, z, yaw). Mirrors AgentBody.step. */
function target(pose: Pose, cmd: StepCommand): [number, number, number] {
  const yaw = pose.yaw + cmd.turn;
  const s = Math.sin(yaw),
    c = Math.cos(yaw);
  const strafe = cmd.strafe ?? 0;
  return [pose.x + cmd.forward * s + strafe * c, pose.z + cmd.forward * c - strafe * s, yaw];
}

const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));
const clamp = (a: number, m: number): number => Math.max(-m, Math.min(m, a));
