import { useFrame } from '@react-three/fiber';
import { Vector3 } from 'three';

/**
 * Text labels over the 3D view as ONE DOM layer beside the canvas (not a React root per label):
 * React renders the label elements once; on each rendered frame the projector only moves them,
 * so per-frame work stays out of React.
 */
export interface LabelAnchor {
  world: Vector3;
  el: HTMLElement | null;
  hidden: boolean;
}
export type LabelAnchors = Map<string, LabelAnchor>;

const v = new Vector3();

export function LabelProjector({ anchors }: { anchors: LabelAnchors }) {
  useFrame(({ camera, size }) => {
    for (const a of anchors.values()) {
      if (!a.el) continue;
      v.copy(a.world).project(camera);
      const off = a.hidden || v.z > 1 || v.z < -1 || Math.abs(v.x) > 1.2 || Math.abs(v.y) > 1.2;
      a.el.style.display = off ? 'none' : '';
      if (!off) a.el.style.transform = `translate(-50%, -100%) translate(${((v.x + 1) / 2) * size.width}px, ${((1 - v.y) / 2) * size.height}px)`;
    }
  });
  return null;
}

/** Register a label element under `key` at a world point (call from a ref callback). */
export function anchor(anchors: LabelAnchors, key: string, world: Vector3, hidden: boolean) {
  return (el: HTMLElement | null) => {
    if (el) anchors.set(key, { world, el, hidden });
    else anchors.delete(key);
  };
}
