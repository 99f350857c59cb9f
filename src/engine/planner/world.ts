import type { ColliderWorld } from '../collider/world.ts';
import type { SceneGeometry } from '../suggest/geometry.ts';

/** The collider world of a scan split for judging (suggest/geometry.ts): its doors apart, its lift parts solid. */
export function plannerWorld(geom: SceneGeometry): ColliderWorld {
  return { solid: geom.solid, doors: geom.doors, lifts: geom.liftParts };
}
