import { BufferAttribute, BufferGeometry, DoubleSide, FrontSide, Ray, Vector3, type Intersection, type Side } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { describe, expect, it } from 'vitest';
import { houseMesh, type SoupGroupName, type TriangleSoup } from '../../../../src/core/sample/houseMesh.ts';
import { floorHeight, openingCentre, SAMPLE_HOUSE, type CorridorSpec } from '../../../../src/core/sample/houseSpec.ts';
import { buildSampleRelease } from '../../../../src/core/sample/sampleRelease.ts';

// The sample house is checked the way a surveyor with a laser would: rays cast against the very
// triangles that go into house.glb, compared with the spec to the millimetre.
const MM = 0.001;
const spec = SAMPLE_HOUSE;
const soup = houseMesh(spec);
const { scene } = buildSampleRelease(spec);

type P3 = [number, number, number];

/** A ray caster over some of the soup's groups (all of them by default). */
function caster(s: TriangleSoup, only?: SoupGroupName[]) {
  const groups = s.groups.filter((g) => !only || only.includes(g.name));
  const index = new Uint32Array(groups.reduce((n, g) => n + g.count, 0));
  let at = 0;
  for (const g of groups) {
    index.set(s.indices.subarray(g.start, g.start + g.count), at);
    at += g.count;
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(s.positions, 3));
  geometry.setIndex(new BufferAttribute(index, 1));
  const bvh = new MeshBVH(geometry);
  return (origin: P3, dir: P3, side: Side = FrontSide, far = Infinity): Intersection | null =>
    bvh.raycastFirst(new Ray(new Vector3(...origin), new Vector3(...dir).normalize()), side, 0, far);
}

const all = caster(soup);
const noLeaves = caster(soup, ['floor', 'wall', 'sill', 'stair', 'lift']);
const liftOnly = caster(soup, ['lift']);

/** Distance to the first surface along a ray; fails the test when nothing is hit. */
function distance(cast: ReturnType<typeof caster>, origin: P3, dir: P3): number {
  const hit = cast(origin, dir);
  expect(hit, `a ray from ${origin.join(', ')} towards ${dir.join(', ')} hits nothing`).not.toBeNull();
  return hit!.distance;
}

/** Height of the first surface below a point. */
const surfaceBelow = (cast: ReturnType<typeof caster>, x: number, fromY: number, z: number) => fromY - distance(cast, [x, fromY, z], [0, -1, 0]);

/** Clear width across a straight passage at `along` on its run axis, 1 m above its floor. */
function widthAcross(c: CorridorSpec, along: number, y: number): number {
  if (c.run === 'x') {
    const z = (c.clear.z0 + c.clear.z1) / 2;
    return distance(noLeaves, [along, y, z], [0, 0, 1]) + distance(noLeaves, [along, y, z], [0, 0, -1]);
  }
  const x = (c.clear.x0 + c.clear.x1) / 2;
  return distance(noLeaves, [x, y, along], [1, 0, 0]) + distance(noLeaves, [x, y, along], [-1, 0, 0]);
}

const doorways = spec.walls.flatMap((wall) => wall.openings.map((opening) => ({ wall, opening, centre: openingCentre(spec, wall, opening) })));

