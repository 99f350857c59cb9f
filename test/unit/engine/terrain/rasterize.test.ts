import { describe, expect, it } from 'vitest';
import { SAMPLE_HOUSE } from '../../../../src/core/sample/houseSpec.ts';
import { scanLikeHouse, SCAN_VARIANTS } from '../../../../src/core/sample/scanLike/index.ts';
import { buildSampleRelease } from '../../../../src/core/sample/sampleRelease.ts';
import { surfaceFromTriangles } from '../../../../src/engine/collider/world.ts';
import { CELL_M } from '../../../../src/engine/terrain/around.ts';
import { rasterizeColumns } from '../../../../src/engine/terrain/rasterize.ts';
import type { ColumnSpans } from '../../../../src/engine/terrain/spans.ts';
import { regionAround } from '../../../../src/engine/terrain/region.ts';

/** Every array of the spans, by name, as plain numbers (NaN and ±Infinity compare equal in toEqual). */
const arrays = (s: ColumnSpans) => ({ start: [...s.start], lo: [...s.lo], hi: [...s.hi], flatHi: [...s.flatHi], door: [...s.door] });

describe("a scan's columns", () => {
  it('are the same whether raw spans are joined as the triangles come or only once all are in (the stairs and the L-corner of the scan-like house)', () => {
    // Every defect at once: noise, holes, faces wound either way, shuffled, doubled layers, clutter.
    const { soup } = scanLikeHouse(SAMPLE_HOUSE, { ...SCAN_VARIANTS.all, densityM: 0.1 }, 3);
    const surface = surfaceFromTriangles(soup.positions, soup.indices);
    const { nodes } = buildSampleRelease(SAMPLE_HOUSE).scene.graph;
    const at = (id: string) => nodes.find((n) => n.id === id)!.position;
    for (const [a, b] of [
      ['node_8', 'node_10'],
      ['node_3', 'node_4'],
    ] as const) {
      const route = [at(a), at(b)];
      const region = regionAround(route, 1.0, CELL_M);
      const raster = (joinAtAddM?: number) =>
        rasterizeColumns(
          [{ surface, door: false }],
          region.grid,
          region.mask,
          region.yMin - 0.15,
          region.yMax + 2,
          joinAtAddM === undefined ? {} : { joinAtAddM },
        );
      const joined = raster();
      const apart = raster(-Infinity);
      expect(joined.triangles).toBeGreaterThan(5_000);
      // The columns hold floors, walls and furniture: many cells have more than one span.
      let stacked = 0;
      for (let c = 0; c + 1 < joined.start.length; c++) if (joined.start[c + 1]! - joined.start[c]! > 1) stacked++;
      expect(stacked, `${a}|${b}`).toBeGreaterThan(1_000);
      expect(arrays(joined), `${a}|${b}`).toEqual(arrays(apart));
      // The tube's cells hold what the whole box's do: triangles passed over (outside the tube) put nothing in it.
      const whole = rasterizeColumns([{ surface, door: false }], region.grid, null, region.yMin - 0.15, region.yMax + 2);
      let masked = 0;
      for (let c = 0; c < region.mask.length; c++) {
        if (!region.mask[c]) continue;
        masked++;
        const mine = (s: ColumnSpans) =>
          Array.from({ length: s.start[c + 1]! - s.start[c]! }, (_, k) => [s.lo[s.start[c]! + k], s.hi[s.start[c]! + k], s.flatHi[s.start[c]! + k]]);
        if (JSON.stringify(mine(joined)) !== JSON.stringify(mine(whole))) expect.fail(`${a}|${b}: cell ${c} differs with the mask`);
      }
      expect(masked).toBeGreaterThan(50_000);
      // And the tube did pass triangles over: fewer rasterised than for the whole box.
      expect(joined.triangles, `${a}|${b}`).toBeLessThan(whole.triangles);
    }
    // Joining more than merge() joins would change them: the pool refuses it.
    expect(() => {
      const region = regionAround([at('node_3'), at('node_4')], 0.2, CELL_M);
      rasterizeColumns([{ surface, door: false }], region.grid, region.mask, 0, 1, { joinAtAddM: 0.15 });
    }).toThrow(/merge/);
  });
});
