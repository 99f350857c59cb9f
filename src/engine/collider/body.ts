import { Vector3 } from 'three';
import type { AgentProfile } from '../../core/agents.ts';
import type { Vec3 } from '../../core/graph.ts';
import { NOTES } from '../../core/rules.ts';
import { floorBelow, newRayHit } from '../rays/cast.ts';
import { ColumnScan } from './column.ts';
import { BODY_GAP_M, footprintOf, type Footprint } from './footprint.ts';
import { sideClearance, type SideClearance } from './clearance.ts';
import { blockingSurfaces, type ColliderWorld } from './world.ts';

/** Where an agent stands: on the floor at (x, y, z) (y is the floor height under it, world), facing yaw. */
export interface Pose {
  x: number;
  /** Floor height under the agent (world): the highest support under its footprint. */
  y: number;
  z: number;
  /** Radians about +Y; the heading is (sin yaw, 0, cos yaw), so yaw 0 faces +Z and a positive turn is to the left. */
  yaw: number;
}

export type ContactKind = 'wall' | 'step' | 'door' | 'drop';

/** What stopped a step. */
export interface Contact {
  kind: ContactKind;
  /** World point on the obstacle: the nearest blocking part (wall, door), a step's top, the floor under a drop's edge. */
  point: Vec3;
  /** A step: the obstacle's height above the floor, to the millimetre. A drop: its depth, when the floor below was found. */
  heightM?: number;
  message: string;
}

export interface StepCommand {
  /** Metres along the heading after turning; may be negative. */
  forward: number;
  /** Metres sideways after turning, positive to the agent's left. */
  strafe?: number;
  /** Radians, positive to the left; applied before the move. */
  turn: number;
}

export interface StepResult {
  moved: boolean;
  /** The pose after the step (unchanged when blocked). */
  pose: Pose;
  contact?: Contact;
  /** Rise (positive) or drop (negative) of the floor under the agent in this step; 0 when blocked. */
  stepHeightM: number;
  /** Free space beside the agent's true body, perpendicular to its heading: the smaller side (Infinity when open). */
  clearanceM: number;
  clearance: SideClearance;
}

/** A drop deeper than this crossed by the agent's centre stops it (it would fall) instead of being followed. */
export const DROP_STOP_M = 0.5;
/** An obstacle that ends within this height above the floor is a step (a sill, a kerb, a riser); a taller one is a wall. */
export const STEP_CLASS_M = 0.45;
/** Depth below the floor of the first, cheaper search for support. */
const SHALLOW_M = 0.05;
/** How far below a placement point `place` looks for the floor. */
const PLACE_SEARCH_M = 2;
/** The floor under the centre is looked for at every step: its ray reuses these. */
const below = new Vector3();
const belowHit = newRayHit();

/** The outcome of testing one pose: the floor it would stand on, or what blocks it. */
interface Evaluation {
  floor: number;
  /** Height of the surface straight under the centre (null when nothing there, undefined when not looked for). */
  centre?: number | null;
  contact: Contact | null;
}

/**
 * An agent body moving through a collider world by explicit steps. Every judgement is a
 * three-mesh-bvh query against the world's triangles (column.ts), with the margins rules.ts uses:
 * the footprint is grown by the side clearance, and a rise is climbed up to maxStepM + 1 mm.
 */
export class AgentBody {
  readonly footprint: Footprint;
  private current: Pose;
  private here: Contact | null = null;
  /** Height of the surface under the agent's centre where it stands (drops are measured from it). */
  private centreY: number;
  private clearanceHere: SideClearance;
  private readonly scan = new ColumnScan();
  private readonly surfaces: ReturnType<typeof blockingSurfaces>;
  private readonly floors: ReturnType<typeof blockingSurfaces>;

  private constructor(
    readonly world: ColliderWorld,
    readonly profile: AgentProfile,
    pose: Pose,
    margin?: number,
  ) {
    this.footprint = footprintOf(profile, margin);
    this.surfaces = blockingSurfaces(world, profile.canOpenDoors);
    this.floors = blockingSurfaces(world, true);
    this.current = { ...pose };
    this.centreY = pose.y;
    this.clearanceHere = { leftM: Infinity, rightM: Infinity, at: { x: pose.x, z: pose.z } };
  }

  /**
   * Set the agent down at a world point facing `yaw`: it rests on the highest support under its
   * footprint within 2 m below the point (a graph node sits 2 cm above its floor). `contact` says
   * what, if anything, already overlaps the body there.
   */
  static place(world: ColliderWorld, profile: AgentProfile, at: Vec3, yaw: number, margin?: number): AgentBody {
    const body = new AgentBody(world, profile, { x: at.x, y: at.y, z: at.z, yaw }, margin);
    const e = body.evaluate(at.x, at.z, yaw, at.y, PLACE_SEARCH_M, false);
    if (Number.isFinite(e.floor)) body.current.y = e.floor;
    body.centreY = e.centre ?? body.current.y;
    body.here = e.contact;
    body.clearanceHere = sideClearance(body.surfaces, body.footprint, body.current);
    return body;
  }