describe('doorways are built as specified', () => {
  it.each(doorways.map((d) => [d.opening.id, d] as const))(
    '%s: the measured clear width between the jambs is the spec width',
    (_, { wall, opening, centre }) => {
      const y = centre.y + 1;
      const along: P3 = wall.run === 'x' ? [1, 0, 0] : [0, 0, 1];
      const back: P3 = wall.run === 'x' ? [-1, 0, 0] : [0, 0, -1];
      const width = distance(noLeaves, [centre.x, y, centre.z], along) + distance(noLeaves, [centre.x, y, centre.z], back);
      expect(Math.abs(width - opening.clearWidthM)).toBeLessThan(MM);
    },
  );

  it.each(doorways.map((d) => [d.opening.id, d] as const))(
    '%s: the sill top is the spec height above the floor (none: the floor runs through)',
    (_, { wall, opening, centre }) => {
      const top = surfaceBelow(noLeaves, centre.x, centre.y + 1, centre.z);
      expect(Math.abs(top - (centre.y + (opening.sillHeightM ?? 0)))).toBeLessThan(MM);
      // The floor on either side of the wall is level with the storey: a sill is a strip, not a step.
      const off = wall.thicknessM / 2 + 0.2;
      const sides: P3[] =
        wall.run === 'x'
          ? [
              [centre.x, 0, centre.z - off],
              [centre.x, 0, centre.z + off],
            ]
          : [
              [centre.x - off, 0, centre.z],
              [centre.x + off, 0, centre.z],
            ];
      for (const [x, , z] of sides) expect(Math.abs(surfaceBelow(noLeaves, x, centre.y + 1, z) - centre.y)).toBeLessThan(MM);
    },
  );

  it('the bathroom door is shut: a ray through the doorway stops at the leaf, and only the leaf closes it', () => {
    const d = doorways.find((o) => o.opening.id === 'hall-bathroom')!;
    expect(d.opening.closedDoor).toBe(true);
    const from: P3 = [d.centre.x, 1, d.centre.z + 0.5]; // in the hall, half a metre from the wall's centreline
    expect(distance(all, from, [0, 0, -1])).toBeCloseTo(0.5 - 0.02, 3);
    expect(noLeaves(from, [0, 0, -1], FrontSide, 1.5)).toBeNull();
  });

  it('every other doorway is open at walking height', () => {
    for (const d of doorways.filter((o) => !o.opening.closedDoor)) {
      const across: P3 = d.wall.run === 'x' ? [0, 0, 1] : [1, 0, 0];
      const from: P3 = [d.centre.x - across[0] * 0.5, d.centre.y + 1, d.centre.z - across[2] * 0.5];
      expect(all(from, across, FrontSide, 1), d.opening.id).toBeNull();
    }
  });
});

describe('the narrow passages are as narrow as specified', () => {
  it('the straight corridor is 0.80 m wide all along its length of at least 3 m', () => {
    const c = spec.corridor;
    expect(c.clear.x1 - c.clear.x0).toBeGreaterThanOrEqual(3);
    for (let x = c.clear.x0 + 0.1; x <= c.clear.x1 - 0.1; x += 0.25) expect(Math.abs(widthAcross(c, x, 1) - 0.8)).toBeLessThan(MM);
  });

  it('both legs of the L-shaped corner are 0.80 m wide and long enough for a body to turn between them', () => {
    for (const leg of [spec.corner.legA, spec.corner.legB]) {
      const [a, b] = leg.run === 'x' ? [leg.clear.x0, leg.clear.x1] : [leg.clear.z0, leg.clear.z1];
      expect(b - a).toBeGreaterThanOrEqual(1.5);
      for (let s = a + 0.15; s <= b - 0.15; s += 0.25) expect(Math.abs(widthAcross(leg, s, 1) - 0.8)).toBeLessThan(MM);
    }
  });

  it('the corner square is closed on its outer sides, 0.40 m from its centre', () => {
    const q = spec.corner.square;
    const c: P3 = [(q.x0 + q.x1) / 2, 1, (q.z0 + q.z1) / 2];
    expect(distance(noLeaves, c, [1, 0, 0])).toBeCloseTo(0.4, 3);
    expect(distance(noLeaves, c, [0, 0, -1])).toBeCloseTo(0.4, 3);
  });
});

