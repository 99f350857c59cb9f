import { StableLine as Line } from './StableLine.tsx';
import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useRef } from 'react';
import type { Group } from 'three';
import type { DriveView } from '../state/store.ts';
import { viewportHandle } from './viewportHandle.ts';

/** Playback speed of a planned motion, and the bounds on how long one takes to watch. */
const PLAY_MPS = 1.2;
const PLAY_MIN_S = 1.5;
const PLAY_MAX_S = 8;

/** How long a motion plays (seconds): at walking pace, within bounds. */
export function playSeconds(motion: DriveView['motion']): number {
  let len = 0;
  for (let i = 1; i < motion.length; i++) len += Math.hypot(motion[i]!.x - motion[i - 1]!.x, motion[i]!.z - motion[i - 1]!.z);
  return Math.min(PLAY_MAX_S, Math.max(PLAY_MIN_S, len / PLAY_MPS));
}

/** Whether the person at the screen asked their system for less motion (then a motion is not played). */
const motionQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;
const reducedMotion = () => motionQuery?.matches === true;

/**
 * The driven agent at its true size and heading (width across, depth along the direction of
 * travel), its trajectory, and what stopped it. A planned motion is played back once, pose by pose
 * as the collider drove it, moving the footprint in the frame loop (no React state per frame) —
 * unless the system asks for reduced motion: then the footprint stands where the motion ends, its
 * whole trajectory drawn, in one frame, and only Replay (asked for, so wanted) plays it.
 */
export function AgentOverlay({ drive }: { drive: DriveView | null }) {
  const body = useRef<Group>(null);
  const { invalidate } = useThree();
  const height = drive?.heightM ?? 0;
  useEffect(() => {
    viewportHandle.agentPose = () => {
      const g = body.current;
      return g ? { x: g.position.x, y: g.position.y - height / 2, z: g.position.z, yaw: g.rotation.y } : null;
    };
    return () => {
      viewportHandle.agentPose = null;
    };
  }, [height]);
  // The canvas draws on demand: a playback asked for when nothing else is drawing (Replay, the view
  // idle) must start the frames itself, or the agent stays where it is.
  const playFrom = drive?.playFrom ?? null;
  useEffect(() => {
    if (playFrom !== null) invalidate();
  }, [playFrom, invalidate]);
  useFrame(() => {
    const g = body.current;
    if (!g || !drive) return;
    const m = drive.motion;
    let p = drive.pose;
    if (drive.playFrom !== null && m.length > 1 && (drive.replayed === true || !reducedMotion())) {
      const f = Math.min(1, (performance.now() - drive.playFrom) / 1000 / playSeconds(m));
      const at = f * (m.length - 1),
        i = Math.min(m.length - 2, Math.floor(at)),
        u = at - i;
      const a = m[i]!,
        b = m[i + 1]!;
      // The shorter way round: from 179° to -179° is a 2° turn, not a spin.
      const turn = Math.atan2(Math.sin(b.yaw - a.yaw), Math.cos(b.yaw - a.yaw));
      p = { x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u, z: a.z + (b.z - a.z) * u, yaw: a.yaw + turn * u };
      if (f < 1) invalidate();
    }
    g.position.set(p.x, p.y + drive.heightM / 2, p.z);
    g.rotation.set(0, p.yaw, 0);
  });
  if (!drive) return null;
  const { pose, heightM, widthM, depthM } = drive;
  const blocked = !drive.reached && (drive.contact !== null || drive.stoppedAt !== null);
  const colour = blocked ? '#e63946' : drive.reached ? '#2a9d8f' : '#3a86ff';
  const stop = drive.contact?.point ?? drive.stoppedAt;
  return (
    <group>
      <group ref={body} position={[pose.x, pose.y + heightM / 2, pose.z]} rotation={[0, pose.yaw, 0]}>
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
      {stop && !drive.reached && (
        <mesh position={stop} renderOrder={6}>
          <sphereGeometry args={[0.07, 16, 12]} />
          <meshBasicMaterial color="#ff006e" depthTest={false} />
        </mesh>
      )}
    </group>
  );
}
