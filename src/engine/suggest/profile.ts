import type { Vector3 } from 'three';
import { terrainAround } from '../terrain/around.ts';
import { cellAt } from '../terrain/grid.ts';
import { surfaceNoiseM } from '../terrain/noise.ts';
import type { SceneGeometry } from './geometry.ts';

/**
 * The floor under a route and the free height over it, read from the terrain of a narrow band round
 * the route (engine/terrain): the floor the drive stands on, whichever way the scan's faces are
 * wound, its small holes read as floor, its noisy layers as one surface — where rays cast down and
 * up along the route fell through holes and met the insides of solids.
 */
export interface RouteProfile {
  /** Floor height under each point (world). */
  floor: number[];
  /** Free height over it (Infinity when open, or where the point has no floor). */
  headroom: number[];
  /** The scan's surface noise along the route (terrain/noise.ts), metres. */
  noiseM: number;
}

/** Half width of the band: the route's own cells and a hole's rim either side of it. */
const BAND_M = 0.2;

export function routeProfile(geom: SceneGeometry, route: readonly Vector3[], points: readonly Vector3[]): RouteProfile {
  const sources = [{ surface: geom.solid, door: false }];
  if (geom.liftParts) sources.push({ surface: geom.liftParts, door: false });
  if (geom.doors) sources.push({ surface: geom.doors, door: true });
  const terrain = terrainAround(
    sources,
    route.map((p) => ({ x: p.x, y: p.y, z: p.z })),
    BAND_M,
  );
  const grid = terrain.region.grid;
  const floor: number[] = [],
    headroom: number[] = [];
  let prev: number | null = null;
  const read = points.map((p) => {
    const c = cellAt(grid, p.x, p.z);
    return c < 0 || Number.isNaN(terrain.floor[c]!) ? null : { floor: terrain.floor[c]!, headroom: terrain.headroom[c]! };
  });
  // Where a point has no floor (its cell is a wall the route grazes), the last floor before it, or the first after.
  const firstFloor = read.find((r) => r !== null)?.floor ?? points[0]?.y ?? 0;
  for (const [i, r] of read.entries()) {
    if (r) {
      floor.push(r.floor);
      headroom.push(r.headroom);
      prev = r.floor;
      continue;
    }
    floor.push(prev ?? firstFloor ?? points[i]!.y);
    headroom.push(Infinity);
  }
  return { floor, headroom, noiseM: surfaceNoiseM(terrain) };
}
