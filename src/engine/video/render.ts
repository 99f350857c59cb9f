import {
  ACESFilmicToneMapping,
  Color,
  DirectionalLight,
  DoubleSide,
  Group,
  HemisphereLight,
  Mesh,
  PerspectiveCamera,
  Scene,
  SRGBColorSpace,
  WebGLRenderer,
  type Camera,
  type Material,
  type Object3D,
  type Plane,
  type Side,
} from 'three';
import type { WorldPose } from '../tour/poses.ts';
import { STUDIO_LOOK } from './look.ts';

/**
 * Draws the tour's frames: the scan as the studio's 3D view shows it (its own materials and
 * textures, the same background, lights and tone mapping) from a camera at each pose, into a
 * canvas of the video's size. Its own WebGL context, so the studio's view is left as it is; the
 * scan's geometries, materials and textures are shared, not copied (each context uploads its own).
 */

export interface TourRenderer {
  canvas: OffscreenCanvas | HTMLCanvasElement;
  render(pose: WorldPose): void;
  /** Draw the scan as `camera` sees it (a saved viewpoint's camera, set up by the caller). */
  renderCamera(camera: Camera): void;
  dispose(): void;
}

/** What the renderer needs of a loaded scan (the engine's LoadedMesh has it). */
export interface RenderableScan {
  object: Object3D;
  frame: import('three').Matrix4;
  doubleSided: boolean;
}

/**
 * `clip`: planes that cut the scan as the studio's slice does (what a viewpoint saved with the
 * slice on saw); none for a tour, which shows the whole scan.
 */
export function createTourRenderer(scan: RenderableScan, size: { width: number; height: number; fovDeg: number }, clip: readonly Plane[] = []): TourRenderer {
  const canvas: OffscreenCanvas | HTMLCanvasElement =
    typeof OffscreenCanvas !== 'undefined'
      ? new OffscreenCanvas(size.width, size.height)
      : Object.assign(document.createElement('canvas'), { width: size.width, height: size.height });
  // preserveDrawingBuffer: the JPEG of a sampled frame is read after the frame was handed to the encoder.
  const gl = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true, powerPreference: 'high-performance' });
  gl.setPixelRatio(1);
  gl.setSize(size.width, size.height, false);
  // As @react-three/fiber sets up the studio's view.
  gl.outputColorSpace = SRGBColorSpace;
  gl.toneMapping = ACESFilmicToneMapping;
  gl.localClippingEnabled = clip.length > 0;

  const scene = new Scene();
  scene.background = new Color(STUDIO_LOOK.background);
  scene.add(new HemisphereLight(STUDIO_LOOK.sky, STUDIO_LOOK.ground, STUDIO_LOOK.skyIntensity));
  const sun = new DirectionalLight('#ffffff', STUDIO_LOOK.sunIntensity);
  sun.position.set(...STUDIO_LOOK.sunPosition);
  scene.add(sun);
  const placed = new Group();
  placed.matrixAutoUpdate = false;
  placed.matrix.copy(scan.frame);
  const content = scan.object.clone(true);
  // Materials are cloned (cheap; textures stay shared): the renderer hangs listeners on what it
  // draws, and the clones, disposed with it, leave none on the studio's materials.
  const owned: Material[] = [];
  content.traverse((o) => {
    if (!(o instanceof Mesh)) return;
    const own = (m: Material) => {
      const c = m.clone();
      // A scan whose surfaces face away from the views above is drawn double-sided in the studio too (facing.ts).
      // The studio's slice is a way of looking, not the scan: drawn without it unless asked (then, as
      // the studio does, both sides, so the inside of a cut wall is not a hole).
      c.side = scan.doubleSided || clip.length ? DoubleSide : ((m.userData.traversaOwnSide as Side | undefined) ?? m.side);
      c.clippingPlanes = clip.length ? [...clip] : null;
      owned.push(c);
      return c;
    };
    o.material = Array.isArray(o.material) ? o.material.map(own) : own(o.material);
  });
  placed.add(content);
  scene.add(placed);
  scene.updateMatrixWorld(true);

  const camera = new PerspectiveCamera(size.fovDeg, size.width / size.height, 0.02, 1000);
  return {
    canvas,
    render(pose) {
      camera.position.set(pose.eye.x, pose.eye.y, pose.eye.z);
      camera.rotation.set(pose.pitchRad, pose.yawRad, 0, 'YXZ');
      camera.updateMatrixWorld(true);
      gl.render(scene, camera);
    },
    renderCamera(cam) {
      cam.updateMatrixWorld(true);
      gl.render(scene, cam);
    },
    dispose() {
      for (const m of owned) m.dispose();
      gl.dispose();
      gl.forceContextLoss();
    },
  };
}
