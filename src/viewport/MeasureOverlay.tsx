import { StableLine as Line } from './StableLine.tsx';
import { Vector3 } from 'three';
import type { MeasureReading } from '../state/store.ts';

const v = (p: { x: number; y: number; z: number }) => new Vector3(p.x, p.y, p.z);
const m = (x: number) => `${x.toFixed(3)} m`;

/** Where the readout sits: the middle of the measured segment, else the picked point. */
export function measureLabelAt(measure: MeasureReading): Vector3 | undefined {
  const pts = measure.points.map(v);
  const seg = measure.width ? [v(measure.width.a), v(measure.width.b)] : pts.length === 2 ? pts : null;
  return seg ? seg[0]!.clone().add(seg[1]!).multiplyScalar(0.5) : pts[0];
}

export function measureText(measure: MeasureReading): string | null {
  if (measure.distance) return `${m(measure.distance.total)} · horizontal ${m(measure.distance.horizontal)} · height ${m(measure.distance.vertical)}`;
  if (measure.width) return `clear width ${m(measure.width.width)}`;
  return null;
}

/** The measuring tool's points, line and readout, drawn in the scene. */
export function MeasureOverlay({ measure }: { measure: MeasureReading | null }) {
  if (!measure) return null;
  const pts = measure.points.map(v);
  const seg = measure.width ? [v(measure.width.a), v(measure.width.b)] : pts.length === 2 ? pts : null;
  return (
    <group>
      {pts.map((p, i) => (
        <mesh key={i} position={p} renderOrder={4}>
          <sphereGeometry args={[0.04, 12, 8]} />
          <meshBasicMaterial color="#ff006e" depthTest={false} />
        </mesh>
      ))}
      {seg && <Line points={seg} color="#ff006e" lineWidth={3} depthTest={false} renderOrder={4} />}
    </group>
  );
}
