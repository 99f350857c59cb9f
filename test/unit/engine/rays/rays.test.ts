import { Matrix4, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { ShapeBuilder } from '../../../../src/engine/collider/shapes.ts';
import { frameMatrix } from '../../../../src/engine/frame.ts';
import { castRay, castRayAll, floorBelow, newRayHit } from '../../../../src/engine/rays/cast.ts';
import type { Surface, SurfaceLayer } from '../../../../src/engine/rays/surface.ts';

// The one ray caster (engine/rays) on a room written as a scan often is: Z up, in centimetres. The
// room is described here in world metres (Y up) and turned into the file's frame, so every figure
// asserted below is what the studio shows, and would be off by 100× or turned if the frame were
// not handled.
//
// World: a floor slab (top at 0), a 2 cm sill across the room at x 2.0–2.1, a ceiling slab from
// 2.5 to 2.6 m (the floor of a storey above), and one wall face at x = 3 facing the room (−x).

type P = readonly [number, number, number];
const FRAME = frameMatrix('z', 0.01);
const toFile = new Matrix4().copy(FRAME).invert();
const file = (p: P): P => {
  const v = new Vector3(...p).applyMatrix4(toFile);
  return [v.x, v.y, v.z];
};
/** A box given by world corners, written in the file's frame. */
const box = (b: ShapeBuilder, lo: P, hi: P): ShapeBuilder => {
  const a = file(lo),
    c = file(hi);
  return b.box([Math.min(a[0], c[0]), Math.min(a[1], c[1]), Math.min(a[2], c[2])], [Math.max(a[0], c[0]), Math.max(a[1], c[1]), Math.max(a[2], c[2])]);
};

function room(): Surface {
  const b = new ShapeBuilder();
  box(b, [0, -0.1, -4], [4, 0, 0]); // floor
  box(b, [2, 0, -4], [2.1, 0.02, 0]); // sill
  box(b, [0, 2.5, -4], [4, 2.6, 0]); // ceiling
  // One face only, wound to face −x (into the room); its back faces +x.
  b.quad(file([3, 0, -4]), file([3, 0, 0]), file([3, 2.5, 0]), file([3, 2.5, -4]));
  return b.build(FRAME.clone());
}

/** A closed door leaf at x = 2.5, built Y up in metres (another frame than the room's). */
const doorLeaf = (): Surface => new ShapeBuilder().box([2.45, 0, -2.5], [2.55, 2, -1.5]).build();

const v = (x: number, y: number, z: number) => new Vector3(x, y, z);
const DOWN = v(0, -1, 0),
  UP = v(0, 1, 0),
  EAST = v(1, 0, 0),
  WEST = v(-1, 0, 0);

describe('casting a ray at a scan in its own frame (Z up, centimetres)', () => {
  const solid = room();

  it('gives world distances, points and normals', () => {
    const hit = castRay(solid, v(1, 1, -2), DOWN)!;
    expect(hit.distance).toBeCloseTo(1, 9);
    expect(hit.point.toArray()).toEqual([expect.closeTo(1, 9), expect.closeTo(0, 9), expect.closeTo(-2, 9)]);
    expect(hit.normal.toArray()).toEqual([expect.closeTo(0, 9), expect.closeTo(1, 9), expect.closeTo(0, 9)]);
    expect(hit.front).toBe(true);
    expect(hit.faceIndex).toBeGreaterThanOrEqual(0);
    expect(castRay(solid, v(1, 1, -2), EAST)!.distance).toBeCloseTo(2, 9);
  });

  it('hits both sides of a face, and says which it met', () => {
    const front = castRay(solid, v(1, 1, -2), EAST)!;
    expect(front.front).toBe(true);
    expect(front.normal.x).toBeCloseTo(-1, 9);
    const back = castRay(solid, v(3.5, 1, -2), WEST)!;
    expect(back.distance).toBeCloseTo(0.5, 9);
    expect(back.front).toBe(false);
    expect(back.normal.x).toBeCloseTo(1, 9); // turned towards where the ray came from
  });

  it('passes through backs when asked for fronts only', () => {
    expect(castRay(solid, v(3.5, 1, -2), WEST, Infinity, undefined, { frontOnly: true })).toBeNull();
    expect(castRay(solid, v(1, 1, -2), EAST, Infinity, undefined, { frontOnly: true })!.distance).toBeCloseTo(2, 9);
    // From inside the ceiling slab a ray up meets its top's back first: front-only goes on to nothing.
    expect(castRay(solid, v(1, 2.55, -2), UP)!.front).toBe(false);
    expect(castRay(solid, v(1, 2.55, -2), UP, Infinity, undefined, { frontOnly: true })).toBeNull();
  });

  it('stops at `far`, counts a surface at the origin, and hits nothing with a ray of no length', () => {
    expect(castRay(solid, v(1, 1, -2), DOWN, 0.99)).toBeNull();
    expect(castRay(solid, v(1, 1, -2), DOWN, 1.01)).not.toBeNull();
    // On a Y-up scan in metres (a turned frame puts a point "on" a floor a hair above or below it).
    const leaf = doorLeaf();
    expect(castRay(leaf, v(2.5, 2, -2), DOWN, 0.1)!.distance).toBe(0);
    expect(castRay(leaf, v(2.5, 2, -2), DOWN, 0)).toBeNull();
    expect(castRay(null, v(1, 1, -2), DOWN)).toBeNull();
  });

  it('fills the hit it is given instead of making one', () => {
    const out = newRayHit();
    expect(castRay(solid, v(1, 1, -2), DOWN, Infinity, out)).toBe(out);
    expect(castRay(solid, v(1, 1, -2), EAST, Infinity, out)).toBe(out);
    expect(out.distance).toBeCloseTo(2, 9);
  });

  it('follows the frame when the scan is reframed in place (another unit scale)', () => {
    const scan = room();
    expect(castRay(scan, v(1, 4, -2), DOWN)!.point.y).toBeCloseTo(2.6, 9);
    scan.frame.copy(frameMatrix('z', 0.02)); // the ceiling is now at 5.0–5.2 m, the floor still at 0
    expect(castRay(scan, v(1, 4, -2), DOWN)!.point.y).toBeCloseTo(0, 9);
    expect(castRay(scan, v(1, 4, -4), DOWN)!.distance).toBeCloseTo(4, 9);
  });

  it('hits nothing on a scan whose BVH is gone (disposed while the pointer moved)', () => {
    const scan = room();
    scan.geometry.boundsTree = undefined;
    expect(castRay(scan, v(1, 1, -2), DOWN)).toBeNull();
  });
});

describe('the slice: only what lies at or below it is hit', () => {
  const solid = room();

  it('picks the floor through the storey above once that is sliced away', () => {
    expect(castRay(solid, v(1, 10, -2), DOWN)!.point.y).toBeCloseTo(2.6, 9);
    expect(castRay(solid, v(1, 10, -2), DOWN, Infinity, undefined, { maxY: 1.6 })!.point.y).toBeCloseTo(0, 9);
    // A slant ray from a camera above, too.
    const slant = v(1, -2, 0.5).normalize();
    const hit = castRay(solid, v(0.5, 5, -3), slant, Infinity, undefined, { maxY: 1.6 })!;
    expect(hit.point.y).toBeCloseTo(0, 9);
    expect(hit.distance).toBeCloseTo(5 / -slant.y, 9);
  });

  it('keeps a surface exactly at the slice height pickable', () => {
    expect(castRay(solid, v(1, 10, -2), DOWN, Infinity, undefined, { maxY: 2.6 })!.point.y).toBeCloseTo(2.6, 9);
  });

  it('hides a ceiling above the slice from a ray up, and everything from a level ray above it', () => {
    expect(castRay(solid, v(1, 1, -2), UP)!.point.y).toBeCloseTo(2.5, 9);
    expect(castRay(solid, v(1, 1, -2), UP, Infinity, undefined, { maxY: 2 })).toBeNull();
    expect(castRay(solid, v(1, 1, -2), EAST, Infinity, undefined, { maxY: 0.5 })).toBeNull();
    expect(castRay(solid, v(1, 1, -2), EAST, Infinity, undefined, { maxY: 1.5 })!.distance).toBeCloseTo(2, 9);
  });
});

describe('several surfaces at once, with door flags (the collider)', () => {
  const solid = room(),
    door = doorLeaf();
  const closed: SurfaceLayer[] = [
    { surface: solid, door: false },
    { surface: door, door: true },
  ];
  const opens: SurfaceLayer[] = [{ surface: solid, door: false }];

  it('stops an agent that cannot open doors at the leaf, and says it is a door', () => {
    const hit = castRay(closed, v(1, 1, -2), EAST)!;
    expect(hit.distance).toBeCloseTo(1.45, 6);
    expect(hit.door).toBe(true);
  });

  it('lets an agent that opens doors see the wall behind', () => {
    const hit = castRay(opens, v(1, 1, -2), EAST)!;
    expect(hit.distance).toBeCloseTo(2, 9);
    expect(hit.door).toBe(false);
  });

  it('takes the nearest hit whatever the order of the surfaces', () => {
    expect(castRay([...closed].reverse(), v(1, 1, -2), EAST)!.door).toBe(true);
    expect(castRay(closed, v(1, 2.2, -2), EAST)!.door).toBe(false); // above the leaf: the wall
  });
});

describe('every hit along a ray', () => {
  const solid = room();

  it('lists them nearest first, in world distances, each with its side', () => {
    const hits = castRayAll(solid, v(1, 10, -2), DOWN);
    expect(hits.map((h) => h.distance)).toEqual([7.4, 7.5, 10, 10.1].map((d) => expect.closeTo(d, 6)));
    expect(hits.map((h) => h.front)).toEqual([true, false, true, false]);
  });

  it('keeps to the slice and to `far`', () => {
    expect(castRayAll(solid, v(1, 10, -2), DOWN, Infinity, { maxY: 1.6 }).map((h) => h.point.y)).toEqual([expect.closeTo(0, 6), expect.closeTo(-0.1, 6)]);
    expect(castRayAll(solid, v(1, 10, -2), DOWN, 7.45)).toHaveLength(1);
  });
});

describe('the floor below a point', () => {
  const solid = room();

  it('is the sill top over the sill and the floor beside it', () => {
    expect(floorBelow(solid, v(2.05, 0.5, -2), 1)!.point.y).toBeCloseTo(0.02, 9);
    expect(floorBelow(solid, v(1.5, 0.5, -2), 1)!.point.y).toBeCloseTo(0, 9);
  });

  it('is the surface the point stands on, and nothing when it is farther down than allowed', () => {
    expect(floorBelow(doorLeaf(), v(2.5, 2, -2), 0.01)!.distance).toBe(0);
    expect(floorBelow(solid, v(2.05, 0.021, -2), 0.01)!.distance).toBeCloseTo(0.001, 9);
    expect(floorBelow(solid, v(1.5, 0.5, -2), 0.49)).toBeNull();
    expect(floorBelow(solid, v(5, 0.5, -2), 10)).toBeNull(); // outside the room
  });

  it('is the floor from under a ceiling, and the storey above from over it', () => {
    expect(floorBelow(solid, v(1, 2.4, -2), 3)!.point.y).toBeCloseTo(0, 9);
    expect(floorBelow(solid, v(1, 3, -2), 3)!.point.y).toBeCloseTo(2.6, 9);
  });

  it('counts door leaves only when they are in the list', () => {
    const door = doorLeaf();
    expect(
      floorBelow(
        [
          { surface: solid, door: false },
          { surface: door, door: true },
        ],
        v(2.5, 2.4, -2),
        3,
      )!.door,
    ).toBe(true);
    expect(floorBelow([{ surface: solid, door: false }], v(2.5, 2.4, -2), 3)!.point.y).toBeCloseTo(0, 9);
  });
});
