import { Vector3 } from 'three';
import { castRay, newRayHit } from '../../rays/cast.ts';
import type { Surface } from '../../rays/surface.ts';

/**
 * The free height over the route: a ray straight up from the floor under every centimetre of it
 * (the floor profile) to the first surface above. The lowest is the route's low opening — a crawl
 * space, a table it passes under, a low lintel — which the headroom rule (rules.ts 4b) judges per
 * agent. Only heights under 1.8 m count as one, above the tallest CapNav agent (the 1.7 m human):
 * a door (2.0–2.1 m, a little less over a threshold) or a ceiling stops none of the agents, and
 * leaving them out keeps every ordinary edge's feature as it was. (A custom agent taller than 1.8 m
 * is therefore not judged for headroom.) The free height is the centre line's: a crawl space is
 * measured where the route runs through it.
 */

/** Lower than any door: a low opening. */
export const LOW_OPENING_M = 1.8;
/** Rays start this far above the floor, clear of the floor's own triangles. */
const ABOVE_FLOOR_M = 0.005;
const UP = new Vector3(0, 1, 0);

export interface Headroom {
  heightM: number;
  /** Index of the route point (in the profile's order) where it is lowest. */
  index: number;
}

/** The lowest free height under LOW_OPENING_M over the points, or null when every one has more. */
export function lowestOpening(solid: Surface, points: readonly { x: number; z: number }[], floor: readonly number[]): Headroom | null {
  const origin = new Vector3(), hit = newRayHit();
  let best: Headroom | null = null;
  points.forEach((p, i) => {
    const up = castRay(solid, origin.set(p.x, floor[i]! + ABOVE_FLOOR_M, p.z), UP, LOW_OPENING_M - ABOVE_FLOOR_M, hit);
    // Only an underside seen from below is a ceiling: a ray that meets a back started inside a
    // solid (against a sill's face, where the floor below it was read), which says nothing.
    if (!up || !up.front) return;
    const heightM = up.distance + ABOVE_FLOOR_M;
    if (heightM < LOW_OPENING_M && (!best || heightM < best.heightM)) best = { heightM, index: i };
  });
  return best;
}
