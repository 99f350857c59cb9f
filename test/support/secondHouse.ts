import { soupToGlb } from '../../scenes/generate.ts';
import { houseMesh } from '../../src/core/sample/houseMesh.ts';
import { door, room, wall, type HouseSpec, type Rect } from '../../src/core/sample/houseSpec.ts';
import { buildHouseRelease, type SampleRelease } from '../../src/core/sample/sampleRelease.ts';
import { loadMesh, type LoadedMesh } from '../../src/engine/mesh/load.ts';

/**
 * A second generated house, built by the tests only (never written to scenes/): one storey with
 * doors, sills and a closed door unlike the sample house's, a ramp up to a raised den and a crawl
 * space into a store room. Same frame and conventions as the sample (houseSpec.ts): metres, Y up,
 * X east, Z south, wall centrelines on the plan; a flat roof over everything at 2.5–2.7 m.
 *
 *   z=0    +-----------------+-------------+===+-------+------------------+
 *          | Bedroom         | Study       |   | Store | Den, 14 cm up    |
 *          |                 |           crawl |       |                  |
 *   z=2.5  |                 |             |   |       +------+    +------+
 *          |                 |             |   |       |      |ramp|      |
 *   z=4.5  +-----0.85 s------+----1.00-----+---+-------+------+1.20+------+
 *          |                             Hall                             |
 *   z=7.5  +--------+--------0.72 s-----------+--------0.90 closed--------+
 *          | Pantry 1.00 s   Kitchen          | Workshop                  |
 *   z=10   +--------+-------------------------+---------------------------+
 *         x=0      2.5     4.5           8.0 8.5     10.5  12.15 13.35    15
 *
 * (s: a sill; the cabinet between study and store is 0.6 m deep, the crawl space runs through it.)
 *
 * Every clearance is at least 2 cm from an agent's limit (rules.ts: width + 4 cm ≤ clear width),
 * passable with 2 cm to spare or blocked by 2 cm or more, because the planner decides at 1–2 cm
 * plan resolution (engine/planner: 1 cm cells, 2 cm lattice): a case on the boundary would test
 * the lattice, not the house. Sills are at least 3 mm from a step limit (the wheelchair's 1.4 cm,
 * the sweeper's 2.1 cm, rules' 1 mm tolerance included): heights are read exactly from the
 * triangles, so millimetres decide them reliably.
 *
 *   passage                        HUMAN   WHEELCHAIR  HUMANOID  QUADRUPEDAL  SWEEPER   (needs width)
 *                                   0.64     0.74        0.94      0.54        0.44
 *   bedroom door 0.85, 1.7 cm sill   yes     step        narrow    yes         yes
 *   study door 1.00                  yes     yes         yes       yes         yes
 *   ramp 1.20 wide, 14 cm rise       yes     yes         yes       yes         yes
 *   kitchen door 0.72, 3 cm sill     yes     step        narrow    yes         step
 *   workshop door 0.90, closed       yes     yes         narrow    door        door
 *   pantry door 1.00, 10 cm sill     yes     step        yes       yes         step
 *   crawl space 0.60 × 0.35 m high   narrow  narrow      narrow    narrow      yes
 */

const EXT = 0.15;
const INT = 0.12;
/** The built-in cabinet between study and store: the crawl space runs through its depth. */
const CABINET = 0.6;
const DEN_LEVEL_M = 0.14;

const FOOTPRINT: Rect = { x0: -0.075, x1: 15.075, z0: -0.075, z1: 10.075 };
/** The den's raised floor, wall face to wall face, and the ramp up to it from the hall. */
const DEN: Rect = { x0: 10.56, x1: 14.925, z0: 0.075, z1: 2.44 };
const RAMP: Rect = { x0: 12.15, x1: 13.35, z0: 2.44, z1: 4.44 };

