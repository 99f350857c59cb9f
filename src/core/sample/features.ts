import type { PassageFeature } from '../rules.ts';
import {
  findOpening,
  floorHeight,
  openingCentre,
  rampById,
  required,
  roomByKey,
  round3,
  type ConnectionSpec,
  type HouseSpec,
  type Rect,
  type Vec2,
} from './houseSpec.ts';

/**
 * features.json: the richer per-edge obstacle record written beside the release files.
 *
 * {
 *   scene: "sample-house",
 *   storeyHeight: 2.8,
 *   edges: {
 *     "<a|b, a < b in string order>": {
 *       kind: "doorway" | "corridor" | "corner" | "stairs" | "lift" | "open" | "ramp" | "crawl",
 *       clearWidthM?: number,        // between jambs / corridor walls / stair sides / lift door jambs
 *       sillHeightM?: number,        // top of the raised strip above the floor
 *       closedDoor?: boolean,        // a closed hinged leaf fills the doorway
 *       cornerWidthsM?: [a, b],      // widths of the corner's two legs
 *       riserM?: number, risers?: number,
 *       riseM?: number, runM?: number, // a ramp's rise and its length on the plan
 *       clearHeightM?: number,       // a crawl space's free height, floor (or sill top) to its lintel
 *       at: { x, y, z },             // the obstacle's centre in the mesh frame: a doorway's centre on its
 *                                    // wall's centreline at floor height; a corridor's or the corner
 *                                    // square's centre at floor height; the flight's or the cabin's
 *                                    // centre half-way between the storeys; a ramp's centre half-way up
 *       direction?: { x, z }         // passage axis on the plan, from the edge's `from` towards its `to`
 *     }
 *   },
 *   floors: [{ index, heightM }]
 * }
 */
export interface SampleFeatures {
  scene: string;
  storeyHeight: number;
  edges: Record<string, PassageFeature>;
  floors: { index: number; heightM: number }[];
}

const centreOf = (r: Rect): Vec2 => ({ x: round3((r.x0 + r.x1) / 2), z: round3((r.z0 + r.z1) / 2) });

/** Unit axis on the plan pointing from `a` towards `b` along `run` ('x' or 'z'). */
function axisTowards(run: 'x' | 'z', a: Vec2, b: Vec2): { x: number; z: number } {
  const d = run === 'x' ? Math.sign(b.x - a.x) : Math.sign(b.z - a.z);
  return run === 'x' ? { x: d, z: 0 } : { x: 0, z: d };
}

/** The obstacle of one connection, measured from the spec's geometry. */
export function passageFeature(spec: HouseSpec, c: ConnectionSpec): PassageFeature {
  const from = roomByKey(spec, c.from),
    to = roomByKey(spec, c.to);
  const p = c.passage;
  switch (p.kind) {
    case 'doorway':
    case 'open': {
      const { wall, opening } = findOpening(spec, p.opening);
      // Keys in the documented order, so features.json reads the same for every edge.
      return {
        kind: p.kind,
        clearWidthM: opening.clearWidthM,
        ...(opening.sillHeightM !== undefined ? { sillHeightM: opening.sillHeightM } : {}),
        ...(opening.closedDoor ? { closedDoor: true } : {}),
        at: openingCentre(spec, wall, opening),
        // A wall running along x is crossed along z, and vice versa.
        direction: axisTowards(wall.run === 'x' ? 'z' : 'x', from.centre, to.centre),
      };
    }
    case 'crawl': {
      const { wall, opening } = findOpening(spec, p.opening);
      const sill = opening.sillHeightM ?? 0;
      return {
        kind: 'crawl',
        clearWidthM: opening.clearWidthM,
        ...(opening.sillHeightM !== undefined ? { sillHeightM: opening.sillHeightM } : {}),
        clearHeightM: round3(opening.headM - sill),
        at: openingCentre(spec, wall, opening),
        direction: axisTowards(wall.run === 'x' ? 'z' : 'x', from.centre, to.centre),
      };
    }
    case 'ramp': {
      const ramp = rampById(spec, p.ramp);
      const mid = centreOf(ramp.clear);
      const runM = ramp.run === 'x' ? ramp.clear.x1 - ramp.clear.x0 : ramp.clear.z1 - ramp.clear.z0;
      const mouths = ramp.openings.map((id) => findOpening(spec, id).opening.clearWidthM);
      return {
        kind: 'ramp',
        clearWidthM: Math.min(ramp.widthM, ...mouths),
        riseM: ramp.riseM,
        runM: round3(runM),
        at: { x: mid.x, y: round3(floorHeight(spec, ramp.floor) + ramp.riseM / 2), z: mid.z },
        direction: axisTowards(ramp.run, from.centre, to.centre),
      };
    }
    case 'corridor': {
      const { clear, run, widthM } = required(spec.corridor, 'corridor');
      const mid = centreOf(clear);
      return {
        kind: 'corridor',
        clearWidthM: widthM,
        at: { x: mid.x, y: floorHeight(spec, from.floor), z: mid.z },
        direction: axisTowards(run, from.centre, to.centre),
      };
    }
    case 'corner': {
      const { legA, legB, square } = required(spec.corner, 'corner');
      const mid = centreOf(square);
      return {
        kind: 'corner',
        clearWidthM: Math.min(legA.widthM, legB.widthM),
        cornerWidthsM: [legA.widthM, legB.widthM],
        at: { x: mid.x, y: floorHeight(spec, from.floor), z: mid.z },
      };
    }
    case 'stairs': {
      const s = required(spec.stairs, 'staircase');
      const lastRiserAt = s.firstRiserAt + s.dir * (s.risers - 1) * s.goingM;
      const runMid = round3((s.firstRiserAt + lastRiserAt) / 2),
        acrossMid = round3((s.across[0] + s.across[1]) / 2);
      const y = round3((floorHeight(spec, s.fromFloor) + floorHeight(spec, s.toFloor)) / 2);
      const at = s.run === 'z' ? { x: acrossMid, y, z: runMid } : { x: runMid, y, z: acrossMid };
      const up = s.run === 'z' ? { x: 0, z: s.dir } : { x: s.dir, z: 0 };
      // From the edge's `from` towards its `to`: up the flight when `from` is the lower end.
      const direction = from.floor <= to.floor ? up : { x: -up.x + 0, z: -up.z + 0 };
      return { kind: 'stairs', clearWidthM: round3(s.across[1] - s.across[0]), riserM: s.riserM, risers: s.risers, at, direction };
    }
    case 'lift': {
      const lift = required(spec.lift, 'lift');
      const { wall, opening } = findOpening(spec, lift.doors[0]!);
      const mid = centreOf(lift.cabin);
      const floors = lift.floors.map((f) => floorHeight(spec, f));
      const y = round3((Math.min(...floors) + Math.max(...floors)) / 2);
      const door = openingCentre(spec, wall, opening);
      // Into the cabin through its door, as seen from the lobby.
      const run = wall.run === 'x' ? 'z' : 'x';
      return { kind: 'lift', clearWidthM: opening.clearWidthM, at: { x: mid.x, y, z: mid.z }, direction: axisTowards(run, { x: door.x, z: door.z }, mid) };
    }
  }
}
