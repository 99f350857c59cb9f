import { Vector3, type Matrix4 } from 'three';
import type { Mark } from '../core/vqa/item.ts';

/** Numbered marks of the open question-answer item, Set-of-Mark style (numbers drawn by the label layer). */
export function MarksOverlay({ marks, frame }: { marks: Mark[]; frame: Matrix4 }) {
  return (
    <group>
      {marks.map((m) => (
        <mesh key={m.id} position={new Vector3(m.position.x, m.position.y, m.position.z).applyMatrix4(frame)} renderOrder={6}>
          <sphereGeometry args={[0.08, 16, 12]} />
          <meshBasicMaterial color="#f72585" depthTest={false} />
        </mesh>
      ))}
    </group>
  );
}