export const SECOND_HOUSE: HouseSpec = {
  storeyHeightM: 2.8,
  wallHeightM: 2.5,
  floors: [{ index: 0, heightM: 0 }],
  slabs: [
    { floor: 0, outline: FOOTPRINT, topY: 0, bottomY: -0.2, holes: [DEN, RAMP] },
    { floor: 0, outline: DEN, topY: DEN_LEVEL_M, bottomY: -0.2, holes: [] },
    { floor: 0, outline: FOOTPRINT, topY: 2.7, bottomY: 2.5, holes: [] },
  ],
  walls: [
    wall('north', 0, 'x', 0, -0.075, 15.075, EXT),
    wall('south', 0, 'x', 10, -0.075, 15.075, EXT),
    wall('west', 0, 'z', 0, 0.075, 9.925, EXT),
    wall('east', 0, 'z', 15, 0.075, 9.925, EXT),
    wall('hall-north', 0, 'x', 4.5, 0.075, 14.925, INT, [
      door('bedroom-door', 2.25, 0.85, { sillHeightM: 0.017 }),
      door('study-door', 6.5, 1.0),
      door('ramp-foot', 12.75, 1.2),
    ]),
    wall('hall-south', 0, 'x', 7.5, 0.075, 14.925, INT, [
      door('kitchen-door', 5.25, 0.72, { sillHeightM: 0.03 }),
      door('workshop-door', 10.5, 0.9, { closedDoor: true }),
    ]),
    wall('bedroom-study', 0, 'z', 4.5, 0.075, 4.44, INT),
    wall('cabinet', 0, 'z', 8.5, 0.075, 4.44, CABINET, [door('crawl', 2.25, 0.6, { headM: 0.35 })]),
    wall('store-den', 0, 'z', 10.5, 0.075, 4.44, INT),
    // The den's south wall, open over the ramp's top.
    wall('den-south', 0, 'x', 2.5, 10.56, 14.925, INT, [door('ramp-top', 12.75, 1.2)]),
    // Along the ramp: it is walled on both sides, so it is the only way up (no step beside it).
    wall('ramp-west', 0, 'z', 12.09, 2.56, 4.44, INT),
    wall('ramp-east', 0, 'z', 13.41, 2.56, 4.44, INT),
    wall('pantry-kitchen', 0, 'z', 2.5, 7.56, 9.925, INT, [door('pantry-door', 8.75, 1.0, { sillHeightM: 0.1 })]),
    wall('kitchen-workshop', 0, 'z', 8.0, 7.56, 9.925, INT),
  ],
  rooms: [
    room('hall', 'Hall', 0, 7.5, 6.0, 'The hub: every room but the pantry and the store opens off it.'),
    room('bedroom', 'Bedroom', 0, 2.25, 2.25, 'Behind a 0.85 m door with a 1.7 cm threshold.'),
    room('study', 'Study', 0, 6.5, 2.25, 'Through a 1.00 m door; a crawl space under the built-in cabinet leads to the store.'),
    room('store', 'Store room', 0, 9.62, 2.25, 'Reached only through the 0.35 m high crawl space from the study.'),
    { ...room('den', 'Den', 0, 12.75, 1.25, 'A raised room, 14 cm up a 1.20 m wide ramp from the hall.'), levelM: DEN_LEVEL_M },
    room('kitchen', 'Kitchen', 0, 5.25, 8.75, 'Through a 0.72 m door with a 3 cm threshold; the pantry opens off it.'),
    room('pantry', 'Pantry', 0, 1.26, 8.75, 'Behind a 1.00 m door with a 10 cm threshold, off the kitchen.'),
    room('workshop', 'Workshop', 0, 11.5, 8.75, 'Behind a closed 0.90 m door.'),
  ],
  connections: [
    { from: 'hall', to: 'bedroom', passage: { kind: 'doorway', opening: 'bedroom-door' } },
    { from: 'hall', to: 'study', passage: { kind: 'doorway', opening: 'study-door' } },
    { from: 'hall', to: 'den', passage: { kind: 'ramp', ramp: 'den-ramp' } },
    { from: 'hall', to: 'kitchen', passage: { kind: 'doorway', opening: 'kitchen-door' } },
    { from: 'hall', to: 'workshop', passage: { kind: 'doorway', opening: 'workshop-door' } },
    { from: 'kitchen', to: 'pantry', passage: { kind: 'doorway', opening: 'pantry-door' } },
    { from: 'study', to: 'store', passage: { kind: 'crawl', opening: 'crawl' } },
  ],
  // 14 cm over 2 m: 1:14, gentler than the 1:12 the rules assume every agent climbs.
  ramps: [{ id: 'den-ramp', floor: 0, clear: RAMP, run: 'z', dir: -1, riseM: DEN_LEVEL_M, widthM: 1.2, openings: ['ramp-foot', 'ramp-top'] }],
};

export const SECOND_SCENE_ID = 'second-house';

/** The second house's release: graph, ground-truth labels by the rules, obstacle records (no questions). */
export function secondHouseRelease(): SampleRelease {
  return buildHouseRelease(SECOND_HOUSE, { sceneId: SECOND_SCENE_ID, questions: [] });
}

/** The second house as a loaded scan: its triangles written to a GLB and read back as a user's file is. */
export async function loadSecondHouse(): Promise<LoadedMesh> {
  const bytes = await soupToGlb(houseMesh(SECOND_HOUSE));
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return loadMesh({ files: [{ name: 'second-house.glb', data }] }, { upAxis: 'y', unitScale: 1 });
}
