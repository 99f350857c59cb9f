import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Vector3 } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { clearWidthAt, type ClearWidth } from '../../../../src/engine/measure/clearWidth.ts';
import { type LoadedMesh } from '../../../../src/engine/mesh/load.ts';
import { scanSurface } from '../../../../src/engine/rays/surface.ts';
import { REPO } from '../../../support/cli.ts';
import { loadSampleHouse } from '../../../support/suggestTruth.ts';

// Issue 23 §9: measuring says what it measured, and warns where the click is not on a doorway or
// corridor cross-section — the sample house, whose every feature's true width is known.
const features = JSON.parse(readFileSync(join(REPO, 'scenes/sample-house/features.json'), 'utf8')) as {
  edges: Record<string, { at: { x: number; y: number; z: number }; clearWidthM: number }>;
};
let house: LoadedMesh;
beforeAll(async () => {
  house = await loadSampleHouse();
}, 60_000);
const at = (edge: string, dy = 0.02): ClearWidth => {
  const p = features.edges[edge]!.at;
  return clearWidthAt(scanSurface(house), new Vector3(p.x, p.y + dy, p.z))!;
};

describe("clear width, and whether the span is a passage's", () => {
  it('a doorway and a corridor: their widths, between surfaces facing each other, no warning', () => {
    for (const edge of ['node_1|node_2', 'node_1|node_5', 'node_11|node_13']) {
      const w = at(edge);
      expect(w.width, edge).toBeCloseTo(features.edges[edge]!.clearWidthM, 2);
      expect(w.facingDeg, edge).toBeLessThan(5);
      expect(w.warning, edge).toBeNull();
    }
  });

  it("a closed door's leaf: a few centimetres between its two faces, said to be no passage", () => {
    const w = at('node_1|node_7');
    expect(w.width).toBeLessThan(0.15);
    expect(w.warning).toMatch(/two faces of one thin thing/);
  });

  it("at the L-corner's bend: the diagonal between two walls that meet at an angle is said not to be the corridor's width", () => {
    const c = features.edges['node_3|node_4']!.at;
    const w = clearWidthAt(scanSurface(house), new Vector3(c.x, 0.02, c.z))!;
    // The issue's 1.132 m: the bend's diagonal, between the two 0.80 m legs' walls at right angles.
    expect(w.width).toBeCloseTo(1.132, 2);
    expect(w.facingDeg).toBeCloseTo(90, 0);
    expect(w.warning).toMatch(/surfaces 90° apart that do not face each other \(a corner's diagonal\)/);
  });

  it('on the stairs: the floor is not level across the span, said so', () => {
    const w = at('node_10|node_8');
    expect(w.warning).toMatch(/floor is not level across it|do not face each other/);
  });
});
