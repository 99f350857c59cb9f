import { Vector3 } from 'three';
import { castRay, newRayHit } from '../../rays/cast.ts';
import type { Surface } from '../../rays/surface.ts';

/**
 * A closed door on the route: the reference walker goes through door leaves (they open), so the
 * route crossing one means the door must be opened. Each hop between neighbouring samples is tested
 * with horizontal rays at three heights against the door leaves only.
 */

const HEIGHTS_M = [0.1, 0.5, 1.0];

export function findDoorCrossing(doors: Surface, samples: readonly { p: Vector3; floorY: number }[]): Vector3 | null {
  const origin = new Vector3(),
    dir = new Vector3(),
    hit = newRayHit();
  for (let i = 0; i + 1 < samples.length; i++) {
    const a = samples[i]!,
      b = samples[i + 1]!;
    dir.set(b.p.x - a.p.x, 0, b.p.z - a.p.z);
    const length = dir.length();
    if (length === 0) continue;
    dir.divideScalar(length);
    for (const h of HEIGHTS_M) {
      origin.set(a.p.x, a.floorY + h, a.p.z);
      if (castRay(doors, origin, dir, length + 1e-3, hit)) return hit.point.clone();
    }
  }
  return null;
}
