import { Vector3 } from 'three';
import { castRay, floorBelow } from '../rays/cast.ts';
import type { Surface } from '../rays/surface.ts';

export interface ClearWidth {
  /** Narrowest horizontal width through the point (metres, world). */
  width: number;
  /** The two wall points bounding it. */
  a: Vector3;
  b: Vector3;
  /** Height above the floor at which it was measured. */
  height: number;
}

/**
 * The clear width of a passage at a picked point: from the floor under it, rays are cast
 * horizontally in opposite pairs every `stepDeg` degrees at several heights above the floor; the
 * narrowest pair that is closed on both sides (within `maxReach`) is the clear width — a door's
 * jamb-to-jamb width, a corridor's wall-to-wall width. Null when no pair is closed.
 */
export function clearWidthAt(
  surface: Surface,
  picked: Vector3,
  { heights = [0.1, 0.5, 1.0], stepDeg = 2, maxReach = 3 }: { heights?: number[]; stepDeg?: number; maxReach?: number } = {},
): ClearWidth | null {
  const floor = floorBelow(surface, picked.clone().add(new Vector3(0, 0.05, 0)), 2)?.point ?? picked;
  let best: ClearWidth | null = null;
  const dir = new Vector3();
  for (const h of heights) {
    const origin = floor.clone().add(new Vector3(0, h, 0));
    for (let deg = 0; deg < 180; deg += stepDeg) {
      const t = (deg * Math.PI) / 180;
      dir.set(Math.cos(t), 0, Math.sin(t));
      const fwd = castRay(surface, origin, dir, maxReach);
      if (!fwd) continue;
      const back = castRay(surface, origin, dir.clone().negate(), maxReach);
      if (!back) continue;
      const width = fwd.distance + back.distance;
      if (!best || width < best.width) best = { width, a: back.point, b: fwd.point, height: h };
    }
  }
  return best;
}
