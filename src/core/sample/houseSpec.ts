/**
 * The bundled sample house as declarative data: a two-storey home whose every graph edge passes
 * exactly one obstacle (a doorway, the straight 0.8 m corridor, the L-shaped corner, the stairs or
 * the lift), so each agent's traversability follows from the geometry (see ../rules.ts).
 *
 * Frame: metres, Y up (glTF). The ground floor's walking surface is y = 0, the upper floor's
 * y = 2.8. X runs east, Z runs south; the footprint is x ∈ [-0.075, 15.075], z ∈ [-0.075, 10.075]
 * (exterior wall centrelines on x = 0 / 15 and z = 0 / 10). The upper storey covers only the
 * western part (x ≤ 9, and x ≤ 5.6 south of z = 6.4); the rest of the ground floor has a flat roof.
 *
 * Plan of the ground floor (the upper floor has the landing above the bathroom, the upper hall
 * above the entrance hall, the upper lift lobby and cabin above theirs, bedroom 1 above the study
 * and bedroom 2 above the stair foot):
 *
 *   z=0    +--------+------+-----------+--------------------------------+
 *          |Bathroom| cabin| Study     | Utility room                   |
 *          |        +------+           |                                |
 *          |        | Lift |           |              +-----------------+
 *          |        | lobby|           |              |  leg B  <-- corner
 *   z=3.4  +s+------+------+           +--------------+---------------+ |
 *          |t|   Entrance hall         |  Back hall                   |A|
 *          |a|                +--------+                              | |
 *          |i|                 corridor 0.8 m                         | |
 *   z=6.4  +r+------------+-----------------------------------------------+
 *          | Stair foot   :  Living room      | Kitchen                   |
 *   z=10   +--------------+-------------------+---------------------------+
 *         x=0            3.8                 9.0                          15
 *
 * Walls abut rather than overlap, so no two coplanar faces fight in the renderer: every wall's
 * `from`/`to` is the face of the wall it meets.
 */

export type Axis = 'x' | 'z';
export interface Vec2 {
  x: number;
  z: number;
}
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}
/** An axis-aligned rectangle on the plan. */
export interface Rect {
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}

export interface OpeningSpec {
  id: string;
  /** Centre along the wall's run axis. */
  centre: number;
  /** Distance between the jambs. */
  clearWidthM: number;
  /** Top of the opening above the storey's floor; a lintel closes the wall above it. */
  headM: number;
  /** A raised strip across the doorway, 0.1 m deep, this high above the floor. */
  sillHeightM?: number;
  /** A closed hinged door leaf fills the opening. */
  closedDoor?: boolean;
}

export interface WallSpec {
  id: string;
  floor: number;
  /** The axis the wall runs along. */
  run: Axis;
  /** Centreline coordinate on the other horizontal axis. */
  at: number;
  /** Extent along the run axis, face to face. */
  from: number;
  to: number;
  thicknessM: number;
  openings: OpeningSpec[];
}

export interface RoomSpec {
  key: string;
  name: string;
  floor: number;
  /** Where the graph node stands: the middle of the room, well away from walls. */
  centre: Vec2;
  description: string;
  /** A raised area's floor above its storey's floor (its own slab, reached by a ramp); 0 when absent. */
  levelM?: number;
}

/** A straight flight: risers across `across`, climbing along `run` in direction `dir`. */
export interface StairSpec {
  run: Axis;
  dir: 1 | -1;
  /** Run coordinate of the first (lowest) riser. */
  firstRiserAt: number;
  across: [number, number];
  risers: number;
  riserM: number;
  goingM: number;
  fromFloor: number;
  toFloor: number;
}

export interface LiftSpec {
  /** Cabin floor: level with the storey's floor at every stop. */
  cabin: Rect;
  /** The cabin doorway at each stop, by opening id. */
  doors: string[];
  floors: number[];
}

