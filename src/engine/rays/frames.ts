import { Matrix3, Matrix4 } from 'three';

/** What casting a world ray into a surface's own frame needs from its frame matrix. */
export interface FrameView {
  /** The frame itself (mesh frame → world). */
  frame: Matrix4;
  /** Y-up scans in metres: rays go to the BVH as they are, without a transform. */
  identity: boolean;
  /** World → mesh frame, and its linear part for directions. */
  toLocal: Matrix4;
  linear: Matrix3;
  /** The frame's elements when the above were worked out. */
  seen: number[];
}

const IDENTITY = new Matrix4();
const views = new WeakMap<Matrix4, FrameView>();
/** Hot loops cast at one frame again and again: the last one is kept to hand. */
let last: FrameView | null = null;

/**
 * The inverse of a frame, worked out once per frame rather than once per ray (the collider and the
 * probes cast hundreds of thousands). A frame changed in place — a new up axis or unit scale
 * (reframeMesh) — is noticed by comparing its 16 numbers, far cheaper than inverting it again.
 */
export function frameView(frame: Matrix4): FrameView {
  if (last && last.frame === frame && sameElements(last.seen, frame.elements)) return last;
  const known = views.get(frame);
  if (known && sameElements(known.seen, frame.elements)) return (last = known);
  const view = known ?? { frame, identity: true, toLocal: new Matrix4(), linear: new Matrix3(), seen: [] };
  view.seen = frame.elements.slice();
  view.identity = frame.equals(IDENTITY);
  view.toLocal.copy(frame).invert();
  view.linear.setFromMatrix4(view.toLocal);
  if (!known) views.set(frame, view);
  return (last = view);
}

function sameElements(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 16; i++) if (a[i] !== b[i]) return false;
  return true;
}
