import { StableLine as Line } from './StableLine.tsx';
import type { Vector3 } from 'three';
import type { PathPreview } from '../state/store.ts';


const HOP_COLOUR = { traversable: '#1f8a4c', blocked: '#c8322b', unlabelled: '#7d8896', invalid: '#9d4edd' } as const;

/**
 * The model's route hop by hop (green: traversable for the agent, red: not, grey: unlabelled,
 * purple dashed: no such edge), the ground-truth route in blue beside it, and rings on the nodes
 * it should have started or ended at.
 */
export function PathOverlay({ preview, world }: { preview: PathPreview | null; world: Map<string, Vector3> }) {
  if (!preview) return null;
  const lift = (p: Vector3, dy: number) => p.clone().setY(p.y + dy);
  const gt = (preview.gtRoute ?? []).map((id) => world.get(id)).filter((p): p is Vector3 => !!p).map((p) => lift(p, 0.12));
  return (
    <group>
      {gt.length > 1 && <Line points={gt} color="#3a86ff" lineWidth={4} dashed dashSize={0.3} gapSize={0.15} depthTest={false} renderOrder={6} />}
      {preview.hops.map((h, i) => {
        const a = h.from ? world.get(h.from) : undefined, b = h.to ? world.get(h.to) : undefined;
        if (!a || !b) return null;
        return <Line key={i} points={[lift(a, 0.25), lift(b, 0.25)]} color={HOP_COLOUR[h.state]} lineWidth={7} dashed={h.state === 'invalid'} dashSize={0.15} gapSize={0.1} depthTest={false} renderOrder={7} />;
      })}
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
