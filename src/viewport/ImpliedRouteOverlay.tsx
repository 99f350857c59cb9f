import type { Vector3 } from 'three';
import type { ImpliedRoute } from '../core/impliedRoute.ts';
import { StableLine as Line } from './StableLine.tsx';

/** The implied route's colour, here and in the review panel's route line. */
export const IMPLIED_ROUTE_COLOUR = '#7b2cbf';

/**
 * The route a reviewed question implies (core/impliedRoute.ts), drawn over the graph: each leg
 * between the question's consecutive waypoints along the graph, a leg the graph does not connect
 * as a dashed red straight line between its ends.
 */
export function ImpliedRouteOverlay({ route, world }: { route: ImpliedRoute | null; world: Map<string, Vector3> }) {
  if (!route) return null;
  const lift = (p: Vector3) => p.clone().setY(p.y + 0.3);
  return (
    <group>
      {route.legs.map((leg, i) => {
        const ids = leg.path ?? [leg.from, leg.to];
        const pts = ids
          .map((id) => world.get(id))
          .filter((p): p is Vector3 => !!p)
          .map(lift);
        if (pts.length < 2) return null;
        return leg.path ? (
          <Line key={i} points={pts} color={IMPLIED_ROUTE_COLOUR} lineWidth={8} depthTest={false} renderOrder={8} />
        ) : (
          <Line key={i} points={pts} color="#c8322b" lineWidth={5} dashed dashSize={0.25} gapSize={0.15} depthTest={false} renderOrder={8} />
        );
      })}
    </group>
  );
}
