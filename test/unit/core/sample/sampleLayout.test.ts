import { BufferAttribute, BufferGeometry, FrontSide, Ray, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { describe, expect, it } from 'vitest';
import { houseMesh } from '../../../../src/core/sample/houseMesh.ts';
import { findOpening, floorHeight, roomByKey, SAMPLE_HOUSE, type ConnectionSpec, type Vec2 } from '../../../../src/core/sample/houseSpec.ts';

// Does the house's geometry really have the graph's shape? Walk each storey on a 10 cm grid the
// way a small robot would — a step is allowed where there is floor at the storey's height and no
// surface in the way at ankle or chest height — with every doorway and passage mouth barred.
// Then each room holds exactly one node (no room is reachable round a doorway), and each barred
// gate, opened, joins exactly the two rooms of its edge.
const spec = SAMPLE_HOUSE;
const soup = houseMesh(spec);
const geometry = new BufferGeometry();
geometry.setAttribute('position', new BufferAttribute(soup.positions, 3));
geometry.setIndex(new BufferAttribute(soup.indices.slice(), 1));
const bvh = new MeshBVH(geometry);
const cast = (o: Vector3, d: Vector3, far: number) => bvh.raycastFirst(new Ray(o, d), FrontSide, 0, far);

const STEP = 0.1;
// Offset so that no cell centre lies on a wall's centreline (where the gates are).
const X0 = -0.0125,
  Z0 = -0.0125,
  NX = 152,
  NZ = 102;
const cellAt = (p: Vec2) => ({ i: Math.round((p.x - X0) / STEP), j: Math.round((p.z - Z0) / STEP) });
const centreOf = (i: number, j: number): Vec2 => ({ x: X0 + i * STEP, z: Z0 + j * STEP });

interface Gate {
  a: Vec2;
  b: Vec2;
  connection: ConnectionSpec;
  sides: [Vec2, Vec2];
}

/** Where each same-storey passage is barred: across a doorway on its wall's centreline, across a corridor's mouth. */
function gateOf(c: ConnectionSpec): Gate | null {
  const p = c.passage;
  if (p.kind === 'doorway' || p.kind === 'open') {
    const { wall, opening } = findOpening(spec, p.opening);
    const lo = opening.centre - opening.clearWidthM / 2 - 0.1,
      hi = opening.centre + opening.clearWidthM / 2 + 0.1;
    const off = wall.thicknessM / 2 + 0.25;
    return wall.run === 'x'
      ? {
          a: { x: lo, z: wall.at },
          b: { x: hi, z: wall.at },
          connection: c,
          sides: [
            { x: opening.centre, z: wall.at - off },
            { x: opening.centre, z: wall.at + off },
          ],
        }
      : {
          a: { x: wall.at, z: lo },
          b: { x: wall.at, z: hi },
          connection: c,
          sides: [
            { x: wall.at - off, z: opening.centre },
            { x: wall.at + off, z: opening.centre },
          ],
        };
  }
  if (p.kind === 'corridor') {
    // barred at its mouth into the hall (x = 5.6)
    const { clear } = spec.corridor;
    return {
      a: { x: 5.6, z: clear.z0 - 0.1 },
      b: { x: 5.6, z: clear.z1 + 0.1 },
      connection: c,
      sides: [
        { x: 5.3, z: 5.94 },
        { x: 5.9, z: 5.94 },
      ],
    };
  }
  if (p.kind === 'corner') {
    // barred at leg A's mouth into the kitchen (z = 6.4)
    const { clear } = spec.corner.legA;
    return {
      a: { x: clear.x0 - 0.1, z: 6.4 },
      b: { x: clear.x1 + 0.1, z: 6.4 },
      connection: c,
      sides: [
        { x: 14.525, z: 6.1 },
        { x: 14.525, z: 6.7 },
      ],
    };
  }
  return null; // stairs and lift join storeys, not rooms of one storey
}

/** Whether the step from p to q (axis-aligned, one cell) crosses the gate. */
function crosses(p: Vec2, q: Vec2, g: Gate): boolean {
  if (g.a.z === g.b.z) return p.x === q.x && p.x > g.a.x && p.x < g.b.x && (p.z - g.a.z) * (q.z - g.a.z) < 0;
  return p.z === q.z && p.z > g.a.z && p.z < g.b.z && (p.x - g.a.x) * (q.x - g.a.x) < 0;
}

/** Label the storey's cells reachable from each node, every gate barred. */
function walkStorey(floor: number, gates: Gate[]) {
  const y = floorHeight(spec, floor);
  const free = new Map<number, boolean>();
  const isFree = (i: number, j: number) => {
    const k = j * NX + i;
    if (!free.has(k)) {
      const c = centreOf(i, j);
      const hit = cast(new Vector3(c.x, y + 1, c.z), new Vector3(0, -1, 0), 2);
      free.set(k, hit !== null && Math.abs(hit.point.y - y) <= 0.06);
    }
    return free.get(k)!;
  };
  const canStep = (p: Vec2, q: Vec2) => {
    if (gates.some((g) => crosses(p, q, g))) return false;
    const d = new Vector3(q.x - p.x, 0, q.z - p.z).normalize();
    return [0.1, 1.2].every((h) => cast(new Vector3(p.x, y + h, p.z), d, STEP) === null);
  };
  const component = new Int32Array(NX * NZ).fill(-1);
  const rooms = spec.rooms.filter((r) => r.floor === floor);
  rooms.forEach((room, id) => {
    const start = cellAt(room.centre);
    if (component[start.j * NX + start.i] !== -1) return;
    const queue = [start];
    component[start.j * NX + start.i] = id;
    for (let h = 0; h < queue.length; h++) {
      const { i, j } = queue[h]!;
      for (const [di, dj] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const ni = i + di,
          nj = j + dj;
        if (ni < 0 || nj < 0 || ni >= NX || nj >= NZ || component[nj * NX + ni] !== -1 || !isFree(ni, nj)) continue;
        if (!canStep(centreOf(i, j), centreOf(ni, nj))) continue;
        component[nj * NX + ni] = id;
        queue.push({ i: ni, j: nj });
      }
    }
  });
  const of = (p: Vec2) => {
    const c = cellAt(p);
    return component[c.j * NX + c.i]!;
  };
  return { rooms, of };
}

const gates = spec.connections.map(gateOf).filter((g): g is Gate => g !== null);

describe.each(spec.floors.map((f) => [f.index === 0 ? 'ground floor' : 'upper floor', f.index] as const))('the %s', (_, floor) => {
  const storeyGates = gates.filter((g) => roomByKey(spec, g.connection.from).floor === floor);
  const walk = walkStorey(floor, storeyGates);

  it('with every doorway and passage barred, each room holds exactly one node', () => {
    const components = walk.rooms.map((r) => walk.of(r.centre));
    expect(components).toEqual(walk.rooms.map((_, i) => i));
  });

  it.each(storeyGates.map((g) => [`${g.connection.from}–${g.connection.to}`, g] as const))('the %s gate joins exactly those two rooms', (_, g) => {
    const expected = [g.connection.from, g.connection.to].map((k) => walk.rooms.findIndex((r) => r.key === k)).sort();
    expect(g.sides.map((p) => walk.of(p)).sort()).toEqual(expected);
  });
});
