import { Matrix4, OrthographicCamera, PerspectiveCamera, Plane, Vector3, type Camera } from 'three';
import type { Mark, Viewpoint } from '../../core/vqa/item.ts';
import { createTourRenderer, type RenderableScan } from './render.ts';

/** A view saved before views kept their size is drawn at this size. */
const DEFAULT_SIZE = { width: 1280, height: 720 };
/** Marks as the studio draws them: a pink disc with the number in white, the label beside it. */
const MARK_PINK = '#f72585';

/** The camera a saved viewpoint describes, for a picture `width` × `height` (the studio's view scaled to it). */
export function viewpointCamera(v: Viewpoint, width: number, height: number): Camera {
  const c = v.camera,
    size = v.size ?? DEFAULT_SIZE;
  let camera: PerspectiveCamera | OrthographicCamera;
  if (c.mode === 'top') {
    // As the studio's top view: pixels-wide frustum, zoom in pixels per metre of the saved view's size.
    const o = new OrthographicCamera(-width / 2, width / 2, height / 2, -height / 2, 0.01, 10_000);
    o.zoom = (c.zoom ?? 1) * (width / size.width);
    o.up.set(0, 0, -1);
    camera = o;
  } else {
    camera = new PerspectiveCamera(c.fov ?? 50, width / height, 0.02, 10_000);
  }
  camera.position.set(c.position.x, c.position.y, c.position.z);
  camera.lookAt(c.target.x, c.target.y, c.target.z);
  camera.updateProjectionMatrix();
  camera.updateMatrixWorld(true);
  return camera;
}

/** Where each mark falls in the picture (pixels from the top left), and whether it is in front of the camera and inside the picture. */
export function markPixels(
  camera: Camera,
  marks: readonly Mark[],
  frame: Matrix4,
  width: number,
  height: number,
): { mark: Mark; x: number; y: number; inView: boolean }[] {
  return marks.map((mark) => {
    const p = new Vector3(mark.position.x, mark.position.y, mark.position.z).applyMatrix4(frame).project(camera);
    const x = ((p.x + 1) / 2) * width,
      y = ((1 - p.y) / 2) * height;
    return { mark, x, y, inView: p.z >= -1 && p.z <= 1 && x >= 0 && x <= width && y >= 0 && y <= height };
  });
}

export interface SetOfMarkImage {
  png: Blob;
  width: number;
  height: number;
  /** Marks that fall outside the picture or behind the camera (not drawn). */
  outside: number[];
}

/**
 * A viewpoint rendered with the item's numbered marks on it, Set-of-Mark style (as MetaVQA-style
 * prompting gives a model): the scan as the studio draws it from the saved camera, cut by the slice
 * the view was saved with, every mark a numbered disc with its label. Browser only (WebGL, 2D canvas).
 */
export async function renderSetOfMark(scan: RenderableScan, view: Viewpoint, marks: readonly Mark[], width = 1280): Promise<SetOfMarkImage> {
  const size = view.size ?? DEFAULT_SIZE;
  const height = Math.max(1, Math.round((width * size.height) / size.width));
  const clip = view.slice
    ? [new Plane(new Vector3(0, -1, 0), view.slice.height), ...(view.slice.below !== null ? [new Plane(new Vector3(0, 1, 0), -view.slice.below)] : [])]
    : [];
  const renderer = createTourRenderer(scan, { width, height, fovDeg: view.camera.fov ?? 50 }, clip);
  try {
    const camera = viewpointCamera(view, width, height);
    renderer.renderCamera(camera);
    const out = new OffscreenCanvas(width, height);
    const g = out.getContext('2d')!;
    g.drawImage(renderer.canvas as CanvasImageSource, 0, 0);
    const placed = markPixels(camera, marks, scan.frame, width, height);
    const r = Math.max(10, Math.round(width / 80));
    g.font = `700 ${Math.round(r * 1.2)}px system-ui, sans-serif`;
    g.textBaseline = 'middle';
    for (const { mark, x, y, inView } of placed) {
      if (!inView) continue;
      g.beginPath();
      g.arc(x, y, r, 0, 2 * Math.PI);
      g.fillStyle = MARK_PINK;
      g.fill();
      g.lineWidth = 2;
      g.strokeStyle = '#ffffff';
      g.stroke();
      g.fillStyle = '#ffffff';
      g.textAlign = 'center';
      g.fillText(String(mark.number), x, y + 1);
      if (mark.label) {
        g.textAlign = 'left';
        const tx = x + r + 4,
          w = g.measureText(mark.label).width;
        g.fillStyle = 'rgba(255,255,255,0.85)';
        g.fillRect(tx - 2, y - r * 0.8, w + 4, r * 1.6);
        g.fillStyle = '#9d174d';
        g.fillText(mark.label, tx, y + 1);
      }
    }
    return { png: await out.convertToBlob({ type: 'image/png' }), width, height, outside: placed.filter((p) => !p.inView).map((p) => p.mark.number) };
  } finally {
    renderer.dispose();
  }
}