  get pose(): Pose {
    return { ...this.current };
  }

  /** What overlaps the body where it was placed (null when it stands free). */
  get contact(): Contact | null {
    return this.here;
  }

  /** Free space beside the body at its current pose. */
  get clearance(): SideClearance {
    return { ...this.clearanceHere, at: { ...this.clearanceHere.at } };
  }

  /**
   * Turn, then move `forward` along the new heading and `strafe` to its left, if the body fits
   * there: it climbs rises up to its step limit, follows the floor down (stopping before a drop of
   * more than 0.5 m under its centre), and is stopped by anything else inside its body. A blocked
   * step leaves the agent where it was and says what blocked it.
   */
  step(cmd: StepCommand): StepResult {
    const from = this.current;
    const yaw = from.yaw + cmd.turn;
    const s = Math.sin(yaw),
      c = Math.cos(yaw);
    const strafe = cmd.strafe ?? 0;
    const x = from.x + cmd.forward * s + strafe * c;
    const z = from.z + cmd.forward * c - strafe * s;
    const e = this.evaluate(x, z, yaw, from.y, DROP_STOP_M, true);
    if (e.contact)
      return { moved: false, pose: this.pose, contact: e.contact, stepHeightM: 0, clearanceM: minSide(this.clearanceHere), clearance: this.clearance };
    const stepHeightM = e.floor - from.y;
    this.current = { x, y: e.floor, z, yaw };
    this.centreY = e.centre ?? e.floor;
    this.here = null;
    this.clearanceHere = sideClearance(this.surfaces, this.footprint, this.current);
    return { moved: true, pose: this.pose, stepHeightM, clearanceM: minSide(this.clearanceHere), clearance: this.clearance };
  }

  /**
   * Whether the body fits at (x, z) facing yaw standing on a floor at `floorY` (no rise or drop
   * judged: a pose, not a move), without moving it. The planner asks this where its map is not sure.
   */
  fitsAt(x: number, z: number, yaw: number, floorY: number): boolean {
    return this.evaluate(x, z, yaw, floorY, DROP_STOP_M, false).contact === null;
  }

  /**
   * A body for `clearOfBand` alone, set down nowhere: placing one (the support search and the side
   * rays at the point) cost the planner ~10 ms for each pose space it made, at the world's origin.
   */
  static probe(world: ColliderWorld, profile: AgentProfile): AgentBody {
    return new AgentBody(world, profile, { x: 0, y: 0, z: 0, yaw: 0 });
  }

  /**
   * Whether nothing lies inside the body at (x, z) facing yaw between heights `bandLo` and `bandHi`
   * (world): the obstacle test of `evaluate` alone, for a caller that knows the support already
   * (the planner, from its terrain). Only the band is collected, so the floor's triangles are culled.
   */
  clearOfBand(x: number, z: number, yaw: number, bandLo: number, bandHi: number): boolean {
    const fp = this.footprint,
      scan = this.scan;
    let blocked = false;
    scan.run(this.surfaces, fp, x, z, yaw, bandLo, bandHi, (i) => (blocked = scan.hi[i]! > bandLo && scan.touchDistanceSq(i, fp, bandLo, bandHi) >= 0));
    return !blocked;
  }

  /** Whether the body would fit at (x, z) facing yaw from its current floor, without moving it. */
  test(x: number, z: number, yaw: number): { floor: number; contact: Contact | null } {
    const { floor, contact } = this.evaluate(x, z, yaw, this.current.y, DROP_STOP_M, true);
    return { floor, contact };
  }