/** A straight passage between two walls; `clear` runs from the face of one room's wall to the other's. */
export interface CorridorSpec {
  clear: Rect;
  run: Axis;
  widthM: number;
}

/** Two corridor legs meeting at a right angle; leg A opens into one room, leg B into the other. */
export interface CornerSpec {
  legA: CorridorSpec;
  square: Rect;
  legB: CorridorSpec;
}

/**
 * A ramp: the sloped walking surface over `clear`, rising `riseM` from the storey's floor along
 * `run` in direction `dir` (its low end on the storey's floor, its high end level with a raised
 * area's slab), laid as a solid of constant thickness in a hole of the storey's slab.
 */
export interface RampSpec {
  id: string;
  floor: number;
  clear: Rect;
  run: Axis;
  dir: 1 | -1;
  riseM: number;
  /** Clear width between the walls (or kerbs) along it. */
  widthM: number;
  /** The openings at its mouths: their widths bound the passage too. */
  openings: string[];
}

export type PassageSpec =
  | { kind: 'doorway' | 'open'; opening: string }
  /** A low opening (its head well below a door's) in a wall as deep as the passage: a crawl space. */
  | { kind: 'crawl'; opening: string }
  | { kind: 'corridor' }
  | { kind: 'corner' }
  | { kind: 'stairs' }
  | { kind: 'lift' }
  | { kind: 'ramp'; ramp: string };

export interface ConnectionSpec {
  from: string;
  to: string;
  passage: PassageSpec;
}

export interface SlabSpec {
  floor: number;
  outline: Rect;
  topY: number;
  bottomY: number;
  /** Cut-outs: the stairwell, and the lift cabin (whose own floor plate fills it). */
  holes: Rect[];
}

export interface HouseSpec {
  storeyHeightM: number;
  wallHeightM: number;
  floors: { index: number; heightM: number }[];
  slabs: SlabSpec[];
  walls: WallSpec[];
  rooms: RoomSpec[];
  connections: ConnectionSpec[];
  /** The house's one staircase, lift, narrow corridor and L-shaped corner, where it has them. */
  stairs?: StairSpec;
  lift?: LiftSpec;
  corridor?: CorridorSpec;
  corner?: CornerSpec;
  ramps?: RampSpec[];
}

/** The sample house has every one of them. */
export type SampleHouseSpec = HouseSpec & Required<Pick<HouseSpec, 'stairs' | 'lift' | 'corridor' | 'corner'>>;

const EXT = 0.15; // exterior walls
const INT = 0.12; // interior walls
const DOOR_HEAD = 2.1;

/** Spec builders, for this house and others built the same way (the tests' second house). */
export const wall = (
  id: string,
  floor: number,
  run: Axis,
  at: number,
  from: number,
  to: number,
  thicknessM: number,
  openings: OpeningSpec[] = [],
): WallSpec => ({ id, floor, run, at, from, to, thicknessM, openings });
export const door = (id: string, centre: number, clearWidthM: number, more: Partial<OpeningSpec> = {}): OpeningSpec => ({
  id,
  centre,
  clearWidthM,
  headM: DOOR_HEAD,
  ...more,
});

const FOOTPRINT: Rect = { x0: -0.075, x1: 15.075, z0: -0.075, z1: 10.075 };
const STAIRWELL: Rect = { x0: 0.075, x1: 1.075, z0: 2.59, z1: 6.34 };
const CABIN: Rect = { x0: 4.14, x1: 5.54, z0: 0.075, z1: 1.475 };

