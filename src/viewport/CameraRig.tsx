import { MapControls, OrbitControls, OrthographicCamera, PerspectiveCamera } from '@react-three/drei';
import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useMemo, useRef } from 'react';
import { Vector3, type PerspectiveCamera as PerspectiveCameraImpl } from 'three';
import type { CameraMode } from '../state/store.ts';
import { WALK_KEYS } from './movementKeys.ts';
import { viewportHandle } from './viewportHandle.ts';
import { fitPerspective, fitTopZoom } from './routeFraming.ts';

/**
 * `keysBlocked`: while true (the shortcuts list is open), keys do not walk. `fit`: points to frame
 * instead of the whole scene (a scored route in the Score view), as large as the view allows.
 */
interface Props {
  mode: CameraMode;
  center: Vector3;
  size: number;
  eyeFloor: number;
  keysBlocked: () => boolean;
  fit?: readonly Vector3[] | null;
}

/**
 * Three ways to look: orbit around the scan, a north-up orthographic plan (pan and zoom only),
 * and walking at eye height (arrow keys to walk, Shift to hurry, drag to look; see movementKeys.ts).
 */
export function CameraRig({ mode, center, size, eyeFloor, keysBlocked, fit }: Props) {
  if (fit?.length && mode !== 'first') return <FittedCamera mode={mode} points={fit} size={size} />;
  if (mode === 'top') {
    return (
      <>
        <OrthographicCamera
          makeDefault
          position={[center.x, center.y + size * 2 + 10, center.z]}
          up={[0, 0, -1]}
          zoom={600 / size}
          near={0.01}
          far={size * 10 + 100}
          onUpdate={(c) => c.lookAt(center.x, center.y - 100, center.z)}
        />
        <MapControls makeDefault target={[center.x, center.y, center.z]} enableRotate={false} screenSpacePanning />
      </>
    );
  }
  if (mode === 'first') return <FirstPerson start={new Vector3(center.x, eyeFloor + 1.6, center.z)} keysBlocked={keysBlocked} />;
  return (
    <>
      <PerspectiveCamera
        makeDefault
        position={[center.x + size * 0.7, center.y + size * 0.8, center.z + size * 0.9]}
        fov={50}
        near={0.05}
        far={size * 20 + 100}
      />
      <OrbitControls makeDefault target={[center.x, center.y, center.z]} enableDamping={false} />
    </>
  );
}

/** The camera fitted to a route: from above at an angle (orbit) or straight down (top), refitted when the view changes size. */
function FittedCamera({ mode, points, size }: { mode: CameraMode; points: readonly Vector3[]; size: number }) {
  const view = useThree((s) => s.size);
  // Memoised on the points and the view's size: the same objects on every render leave the camera
  // where the user orbited it until the route or the view changes.
  const top = useMemo(() => fitTopZoom(points, view.width, view.height), [points, view.width, view.height]);
  const persp = useMemo(() => fitPerspective(points, view.width / Math.max(1, view.height), 50), [points, view.width, view.height]);
  const topTarget = useMemo(() => [top.center.x, top.center.y, top.center.z] as const, [top]);
  if (mode === 'top') {
    const { center, zoom } = top;
    return (
      <>
        <OrthographicCamera
          makeDefault
          position={[center.x, center.y + size * 2 + 10, center.z]}
          up={[0, 0, -1]}
          zoom={zoom}
          near={0.01}
          far={size * 10 + 100}
          onUpdate={(c) => c.lookAt(center.x, center.y - 100, center.z)}
        />
        <MapControls makeDefault target={topTarget as unknown as [number, number, number]} enableRotate={false} screenSpacePanning />
      </>
    );
  }
  const { position, target } = persp;
  return (
    <>
      <PerspectiveCamera makeDefault position={position} fov={50} near={0.05} far={size * 20 + 100} />
      <OrbitControls makeDefault target={target} enableDamping={false} />
    </>
  );
}

const WALKING: readonly string[] = [WALK_KEYS.forward, WALK_KEYS.back, WALK_KEYS.left, WALK_KEYS.right];

function FirstPerson({ start, keysBlocked }: { start: Vector3; keysBlocked: () => boolean }) {
  const cam = useRef<PerspectiveCameraImpl>(null);
  const keys = useRef(new Set<string>());
  const look = useRef({ yaw: 0, pitch: 0 });
  // When the walk last moved (or a walking key went down): the walk covers the time since, so its
  // pace is the same however slowly frames come (a software renderer draws a few a second), and a
  // frame after a pause does not jump (at most half a second's walk in one frame).
  const walkedAt = useRef(0);
  const { gl, invalidate } = useThree();

  // A tour walked by hand records this camera (features/tour/app/tour.ts polls it while recording).
  useEffect(() => {
    viewportHandle.walkPose = () => {
      const p = cam.current?.position ?? start;
      return { eye: { x: p.x, y: p.y, z: p.z }, yawRad: look.current.yaw, pitchRad: look.current.pitch };
    };
    return () => {
      viewportHandle.walkPose = null;
    };
  }, [start]);

  useEffect(() => {
    const el = gl.domElement;
    let dragging = false;
    const down = (e: PointerEvent) => {
      if (e.button === 0) dragging = true;
    };
    const up = () => {
      dragging = false;
    };
    const move = (e: PointerEvent) => {
      if (!dragging) return;
      look.current.yaw -= e.movementX * 0.004;
      look.current.pitch = Math.max(-1.4, Math.min(1.4, look.current.pitch - e.movementY * 0.004));
      invalidate();
    };
    const kd = (e: KeyboardEvent) => {
      if (!WALKING.includes(e.key) || keysBlocked()) return;
      if (!WALKING.some((x) => keys.current.has(x))) walkedAt.current = performance.now();
      keys.current.add(e.key);
      keys.current.add(e.shiftKey ? WALK_KEYS.hurry : '');
      invalidate();
      e.preventDefault();
    };
    const ku = (e: KeyboardEvent) => {
      keys.current.delete(e.key);
      if (!e.shiftKey) keys.current.delete(WALK_KEYS.hurry);
    };
    el.addEventListener('pointerdown', down);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointermove', move);
    window.addEventListener('keydown', kd);
    window.addEventListener('keyup', ku);
    return () => {
      el.removeEventListener('pointerdown', down);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointermove', move);
      window.removeEventListener('keydown', kd);
      window.removeEventListener('keyup', ku);
    };
  }, [gl, invalidate, keysBlocked]);

  useFrame(() => {
    const c = cam.current;
    if (!c) return;
    c.rotation.set(look.current.pitch, look.current.yaw, 0, 'YXZ');
    const k = keys.current;
    const now = performance.now();
    const dt = Math.min((now - walkedAt.current) / 1000, 0.5);
    walkedAt.current = now;
    const speed = (k.has(WALK_KEYS.hurry) ? 3 : 1.2) * dt;
    const fwd = new Vector3(-Math.sin(look.current.yaw), 0, -Math.cos(look.current.yaw));
    const right = new Vector3(-fwd.z, 0, fwd.x);
    if (k.has(WALK_KEYS.forward)) c.position.addScaledVector(fwd, speed);
    if (k.has(WALK_KEYS.back)) c.position.addScaledVector(fwd, -speed);
    if (k.has(WALK_KEYS.right)) c.position.addScaledVector(right, speed);
    if (k.has(WALK_KEYS.left)) c.position.addScaledVector(right, -speed);
    if (WALKING.some((x) => k.has(x))) invalidate();
  });

  return <PerspectiveCamera ref={cam} makeDefault position={start} fov={70} near={0.02} far={500} />;
}