  private evaluate(x: number, z: number, yaw: number, fromFloor: number, searchBelow: number, climbing: boolean): Evaluation {
    const fp = this.footprint,
      scan = this.scan;
    const top = fromFloor + fp.stepLimitM + BODY_GAP_M;
    const yMax = top + Math.max(fp.heightM, STEP_CLASS_M + 0.05);
    const s = Math.sin(yaw),
      c = Math.cos(yaw);
    const world = (u: number, y: number, v: number): Vec3 => ({ x: x + u * c + v * s, y, z: z - u * s + v * c });

    // Support: the highest level surface under the footprint that is no higher than a climbable
    // rise. Looked for just below the floor first — only a drop needs the deeper (twice as
    // costly: it reaches the slab's underside) search.
    let floor = -Infinity,
      support = -1;
    for (const below of searchBelow > SHALLOW_M ? [SHALLOW_M, searchBelow] : [searchBelow]) {
      scan.run(this.surfaces, fp, x, z, yaw, fromFloor - below - 0.01, yMax);
      for (let i = 0; i < scan.count; i++) {
        if (scan.door[i] || !scan.flat[i] || scan.hi[i]! > top) continue;
        if (scan.hi[i]! > floor) {
          floor = scan.hi[i]!;
          support = i;
        }
      }
      if (support >= 0) break;
    }
    if (support < 0) {
      return { floor, contact: { kind: 'drop', point: { x, y: fromFloor, z }, message: `No floor within ${searchBelow.toFixed(2)} m below the footprint` } };
    }

    // Obstacles: anything inside the body from just above the step limit to the agent's height.
    const bandLo = floor + fp.stepLimitM + BODY_GAP_M,
      bandHi = floor + fp.heightM;
    let door = false,
      nearest = -1,
      nearestD = Infinity,
      highest = -1;
    for (let i = 0; i < scan.count; i++) {
      if (scan.hi[i]! <= bandLo) continue;
      const d = scan.touchDistanceSq(i, fp, bandLo, bandHi);
      if (d < 0) continue;
      if (scan.door[i]) door = true;
      if (highest < 0 || scan.hi[i]! > scan.hi[highest]!) highest = i;
      // A door is reported at its part nearest the agent's axis.
      if (nearest < 0 || scan.door[i]! > scan.door[nearest]! || (scan.door[i] === scan.door[nearest] && d < nearestD)) {
        nearest = i;
        nearestD = d;
      }
    }
    if (nearest >= 0) {
      const at = { u: 0, y: 0, v: 0 };
      if (door) {
        scan.partCentre(nearest, fp, bandLo, bandHi, at);
        return { floor, contact: { kind: 'door', point: world(at.u, at.y, at.v), message: 'A closed door the agent cannot open' } };
      }
      // A wall if the body is blocked above step height too; reported at the nearest such part.
      const tallLo = floor + STEP_CLASS_M,
        tallHi = floor + Math.max(fp.heightM, STEP_CLASS_M + 0.05);
      let wall = -1,
        wallD = Infinity;
      for (let i = 0; i < scan.count; i++) {
        const d = scan.hi[i]! > tallLo ? scan.touchDistanceSq(i, fp, tallLo, tallHi) : -1;
        if (d >= 0 && d < wallD) {
          wall = i;
          wallD = d;
        }
      }
      if (wall >= 0) {
        // (For an agent lower than the step class the wall may pass above it: then the nearest obstacle.)
        scan.partCentre(wall, fp, bandLo, bandHi, at);
        if (scan.clipper.count === 0) scan.partCentre(nearest, fp, bandLo, bandHi, at);
        return { floor, contact: { kind: 'wall', point: world(at.u, at.y, at.v), message: 'A wall or furniture in the way' } };
      }
      const h = Math.min(scan.hi[highest]!, floor + STEP_CLASS_M) - floor;
      return { floor, contact: stepContact(world(scan.topU[highest]!, floor + h, scan.topV[highest]!), h, this.profile) };
    }

    // A rise above the limit that stayed under the body test (within BODY_GAP_M of the limit).
    const rise = floor - fromFloor;
    if (climbing && rise > fp.stepLimitM) {
      return { floor, contact: stepContact(world(scan.topU[support]!, floor, scan.topV[support]!), rise, this.profile) };
    }

    // The centre must not cross a drop it would fall down: compare the surface under it with the
    // one under it before this step. Stairs are a series of small drops and pass; a ledge or a
    // stairwell is one big one. (Against the highest support instead, a long body on a flight of
    // stairs would "hang" its centre several risers below its front.)
    const centre =
      floorBelow(this.floors, below.set(x, floor + BODY_GAP_M, z), floor - Math.min(this.centreY, floor) + DROP_STOP_M + 3, belowHit)?.point.y ?? null;
    if (climbing && (centre === null || this.centreY - centre > DROP_STOP_M)) {
      const depth = centre === null ? undefined : round3(this.centreY - centre);
      return {
        floor,
        centre,
        contact: {
          kind: 'drop',
          point: { x, y: this.centreY, z },
          ...(depth === undefined ? {} : { heightM: depth }),
          message:
            depth === undefined ? `No floor within ${(DROP_STOP_M + 3).toFixed(1)} m below` : `A drop of ${depth.toFixed(2)} m (more than ${DROP_STOP_M} m)`,
        },
      };
    }
    return { floor, centre, contact: null };
  }
}

/** Set an agent down on the floor under a world point (see AgentBody.place). */
export function place(world: ColliderWorld, profile: AgentProfile, at: Vec3, yaw: number, margin?: number): AgentBody {
  return AgentBody.place(world, profile, at, yaw, margin);
}

function stepContact(point: Vec3, height: number, profile: AgentProfile): Contact {
  const h = round3(height);
  // Worded by the rules' own NOTES, as every other explanation of a failed rule is.
  return { kind: 'step', point, heightM: h, message: NOTES.step(h, profile.maxStepM) };
}

const minSide = (c: SideClearance): number => Math.min(c.leftM, c.rightM);
const round3 = (v: number): number => Math.round(v * 1000) / 1000 + 0;