const GROUND_WALLS: WallSpec[] = [
  wall('g-north', 0, 'x', 0, -0.075, 15.075, EXT),
  wall('g-south', 0, 'x', 10, -0.075, 15.075, EXT),
  wall('g-west', 0, 'z', 0, 0.075, 9.925, EXT),
  wall('g-east', 0, 'z', 15, 0.075, 9.925, EXT),
  // East side of the stairs; the stairs' own solid closes its top end towards the bathroom.
  wall('g-stair-east', 0, 'z', 1.135, 2.59, 6.34, INT),
  // One long wall from the stair mouth to leg A of the corner: hall, corridor and back hall to the north,
  // stair foot, living room and kitchen to the south. Leg A's mouth is the gap east of it.
  wall('g-z6.4', 0, 'x', 6.4, 1.075, 14.125, INT, [door('hall-living', 4.7, 1.2)]),
  wall('g-hall-north', 0, 'x', 3.4, 1.195, 5.54, INT, [door('hall-bathroom', 2.4, 0.8, { closedDoor: true }), door('hall-lift-lobby', 4.5, 1.2)]),
  wall('g-back-hall-north', 0, 'x', 3.4, 9.06, 14.125, INT),
  wall('g-study-west', 0, 'z', 5.6, 0.075, 5.54, INT),
  wall('g-study-east', 0, 'z', 9.0, 0.075, 5.54, INT, [door('back-hall-study', 4.3, 0.8, { sillHeightM: 0.02 })]),
  wall('g-corridor-north', 0, 'x', 5.48, 5.66, 8.94, INT),
  wall('g-living-east', 0, 'z', 9.0, 6.46, 9.925, INT, [door('living-kitchen', 8.2, 0.9, { sillHeightM: 0.01 })]),
  wall('g-living-west', 0, 'z', 3.8, 6.46, 9.925, INT, [door('living-stair-foot', 8.2, 2.0)]),
  wall('g-leg-a-inner', 0, 'z', 14.065, 3.46, 6.34, INT),
  wall('g-leg-b-outer', 0, 'x', 2.48, 11.54, 14.925, INT),
  wall('g-bath-lobby', 0, 'z', 3.4, 1.595, 3.34, INT),
  wall('g-lift-front', 0, 'x', 1.535, 3.34, 5.54, INT, [door('lift-door-ground', 4.84, 1.1)]),
  wall('g-shaft-west', 0, 'z', 4.08, 0.075, 1.475, INT),
];

const UPPER_WALLS: WallSpec[] = [
  wall('u-north', 1, 'x', 0, -0.075, 9.075, EXT),
  wall('u-west', 1, 'z', 0, 0.075, 9.925, EXT),
  wall('u-south', 1, 'x', 10, -0.075, 5.675, EXT),
  wall('u-east', 1, 'z', 9.0, 0.075, 6.325, EXT),
  wall('u-bedroom1-south', 1, 'x', 6.4, 5.525, 9.075, EXT),
  wall('u-bedroom2-east', 1, 'z', 5.6, 6.475, 9.925, EXT),
  // Closes the stairwell's lower end as well as the upper hall's south side.
  wall('u-z6.4', 1, 'x', 6.4, 0.075, 5.525, INT, [door('upper-hall-bedroom2', 3.4, 1.2, { sillHeightM: 0.05 })]),
  wall('u-stair-east', 1, 'z', 1.135, 2.59, 6.34, INT),
  wall('u-hall-east', 1, 'z', 5.6, 0.075, 6.34, INT, [door('upper-hall-bedroom1', 4.9, 0.7)]),
  wall('u-hall-north', 1, 'x', 3.4, 1.195, 5.54, INT, [door('landing-upper-hall', 2.3, 1.8), door('upper-lift-lobby-hall', 4.5, 1.2)]),
  wall('u-landing-lobby', 1, 'z', 3.4, 1.595, 3.34, INT),
  wall('u-lift-front', 1, 'x', 1.535, 3.34, 5.54, INT, [door('lift-door-upper', 4.84, 1.1)]),
  wall('u-shaft-west', 1, 'z', 4.08, 0.075, 1.475, INT),
];

export const room = (key: string, name: string, floor: number, x: number, z: number, description: string): RoomSpec => ({
  key,
  name,
  floor,
  centre: { x, z },
  description,
});

