import { Vector3 } from 'three';
import type { Vec3 } from '../../core/graph.ts';
import { castRay, newRayHit } from '../rays/cast.ts';
import type { AgentBody, Pose, StepResult } from './body.ts';
import { bandHeights } from './clearance.ts';
import type { Footprint } from './footprint.ts';
import { blockingSurfaces, type ColliderWorld } from './world.ts';

export interface ClearWidthReading {
  /** Narrowest horizontal span found (metres). */
  widthM: number;
  /** The two surface points bounding it (world). */
  a: Vec3;
  b: Vec3;
  /** World height it was measured at. */
  y: number;
}

export interface ClearWidthOptions {
  /** Directions tried either side of perpendicular to the heading (degrees). */
  spreadDeg?: number;
  stepDeg?: number;
  /** Rays longer than this (either way) leave the span open. */
  reachM?: number;
  /** Measure at mid-body height only (not also just above the step limit). */
  midOnly?: boolean;
}

const LEVEL_NORMAL_Y = Math.cos((45 * Math.PI) / 180);
const origin = new Vector3();
const dir = new Vector3();
const fwdHit = newRayHit();
const backHit = newRayHit();

/**
 * Clear width through a point, across a heading: pairs of opposite horizontal rays through the
 * point, perpendicular to the heading and tilted up to ±`spreadDeg` in `stepDeg` steps, at two
 * heights inside the agent's body band; the narrowest pair closed on both sides wins. Door leaves
 * are ignored — this is the passage's jamb-to-jamb width. About 4·spread/step first-hit rays
 * (~80 by default): cheap enough for a readout every few steps.
 */
export function clearWidthAcross(
  world: ColliderWorld,
  fp: Footprint,
  floorY: number,
  at: { x: number; z: number },
  yaw: number,
  opts: ClearWidthOptions = {},
): ClearWidthReading | null {
  const { spreadDeg = 30, stepDeg = 3, reachM = 3, midOnly = false } = opts;
  const solid = blockingSurfaces(world, true);
  const [low, mid] = bandHeights(fp, floorY);
  let best: ClearWidthReading | null = null;
  for (const y of midOnly ? [mid!] : [low!, mid!]) {
    // At ±90° the pair is the same line: once is enough.
    for (let deg = -spreadDeg; deg <= Math.min(spreadDeg, 90 - stepDeg / 2) + 1e-9; deg += stepDeg) {
      // Perpendicular to the heading (the agent's left, local +X), turned by `deg`.
      const t = yaw + Math.PI / 2 + (deg * Math.PI) / 180;
      dir.set(Math.sin(t), 0, Math.cos(t));
      origin.set(at.x, y, at.z);
      const f = castRay(solid, origin, dir, reachM, fwdHit);
      // A level ray that meets a level surface only skims a noisy floor or sill top: no jamb.
      if (!f || Math.abs(f.normal.y) > LEVEL_NORMAL_Y) continue;
      const b = castRay(solid, origin, dir.negate(), reachM, backHit);
      if (!b || Math.abs(b.normal.y) > LEVEL_NORMAL_Y) continue;
      const width = f.distance + b.distance;
      if (!best || width < best.widthM) best = { widthM: width, a: toVec(b.point), b: toVec(f.point), y };
    }
  }
  return best;
}

/** Clear width through the agent's centre, across its heading: the live readout. */
export function clearWidthAtAgent(body: AgentBody, opts?: ClearWidthOptions): ClearWidthReading | null {
  const p = body.pose;
  return clearWidthAcross(body.world, body.footprint, p.y, p, p.yaw, opts);
}

/**
 * Clear width of the opening an agent is stuck in front of: sampled every 2 cm from the agent's
 * centre along `travelYaw` (default: its heading), from the depth of the contact point to 32 cm
 * past it, as long as the line of sight that way is free (so the samples lie in the opening, not
 * inside the wall), in every direction (the agent may meet the opening at an angle); narrowest
 * sample wins. Null when there is no opening ahead (a plain wall).
 */
export function openingWidthAhead(world: ColliderWorld, fp: Footprint, pose: Pose, contact: Vec3, travelYaw = pose.yaw): ClearWidthReading | null {
  const s = Math.sin(travelYaw),
    c = Math.cos(travelYaw);
  const solid = blockingSurfaces(world, true);
  const depth = (contact.x - pose.x) * s + (contact.z - pose.z) * c;
  const [, mid] = bandHeights(fp, pose.y);
  let best: ClearWidthReading | null = null;
  for (let k = 1; k <= 16; k++) {
    const d = depth + k * 0.02;
    origin.set(pose.x, mid!, pose.z);
    if (castRay(solid, origin, dir.set(s, 0, c), d, fwdHit)) break;
    // Every direction, as the agent may be stuck at an angle to the opening; at mid-body height
    // only, as low down a sample point may lie inside a sill the agent is not standing on.
    const w = clearWidthAcross(world, fp, pose.y, { x: pose.x + d * s, z: pose.z + d * c }, travelYaw, { spreadDeg: 90, midOnly: true });
    if (w && (!best || w.widthM < best.widthM)) best = w;
  }
  return best;
}

/** Below this side clearance the clear width is read at every move, not every few (a doorway is only ~12 cm deep). */
export const TIGHT_CLEARANCE_M = 0.15;

/**
 * What a UI shows while the user drives: the height of the last step, the tightest clearance so
 * far, and the clear width at the agent — refreshed every `every` moves (it costs ~80 rays), and at
 * every move while the clearance is tight — with the narrowest reading so far.
 */
export class LiveReadouts {
  lastStepHeightM = 0;
  tightestClearanceM = Infinity;
  clearWidth: ClearWidthReading | null = null;
  narrowest: ClearWidthReading | null = null;
  private moves = 0;

  /** `every`: moves between width readings; `tightEvery`: the same where the clearance is tight. */
  constructor(
    private readonly every = 5,
    private readonly tightEvery = 1,
  ) {}

  /** Start over (a new drive) from the body's current pose. */
  reset(body: AgentBody): void {
    this.lastStepHeightM = 0;
    this.tightestClearanceM = Math.min(body.clearance.leftM, body.clearance.rightM);
    this.moves = 0;
    this.narrowest = null;
    this.read(body);
  }

  /** Take in a step's result; call after every `body.step`. */
  update(body: AgentBody, result: StepResult): void {
    if (!result.moved) return;
    this.lastStepHeightM = result.stepHeightM;
    this.tightestClearanceM = Math.min(this.tightestClearanceM, result.clearanceM);
    const n = ++this.moves;
    if (n % this.every === 0 || (result.clearanceM < TIGHT_CLEARANCE_M && n % this.tightEvery === 0)) this.read(body);
  }

  private read(body: AgentBody): void {
    this.clearWidth = clearWidthAtAgent(body);
    if (this.clearWidth && (!this.narrowest || this.clearWidth.widthM < this.narrowest.widthM)) this.narrowest = this.clearWidth;
  }
}

const toVec = (v: Vector3): Vec3 => ({ x: v.x, y: v.y, z: v.z });
