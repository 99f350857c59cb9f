import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';
import { OrthographicCamera, PerspectiveCamera, Vector3 } from 'three';
import type { CameraMode, StudioStore } from '../state/store.ts';
import { viewportHandle } from './viewportHandle.ts';

type Controls = { target: Vector3; update: () => void } | null;

/** The last camera request carried out (requests are numbered). */
let applied = -1;

/** Save the camera as a viewpoint (pose + thumbnail) and move it back to one on request. */
export function CameraMemory({ store, mode }: { store: StudioStore; mode: CameraMode }) {
  const { camera, gl, scene, get, invalidate, size } = useThree();

  useEffect(() => {
    viewportHandle.capture = () => {
      const controls = get().controls as unknown as Controls;
      gl.render(scene, camera);
      const src = gl.domElement;
      const w = 160,
        h = Math.max(1, Math.round((160 * src.height) / Math.max(1, src.width)));
      const small = document.createElement('canvas');
      small.width = w;
      small.height = h;
      small.getContext('2d')?.drawImage(src, 0, 0, w, h);
      const t = controls?.target ?? new Vector3();
      // An empty canvas gives "data:,": keep the viewpoint without a picture rather than store an invalid one.
      const thumbnail = small.toDataURL('image/jpeg', 0.75);
      return {
        pose: {
          mode,
          position: { x: camera.position.x, y: camera.position.y, z: camera.position.z },
          target: { x: t.x, y: t.y, z: t.z },
          ...(camera instanceof PerspectiveCamera ? { fov: camera.fov } : {}),
          ...(camera instanceof OrthographicCamera ? { zoom: camera.zoom } : {}),
        },
        ...(thumbnail.startsWith('data:image/jpeg;base64,') ? { thumbnail } : {}),
        size: { width: size.width, height: size.height },
      };
    };
    return () => {
      viewportHandle.capture = null;
    };
  }, [camera, gl, scene, get, mode, size]);

  useEffect(() => {
    const apply = () => {
      const req = store.getState().ephemeral.cameraRequest;
      if (!req || req.n === applied || req.camera.mode !== mode) return;
      const controls = get().controls as unknown as Controls;
      if (!controls && mode !== 'first') {
        requestAnimationFrame(apply);
        return;
      } // the controls mount with this camera
      applied = req.n;
      camera.position.set(req.camera.position.x, req.camera.position.y, req.camera.position.z);
      if (camera instanceof OrthographicCamera && req.camera.zoom) {
        camera.zoom = req.camera.zoom;
        camera.updateProjectionMatrix();
      }
      if (controls) {
        controls.target.set(req.camera.target.x, req.camera.target.y, req.camera.target.z);
        controls.update();
      } else camera.lookAt(req.camera.target.x, req.camera.target.y, req.camera.target.z);
      invalidate();
    };
    apply(); // a request made together with a switch of camera mode arrives before this camera mounts
    return store.subscribe((s, prev) => {
      if (s.ephemeral.cameraRequest !== prev.ephemeral.cameraRequest) apply();
    });
  }, [store, camera, get, invalidate, mode]);
  return null;
}