const ROOMS: RoomSpec[] = [
  room(
    'hall',
    'Entrance hall',
    0,
    3.37,
    4.9,
    'Ground floor hub: doors to the living room, the lift lobby and the bathroom (kept closed), and the narrow corridor to the back hall.',
  ),
  room('living', 'Living room', 0, 6.4, 8.19, 'Ground floor. Open to the stair foot; a door with a low threshold leads to the kitchen.'),
  room('kitchen', 'Kitchen', 0, 12.0, 8.19, 'Ground floor. An L-shaped passage in its north-east corner leads round a tight corner to the utility room.'),
  room('utility', 'Utility room', 0, 11.2, 1.4, 'Ground floor, reached only through the L-shaped passage from the kitchen.'),
  room('back-hall', 'Back hall', 0, 11.53, 4.9, 'Ground floor, at the end of the narrow corridor from the entrance hall; the study door has a threshold.'),
  room('study', 'Study', 0, 7.3, 2.75, 'Ground floor, entered from the back hall over a 2 cm threshold.'),
  room('bathroom', 'Bathroom', 0, 1.7, 1.3, 'Ground floor, behind a closed hinged door off the entrance hall.'),
  room('stair-foot', 'Stair foot', 0, 1.9, 8.19, 'Ground floor, open to the living room; the straight staircase rises north from here.'),
  room('lift-lobby', 'Lift lobby', 0, 4.5, 2.47, 'Ground floor, in front of the lift.'),
  room('landing', 'Landing', 1, 1.7, 1.3, 'Upper floor, at the top of the stairs; open to the upper hall.'),
  room('upper-hall', 'Upper hall', 1, 3.37, 4.9, 'Upper floor hub: the landing, the upper lift lobby and both bedrooms.'),
  room('upper-lift-lobby', 'Upper lift lobby', 1, 4.5, 2.47, 'Upper floor, in front of the lift.'),
  room('bedroom1', 'Bedroom 1', 1, 7.29, 3.2, 'Upper floor, behind the narrowest door of the house (0.70 m).'),
  room('bedroom2', 'Bedroom 2', 1, 2.8, 8.19, 'Upper floor, through a wide door with a 5 cm threshold.'),
];

const CONNECTIONS: ConnectionSpec[] = [
  { from: 'hall', to: 'living', passage: { kind: 'doorway', opening: 'hall-living' } },
  { from: 'living', to: 'kitchen', passage: { kind: 'doorway', opening: 'living-kitchen' } },
  { from: 'kitchen', to: 'utility', passage: { kind: 'corner' } },
  { from: 'hall', to: 'back-hall', passage: { kind: 'corridor' } },
  { from: 'back-hall', to: 'study', passage: { kind: 'doorway', opening: 'back-hall-study' } },
  { from: 'hall', to: 'bathroom', passage: { kind: 'doorway', opening: 'hall-bathroom' } },
  { from: 'living', to: 'stair-foot', passage: { kind: 'open', opening: 'living-stair-foot' } },
  { from: 'hall', to: 'lift-lobby', passage: { kind: 'doorway', opening: 'hall-lift-lobby' } },
  { from: 'stair-foot', to: 'landing', passage: { kind: 'stairs' } },
  { from: 'lift-lobby', to: 'upper-lift-lobby', passage: { kind: 'lift' } },
  { from: 'landing', to: 'upper-hall', passage: { kind: 'open', opening: 'landing-upper-hall' } },
  { from: 'upper-lift-lobby', to: 'upper-hall', passage: { kind: 'doorway', opening: 'upper-lift-lobby-hall' } },
  { from: 'upper-hall', to: 'bedroom1', passage: { kind: 'doorway', opening: 'upper-hall-bedroom1' } },
  { from: 'upper-hall', to: 'bedroom2', passage: { kind: 'doorway', opening: 'upper-hall-bedroom2' } },
];

