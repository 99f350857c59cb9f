import type { Vec3 } from '../../core/graph.ts';
import { rasterizeColumns, type RasterizeSource } from './rasterize.ts';
import { regionAround } from './region.ts';
import { buildTerrain, type Terrain } from './terrain.ts';

/** Plan cells of a terrain: a centimetre, the precision the rules decide doorways and sills at. */
export const CELL_M = 0.01;

/**
 * Heights round the route that are rasterised: from a little under its lowest point (the floor it
 * runs on, give or take a scan's warp) to above the tallest agent over its highest. What lies
 * deeper — a slab's underside, the storey below seen through a stairwell — is no floor of this edge,
 * and what lies higher stops no agent (headroom above it reads as open).
 */
const BELOW_M = 0.15;
const ABOVE_M = 2.0;

/**
 * The terrain of the cells within `radiusM` of a route (world), flooded from its two ends: the
 * drive's search region (engine/planner) and, narrow, the suggestions' floor profile along it.
 */
export function terrainAround(sources: readonly RasterizeSource[], route: readonly Vec3[], radiusM: number): Terrain {
  const region = regionAround(route, radiusM, CELL_M);
  const spans = rasterizeColumns(sources, region.grid, region.mask, region.yMin - BELOW_M, region.yMax + ABOVE_M);
  return buildTerrain(spans, region, [route[0]!, route[route.length - 1]!]);
}
