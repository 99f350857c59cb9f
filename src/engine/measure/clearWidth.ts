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
  /** The angle between the two surfaces bounding it (0° when they face each other squarely, as a doorway's jambs do). */
  facingDeg: number;
  /**
   * Why this span is not a doorway's or a corridor's cross-section, when it is not: the two sides
   * of one thin thing, surfaces that meet at an angle (a corner's diagonal), or floor that is not
   * level across it (stairs, a step). Null when it reads as a cross-section.
   */
  warning: string | null;
}

/** Narrower than anything a person passes: the faces of one door leaf, wall end or piece of furniture. */
const THIN_M = 0.15;
/** Jambs and corridor walls face each other within this angle. */
const SQUARE_DEG = 20;
/** Floor levels either side that differ by more than this are a step or stairs, not a doorway. */
const LEVEL_M = 0.05;

/** Whether a measured span reads as a passage's cross-section, and why not (see ClearWidth.warning). */
export function spanWarning(width: number, facingDeg: number, floorRiseM: number | null): string | null {
  if (width < THIN_M) return `only ${width.toFixed(3)} m: these are the two faces of one thin thing (a door leaf, a wall's end, furniture), not a passage`;
  if (floorRiseM !== null && floorRiseM > LEVEL_M)
    return `the floor is not level across it (${floorRiseM.toFixed(2)} m higher on one side: stairs or a step), so this is not a doorway's or corridor's width`;
  if (facingDeg > SQUARE_DEG)
    return `its ends are on surfaces ${facingDeg.toFixed(0)}° apart that do not face each other (a corner's diagonal), not straight across a doorway or corridor`;
  return null;
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
      if (!best || width < best.width) {
        // The normals are turned towards the ray: facing each other squarely, they are opposite.
        const facingDeg = (Math.acos(Math.max(-1, Math.min(1, -fwd.normal.dot(back.normal)))) * 180) / Math.PI;
        best = { width, a: back.point.clone(), b: fwd.point.clone(), height: h, facingDeg, warning: null };
      }
    }
  }
  if (!best) return null;
  // The floor on either side, just inside the span's ends.
  const inside = (p: Vector3) =>
    p
      .clone()
      .lerp(best.a.clone().add(best.b).multiplyScalar(0.5), 0.1)
      .setY(floor.y + 0.6);
  const ya = floorBelow(surface, inside(best.a), 2)?.point.y,
    yb = floorBelow(surface, inside(best.b), 2)?.point.y;
  const rise = ya === undefined || yb === undefined ? null : Math.abs(ya - yb);
  best.warning = spanWarning(best.width, best.facingDeg, rise);
  return best;
}