export const SAMPLE_HOUSE: SampleHouseSpec = {
  storeyHeightM: 2.8,
  wallHeightM: 2.5,
  floors: [
    { index: 0, heightM: 0 },
    { index: 1, heightM: 2.8 },
  ],
  slabs: [
    { floor: 0, outline: FOOTPRINT, topY: 0, bottomY: -0.2, holes: [CABIN] },
    // Spans the whole footprint: the upper storey's floor and the flat roof of the single-storey part.
    { floor: 1, outline: FOOTPRINT, topY: 2.8, bottomY: 2.5, holes: [STAIRWELL, CABIN] },
  ],
  walls: [...GROUND_WALLS, ...UPPER_WALLS],
  rooms: ROOMS,
  connections: CONNECTIONS,
  // 16 risers of 0.175 m make the 2.8 m storey; 15 treads of 0.25 m, the 16th riser is the slab edge.
  stairs: { run: 'z', dir: -1, firstRiserAt: 6.34, across: [0.075, 1.075], risers: 16, riserM: 0.175, goingM: 0.25, fromFloor: 0, toFloor: 1 },
  lift: { cabin: CABIN, doors: ['lift-door-ground', 'lift-door-upper'], floors: [0, 1] },
  corridor: { clear: { x0: 5.54, x1: 9.06, z0: 5.54, z1: 6.34 }, run: 'x', widthM: 0.8 },
  corner: {
    legA: { clear: { x0: 14.125, x1: 14.925, z0: 3.34, z1: 6.46 }, run: 'z', widthM: 0.8 },
    square: { x0: 14.125, x1: 14.925, z0: 2.54, z1: 3.34 },
    legB: { clear: { x0: 11.54, x1: 14.125, z0: 2.54, z1: 3.34 }, run: 'x', widthM: 0.8 },
  },
};

/** Floor height (walking surface) of a storey. */
export function floorHeight(spec: HouseSpec, floor: number): number {
  const f = spec.floors.find((s) => s.index === floor);
  if (!f) throw new Error(`the house has no floor ${floor}`);
  return f.heightM;
}

export function roomByKey(spec: HouseSpec, key: string): RoomSpec {
  const r = spec.rooms.find((room) => room.key === key);
  if (!r) throw new Error(`the house has no room "${key}"`);
  return r;
}

/** The opening with this id and the wall that holds it. */
export function findOpening(spec: HouseSpec, id: string): { wall: WallSpec; opening: OpeningSpec } {
  for (const w of spec.walls) {
    const opening = w.openings.find((o) => o.id === id);
    if (opening) return { wall: w, opening };
  }
  throw new Error(`the house has no opening "${id}"`);
}

/** Centre of an opening on its wall's centreline, at the storey's floor height. */
export function openingCentre(spec: HouseSpec, wall: WallSpec, opening: OpeningSpec): Vec3 {
  const y = floorHeight(spec, wall.floor);
  return wall.run === 'x' ? { x: opening.centre, y, z: wall.at } : { x: wall.at, y, z: opening.centre };
}

/** Position of a room's graph node: its centre, 2 cm above the floor (a raised area's floor, where it is one). */
export function nodePosition(spec: HouseSpec, room: RoomSpec): Vec3 {
  return { x: room.centre.x, y: round3(floorHeight(spec, room.floor) + (room.levelM ?? 0) + 0.02), z: room.centre.z };
}

/** The house's part of this kind, or an error naming what the connection needs. */
export function required<T>(part: T | undefined, what: string): T {
  if (part === undefined) throw new Error(`the house has no ${what}`);
  return part;
}

export function rampById(spec: HouseSpec, id: string): RampSpec {
  const r = spec.ramps?.find((ramp) => ramp.id === id);
  if (!r) throw new Error(`the house has no ramp "${id}"`);
  return r;
}

/** Rounded to the millimetre, so sums such as 2.8 + 0.02 print as 2.82 in the JSON files. */
export function round3(v: number): number {
  return Math.round(v * 1000) / 1000 + 0;
}
