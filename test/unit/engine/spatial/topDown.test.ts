import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneMaps } from '../../../../src/core/evalinputs/spatial.ts';
import type { NavGraph } from '../../../../src/core/graph.ts';
import type { LoadedMesh } from '../../../../src/engine/mesh/types.ts';
import { renderMaps } from '../../../../src/engine/spatial/topDown.ts';
import { loadSampleHouse, SAMPLE_DIR } from '../../../support/suggestTruth.ts';

// A floor's map is cut 1.8 m above the floor's level. A node standing higher on that floor (on a
// half-landing, 1.3 m up: still 1.5 m below the storey above, so its own floor) must not lift the
// cut over the storey above, which would draw the upper floor on the ground floor's map.

const graph = JSON.parse(readFileSync(join(SAMPLE_DIR, 'graphs', 'sample-house-graph.json'), 'utf8')) as NavGraph;
let house: LoadedMesh;
beforeAll(async () => {
  house = await loadSampleHouse();
}, 60_000);
afterAll(() => house?.dispose());

const groundMap = (g: NavGraph) => {
  const { info, pictures } = renderMaps(house, g, sceneMaps('sample-house', g));
  return { floor: info.floors[0]!, rgba: pictures[0]!.rgba };
};

describe('top-down maps', () => {
  it('a node higher up on the ground floor leaves its map as it was: the cut stays 1.8 m above the floor, under the upper storey', () => {
    const plain = groundMap(graph);
    const raised = structuredClone(graph);
    raised.nodes.find((n) => n.id === 'node_8')!.position.y = 1.3; // the stair foot, moved up the flight
    const withLanding = groundMap(raised);
    expect(withLanding.floor).toEqual({ ...plain.floor });
    expect(withLanding.floor.sliceY).toBeCloseTo(0.02 + 1.8, 6);
    expect(Buffer.from(withLanding.rgba).equals(Buffer.from(plain.rgba))).toBe(true);
  });
});
