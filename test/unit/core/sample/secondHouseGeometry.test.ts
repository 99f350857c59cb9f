import { BufferAttribute, BufferGeometry, FrontSide, Ray, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { describe, expect, it } from 'vitest';
import { undirectedKey } from '../../../../src/core/graph.ts';
import { houseMesh, type TriangleSoup } from '../../../../src/core/sample/houseMesh.ts';
import type { HouseSpec } from '../../../../src/core/sample/houseSpec.ts';
import { nodeIds } from '../../../../src/core/sample/sampleRelease.ts';
import { neededWidthM, STEP_TOLERANCE_M } from '../../../../src/core/rules.ts';
import { SECOND_HOUSE, secondHouseRelease } from '../../../support/secondHouse.ts';
import { reasonOfNote } from '../../../support/suggestTruth.ts';

// The generator's ramp and crawl space, checked with a laser as the sample's doorways are
// (sampleGeometry.test.ts): rays against the very triangles of the second house.
const MM = 0.001;
const soup = houseMesh(SECOND_HOUSE);
const geometry = new BufferGeometry();
geometry.setAttribute('position', new BufferAttribute(soup.positions, 3));
geometry.setIndex(new BufferAttribute(soup.indices.slice(), 1));
const bvh = new MeshBVH(geometry);
type P3 = [number, number, number];
const cast = (o: P3, d: P3, far = Infinity) => bvh.raycastFirst(new Ray(new Vector3(...o), new Vector3(...d).normalize()), FrontSide, 0, far);
function distance(o: P3, d: P3): number {
  const hit = cast(o, d);
  expect(hit, `a ray from ${o.join(', ')} towards ${d.join(', ')} hits nothing`).not.toBeNull();
  return hit!.distance;
}
const floorAt = (x: number, z: number) => 1 - distance([x, 1, z], [0, -1, 0]);

/** Signed volume of a closed soup: positive, and the solids' volume, only when every face faces out. */
function signedVolume(s: TriangleSoup): number {
  let v = 0;
  const p = s.positions;
  for (let i = 0; i < s.indices.length; i += 3) {
    const [a, b, c] = [s.indices[i]! * 3, s.indices[i + 1]! * 3, s.indices[i + 2]! * 3];
    v +=
      (p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) -
        p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) +
        p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!)) /
      6;
  }
  return v;
}

describe('the ramp up to the den', () => {
  const ramp = SECOND_HOUSE.ramps![0]!;
  const x = (ramp.clear.x0 + ramp.clear.x1) / 2;

  it('climbs 14 cm from the hall floor to the den floor as one even slope, gentler than 1:12, with no step at either end', () => {
    const heights: number[] = [];
    for (let z = 5.0; z >= 1.0 - 1e-9; z -= 0.02) heights.push(floorAt(x, z));
    expect(heights[0]).toBeCloseTo(0, 3);
    expect(heights.at(-1)).toBeCloseTo(0.14, 3);
    const rises = heights.slice(1).map((h, i) => h - heights[i]!);
    for (const r of rises) {
      expect(r).toBeGreaterThanOrEqual(-MM / 10);
      expect(r).toBeLessThanOrEqual(0.02 / 12);
    }
    // Half-way up, it is half-way: a plane, not a step and a landing.
    expect(floorAt(x, (ramp.clear.z0 + ramp.clear.z1) / 2)).toBeCloseTo(0.07, 3);
  });

  it('is 1.20 m wide between its walls all the way up, with 1.96 m of headroom under the den’s lintel', () => {
    for (let z = ramp.clear.z0 + 0.05; z < ramp.clear.z1; z += 0.25) {
      const y = floorAt(x, z) + 0.5;
      expect(distance([x, y, z], [1, 0, 0]) + distance([x, y, z], [-1, 0, 0])).toBeCloseTo(1.2, 3);
    }
    const z = 2.5,
      floor = floorAt(x, z);
    expect(distance([x, floor + 0.01, z], [0, 1, 0]) + 0.01).toBeCloseTo(2.1 - (0.14 * (4.44 - z)) / 2, 3);
  });

  it('is a closed solid wound outward, as every solid of the house is (rays tell inside from outside)', () => {
    const lone: HouseSpec = { ...SECOND_HOUSE, slabs: [], walls: [] };
    const length = ramp.clear.z1 - ramp.clear.z0,
      width = ramp.clear.x1 - ramp.clear.x0;
    expect(signedVolume(houseMesh(lone))).toBeCloseTo(width * length * 0.2, 6);
  });
});

