import { describe, expect, it } from 'vitest';
import { findSteps } from '../../../../src/engine/terrain/steps.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/index.ts';
import { TestScan, twoRooms } from '../../../support/suggestScenes.ts';

// The floor profile along a route, one height per centimetre, read as steps, sills and stairs.

/** A profile from a height function of the distance along the route (metres). */
function profile(lengthM: number, height: (s: number) => number) {
  const n = Math.round(lengthM / 0.01);
  const points = Array.from({ length: n + 1 }, (_, i) => ({ s: i * 0.01, at: { x: i * 0.01, y: height(i * 0.01), z: 0 } }));
  return { points, floor: points.map((p) => p.at.y) };
}

describe('steps along a route', () => {
  it('reads a bevelled 2 cm threshold as one sill of 2 cm, not as a ramp', () => {
    // Up over 3 cm, 6 cm flat, down over 3 cm.
    const { points, floor } = profile(2, (s) =>
      s < 1 ? 0 : s < 1.03 ? ((s - 1) / 0.03) * 0.02 : s < 1.09 ? 0.02 : s < 1.12 ? 0.02 - ((s - 1.09) / 0.03) * 0.02 : 0,
    );
    const r = findSteps(points, floor);
    expect(r.sillHeightM).toBeCloseTo(0.02, 3);
    expect(r.steps.map((s) => Math.sign(s.riseM))).toEqual([1, -1]);
    expect(r.stairs).toBeNull();
  });

  it('does not read a 1:12 ramp as steps', () => {
    const { points, floor } = profile(3, (s) => (s < 1 ? 0 : s < 2 ? (s - 1) / 12 : 1 / 12));
    expect(findSteps(points, floor)).toEqual({ steps: [], stairs: null, sillHeightM: undefined });
  });

  it('reads two risers as steps, not stairs: the higher one is the step height', () => {
    const { points, floor } = profile(3, (s) => (s < 1 ? 0 : s < 1.3 ? 0.16 : 0.33));
    const r = findSteps(points, floor);
    expect(r.stairs).toBeNull();
    expect(r.sillHeightM).toBeCloseTo(0.17, 3);
  });

  it('reads a flight going down as stairs, and a sill beside it as a sill', () => {
    // A 1.5 cm sill, then 4 risers of 0.15 m down.
    const { points, floor } = profile(4, (s) => {
      if (s >= 0.5 && s < 0.6) return 0.015;
      if (s < 1) return 0;
      return -0.15 * Math.min(4, Math.floor((s - 1) / 0.3) + 1);
    });
    const r = findSteps(points, floor);
    expect(r.stairs).toMatchObject({ risers: 4, riserM: 0.15 });
    expect(r.steps.filter((s) => s.stair).every((s) => s.riseM < 0)).toBe(true);
    expect(r.sillHeightM).toBeCloseTo(0.015, 4);
  });
});

describe('preparing a scan for judging', () => {
  it('keeps door leaves and lift parts out of the solid scan, by name', () => {
    const scan = twoRooms({ doorLeaf: true }).box('Lift cabin', [7, 0, 0], [8, 0.1, 1]).box('elevator-door', [7, 0, 1], [8, 2, 1.1]);
    const geom = prepareGeometry(scan.loaded());
    expect(geom.named).toBe(true);
    expect(geom.doors).not.toBeNull();
    // "elevator-door" names a door first: it is a door leaf, not part of the lift box.
    expect(geom.lifts).toHaveLength(1);
    expect(geom.lifts[0]!.max.y).toBeCloseTo(0.1, 6);
    const solidBox = geom.solid.geometry.boundingBox!;
    expect(solidBox.max.x).toBeLessThan(7);
  });

  it('uses the loaded collision mesh itself for a scan without such names', () => {
    const loaded = new TestScan().floor(0, 2, 0, 2).loaded();
    const geom = prepareGeometry(loaded);
    expect(geom).toMatchObject({ doors: null, lifts: [], named: false });
    expect(geom.solid.geometry).toBe(loaded.collision.geometry);
  });
});
