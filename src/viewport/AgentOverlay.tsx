import { Line } from '@react-three/drei';
import type { DriveView } from '../state/store.ts';

/**
 * The driven agent at its true size and heading (width across, depth along the direction of
 * travel), its trajectory, and the contact that stopped it.
 */
export function AgentOverlay({ drive }: { drive: DriveView | null }) {
  if (!drive) return null;
  const { pose, heightM, widthM, depthM } = drive;
  const blocked = drive.contact !== null;
  const colour = blocked ? '#e63946' : drive.reached ? '#2a9d8f' : '#3a86ff';
  return (
    <group>
      <group position={[pose.x, pose.y + heightM / 2, pose.z]} rotation={[0, pose.yaw, 0]}>
        <mesh renderOrder={5}>
          {drive.shape === 'box' ? <boxGeometry args={[widthM, heightM, depthM]} /> : <cylinderGeometry args={[widthM / 2, widthM / 2, heightM, 32]} />}
          <meshStandardMaterial color={colour} transparent opacity={0.55} />
        </mesh>
        {/* A nose marks which way the agent faces. */}
        <mesh position={[0, heightM / 2 + 0.02, (drive.shape === 'box' ? depthM : widthM) / 2]}>
          <sphereGeometry args={[0.05, 12, 8]} />
          <meshBasicMaterial color="#ffffff" />
        </mesh>
      </group>
      {drive.trajectory.length > 1 && <Line points={drive.trajectory} color={colour} lineWidth={3} depthTest={false} renderOrder={5} />}
      {drive.contact && (
        <mesh position={drive.contact.point} renderOrder={6}>
          <sphereGeometry args={[0.07, 16, 12]} />
          <meshBasicMaterial color="#ff006e" depthTest={false} />
        </mesh>
      )}
    </group>
  );
}