describe('the crawl space under the cabinet', () => {
  const z = 2.25;

  it('is 0.35 m high and 0.60 m wide through the cabinet’s 0.60 m depth, and closed above', () => {
    for (const x of [8.25, 8.5, 8.75]) {
      expect(Math.abs(distance([x, 0.01, z], [0, 1, 0]) + 0.01 - 0.35)).toBeLessThan(MM);
      expect(Math.abs(distance([x, 0.1, z], [0, 0, 1]) + distance([x, 0.1, z], [0, 0, -1]) - 0.6)).toBeLessThan(MM);
    }
    // Low down the way through is clear from the study into the store; at 0.5 m the cabinet's face stops it.
    expect(distance([7.5, 0.2, z], [1, 0, 0])).toBeGreaterThan(2.9);
    expect(distance([7.5, 0.5, z], [1, 0, 0])).toBeCloseTo(0.7, 3);
  });
});

describe('the second house’s obstacle records (features) and ground truth', () => {
  const { features, scene } = secondHouseRelease();
  const ids = nodeIds(SECOND_HOUSE);
  const edge = (a: string, b: string) => features.edges[undirectedKey(ids.get(a)!, ids.get(b)!)]!;

  it('records the crawl space with its clear height, and the ramp with its rise, length and narrowest width', () => {
    expect(edge('study', 'store')).toMatchObject({ kind: 'crawl', clearWidthM: 0.6, clearHeightM: 0.35 });
    expect(edge('hall', 'den')).toMatchObject({ kind: 'ramp', clearWidthM: 1.2, riseM: 0.14, runM: 2 });
    expect(edge('hall', 'den').sillHeightM).toBeUndefined();
  });

  it('stands the den’s node 2 cm above its raised floor, and labels the crawl space a low opening for all but the sweeper', () => {
    expect(scene.graph.nodes.find((n) => n.name === 'Den')!.position.y).toBe(0.16);
    const crawl = `${ids.get('study')}|${ids.get('store')}`;
    expect(scene.labels.QUADRUPEDAL![crawl]!.note).toBe('Low opening: clear height 0.35 m < 0.70 m agent height');
    expect(scene.labels.SWEEPER![crawl]!.traversable).toBe(true);
  });
});

describe('the second house as a test of the planner', () => {
  const { features, scene, profiles } = secondHouseRelease();
  const ids = nodeIds(SECOND_HOUSE);

  it('keeps every width 2 cm and every sill 3 mm from each agent’s limit, so the planner’s resolution never decides', () => {
    for (const [key, f] of Object.entries(features.edges)) {
      for (const p of profiles) {
        const where = `${key} ${f.kind} ${p.name}`;
        for (const w of [f.clearWidthM, ...(f.cornerWidthsM ?? [])].filter((v) => v !== undefined)) {
          expect(Math.abs(w - neededWidthM(p)), where).toBeGreaterThanOrEqual(0.02 - 1e-9);
        }
        if (f.sillHeightM !== undefined) expect(Math.abs(f.sillHeightM - (p.maxStepM + STEP_TOLERANCE_M)), where).toBeGreaterThanOrEqual(0.003 - 1e-9);
        if (f.clearHeightM !== undefined) expect(Math.abs(f.clearHeightM - p.heightM), where).toBeGreaterThanOrEqual(0.02);
      }
    }
  });

  it('gives the ground truth drawn in secondHouse.ts’s table', () => {
    const table: Record<string, string[]> = {
      'hall-bedroom': ['yes', 'step', 'narrow', 'yes', 'yes'],
      'hall-study': ['yes', 'yes', 'yes', 'yes', 'yes'],
      'hall-den': ['yes', 'yes', 'yes', 'yes', 'yes'],
      'hall-kitchen': ['yes', 'step', 'narrow', 'yes', 'step'],
      'hall-workshop': ['yes', 'yes', 'narrow', 'door', 'door'],
      'kitchen-pantry': ['yes', 'step', 'yes', 'yes', 'step'],
      'study-store': ['narrow', 'narrow', 'narrow', 'narrow', 'yes'],
    };
    const got = Object.fromEntries(
      SECOND_HOUSE.connections.map((c) => [
        `${c.from}-${c.to}`,
        profiles.map((p) => {
          const label = scene.labels[p.name]![`${ids.get(c.from)}|${ids.get(c.to)}`]!;
          return label.traversable ? 'yes' : reasonOfNote(label.note);
        }),
      ]),
    );
    expect(profiles.map((p) => p.name)).toEqual(['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER']);
    expect(got).toEqual(table);
  });
});
