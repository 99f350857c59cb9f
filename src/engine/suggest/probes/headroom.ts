/**
 * The free height over the route: the terrain's free height over the floor under every centimetre
 * of it (profile.ts). The lowest is the route's low opening — a crawl space, a table it passes under,
 * a low lintel — which the headroom rule (rules.ts 4b) judges per agent. Only heights under 1.8 m
 * count as one, above the tallest CapNav agent (the 1.7 m human): a door (2.0–2.1 m, a little less
 * over a threshold) or a ceiling stops none of the agents, and leaving them out keeps every ordinary
 * edge's feature as it was. (A custom agent taller than 1.8 m is therefore not judged for headroom.)
 * The free height is the centre line's: a crawl space is measured where the route runs through it.
 */

/** Lower than any door: a low opening. */
export const LOW_OPENING_M = 1.8;

export interface Headroom {
  heightM: number;
  /** Index of the route point (in the profile's order) where it is lowest. */
  index: number;
}

/** The lowest free height under LOW_OPENING_M over the route's points, or null when every one has more. */
export function lowestOpening(headroom: readonly number[]): Headroom | null {
  let best: Headroom | null = null;
  headroom.forEach((heightM, index) => {
    if (heightM < LOW_OPENING_M && (!best || heightM < best.heightM)) best = { heightM, index };
  });
  return best;
}