describe('the staircase', () => {
  const s = spec.stairs;
  const x = (s.across[0] + s.across[1]) / 2;
  const treadCentre = (k: number) => s.firstRiserAt + s.dir * (k - 0.5) * s.goingM;

  it('has uniform risers that add up to the storey height, from floor to floor', () => {
    // The foot is measured from below the upper slab; the treads and the landing through the stairwell.
    const heights = [surfaceBelow(all, x, 1, s.firstRiserAt - s.dir * 0.1)];
    for (let k = 1; k < s.risers; k++) heights.push(surfaceBelow(all, x, 4, treadCentre(k)));
    heights.push(surfaceBelow(all, x, 4, treadCentre(s.risers)));
    const risers = heights.slice(1).map((h, i) => h - heights[i]!);
    expect(risers).toHaveLength(16);
    for (const r of risers) expect(Math.abs(r - 0.175)).toBeLessThan(MM);
    expect(Math.abs(heights[heights.length - 1]! - heights[0]! - spec.storeyHeightM)).toBeLessThan(MM);
    expect(heights[0]).toBeCloseTo(floorHeight(spec, s.fromFloor), 3);
  });

  it('has its risers one going (0.25 m) apart, each facing down the flight', () => {
    const start = s.firstRiserAt - s.dir * 0.1;
    for (let k = 1; k < s.risers; k++) {
      const hit = all([x, (k - 0.5) * s.riserM, start], [0, 0, s.dir])!; // front faces only: a riser wound inwards would be missed
      expect(hit.distance).toBeCloseTo(0.1 + (k - 1) * s.goingM, 3);
      expect(hit.face!.normal.z).toBeCloseTo(-s.dir, 6);
    }
  });

  it('is 1.00 m wide between the walls on either side', () => {
    for (let k = 1; k < s.risers; k++) {
      const y = k * s.riserM + 0.5;
      const width = distance(all, [x, y, treadCentre(k)], [1, 0, 0]) + distance(all, [x, y, treadCentre(k)], [-1, 0, 0]);
      expect(Math.abs(width - 1)).toBeLessThan(MM);
    }
  });
});

describe('the lift', () => {
  const c = spec.lift.cabin;
  const cx = (c.x0 + c.x1) / 2,
    cz = (c.z0 + c.z1) / 2;

  it('has a cabin floor level with the storey floor at both stops', () => {
    for (const f of spec.lift.floors) {
      const y = floorHeight(spec, f);
      expect(Math.abs(surfaceBelow(all, cx, y + 1, cz) - y)).toBeLessThan(MM);
      expect(Math.abs(surfaceBelow(liftOnly, cx, y + 1, cz) - y)).toBeLessThan(MM);
    }
  });

  it('is a 1.40 × 1.40 m cabin, its shaft closed between the storeys', () => {
    const beside = c.x0 + 0.05; // west of the door's jamb, so the ray meets the cabin's front wall
    expect(distance(all, [c.x0 + 0.01, 1, cz], [1, 0, 0]) + 0.01).toBeCloseTo(1.4, 3);
    expect(distance(all, [beside, 1, c.z0 + 0.01], [0, 0, 1]) + 0.01).toBeCloseTo(1.4, 3);
    const ceiling = floorHeight(spec, 0) + distance(all, [cx, 0.5, cz], [0, 1, 0]) + 0.5;
    expect(ceiling).toBeCloseTo(spec.wallHeightM, 3);
  });
});

describe('graph nodes stand on the floor, in the open', () => {
  const directions: P3[] = Array.from({ length: 8 }, (_, i) => [Math.cos((i * Math.PI) / 4), 0, Math.sin((i * Math.PI) / 4)]);

  it.each(scene.graph.nodes.map((n) => [`${n.id} ${n.name}`, n] as const))('%s lies 0–5 cm above a floor surface', (_, n) => {
    const hit = all([n.position.x, n.position.y, n.position.z], [0, -1, 0]);
    expect(hit).not.toBeNull();
    expect(hit!.distance).toBeGreaterThanOrEqual(0);
    expect(hit!.distance).toBeLessThanOrEqual(0.05);
    expect(hit!.face!.normal.y).toBeCloseTo(1, 6);
  });

  it.each(scene.graph.nodes.map((n) => [`${n.id} ${n.name}`, n] as const))('%s is not inside a wall and is at least 0.5 m from every wall', (_, n) => {
    for (const dy of [0.3, 1.5]) {
      for (const dir of directions) {
        const hit = all([n.position.x, n.position.y + dy, n.position.z], dir, DoubleSide);
        expect(hit, `nothing round ${n.name} towards ${dir.join(', ')}`).not.toBeNull();
        // Seen from outside a solid, the first surface faces back towards the node.
        expect(hit!.face!.normal.dot(new Vector3(...dir))).toBeLessThan(0);
        expect(hit!.distance).toBeGreaterThanOrEqual(0.5);
      }
    }
  });

  it('a point inside a wall is told apart: its first surface faces away', () => {
    const hit = all([5.6, 1, 1.0], [1, 0, 0], DoubleSide); // inside the study's west wall
    expect(hit!.face!.normal.x).toBeGreaterThan(0);
  });
});
