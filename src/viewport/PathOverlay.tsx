import { StableLine as Line } from './StableLine.tsx';
import type { Vector3 } from 'three';
import type { PathPreview } from '../state/store.ts';

const HOP_COLOUR = { traversable: '#1f8a4c', blocked: '#c8322b', unlabelled: '#7d8896', invalid: '#9d4edd' } as const;
/** The two models' colours when their routes for one task are compared (the legend uses the same). */
export const COMPARE_COLOURS = ['#0f766e', '#e76f51'] as const;

type Hops = NonNullable<PathPreview['compare']>;

/** A horizontal offset of `by` metres square to the hop a → b (none for a vertical hop). */
function sideways(a: Vector3, b: Vector3, by: number): Vector3 {
  const dx = b.x - a.x,
    dz = b.z - a.z,
    len = Math.hypot(dx, dz);
  return len < 1e-6 ? a.clone().set(0, 0, 0) : a.clone().set((-dz / len) * by, 0, (dx / len) * by);
}

/**
 * The model's route hop by hop (green: traversable for the agent, red: not, grey: unlabelled,
 * purple dashed: no such edge), the ground-truth route in blue beside it, and rings on the nodes
 * it should have started or ended at. The hop stepped to is drawn thicker and the others faded.
 * With a second model's route, each route takes its model's colour (teal, orange; side by side,
 * the second dashed), and a red dot marks every hop not traversable for the agent.
 */
export function PathOverlay({ preview, world }: { preview: PathPreview | null; world: Map<string, Vector3> }) {
  if (!preview) return null;
  const lift = (p: Vector3, dy: number) => p.clone().setY(p.y + dy);
  const gt = (preview.gtRoute ?? [])
    .map((id) => world.get(id))
    .filter((p): p is Vector3 => !!p)
    .map((p) => lift(p, 0.12));
  const comparing = !!preview.compare;
  const focus = preview.focusHop ?? null;
  const route = (hops: Hops, which: 0 | 1) =>
    hops.map((h, i) => {
      const a = h.from ? world.get(h.from) : undefined,
        b = h.to ? world.get(h.to) : undefined;
      if (!a || !b) return null;
      const dy = which === 0 ? 0.25 : 0.4;
      const focused = which === 0 && focus === i,
        faded = which === 0 && focus !== null && focus !== i;
      const colour = comparing ? COMPARE_COLOURS[which] : HOP_COLOUR[h.state];
      // Compared, the two routes run side by side (0.12 m either side of the hop, seen from above as
      // well) and the second is dashed, so a hop both models took shows both.
      const side = comparing ? sideways(a, b, which === 0 ? -0.12 : 0.12) : null;
      const [p, q] = side ? [lift(a, dy).add(side), lift(b, dy).add(side)] : [lift(a, dy), lift(b, dy)];
      return (
        <group key={`${which}:${i}`}>
          <Line
            points={[p, q]}
            color={colour}
            lineWidth={focused ? 12 : 7}
            dashed={h.state === 'invalid' || (comparing && which === 1)}
            dashSize={0.15}
            gapSize={0.1}
            transparent={faded}
            opacity={faded ? 0.35 : 1}
            depthTest={false}
            renderOrder={focused ? 9 : 7}
          />
          {comparing && h.state !== 'traversable' && (
            <mesh position={p.clone().add(q).multiplyScalar(0.5)} renderOrder={10}>
              <sphereGeometry args={[0.12, 16, 12]} />
              <meshBasicMaterial color={HOP_COLOUR[h.state]} depthTest={false} />
            </mesh>
          )}
        </group>
      );
    });
  return (
    <group>
      {gt.length > 1 && <Line points={gt} color="#3a86ff" lineWidth={4} dashed dashSize={0.3} gapSize={0.15} depthTest={false} renderOrder={6} />}
      {route(preview.hops, 0)}
      {preview.compare && route(preview.compare, 1)}
      {[preview.wrongStart, preview.wrongEnd].map((id, i) => {
        const p = id ? world.get(id) : undefined;
        return p ? (
          <mesh key={i} position={lift(p, 0.05)} rotation={[-Math.PI / 2, 0, 0]} renderOrder={8}>
            <ringGeometry args={[0.3, 0.42, 32]} />
            <meshBasicMaterial color="#ff006e" depthTest={false} />
          </mesh>
        ) : null;
      })}
    </group>
  );
}
