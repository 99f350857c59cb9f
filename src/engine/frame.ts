import { Matrix4 } from 'three';

/**
 * The matrix from a scan's own frame to the viewport's world (Y up, metres): Z-up scans are
 * turned −90° about X (their +Z becomes +Y), then everything is scaled by `unitScale`.
 * Graph positions stay in the scan's own frame, so mesh and graph share this one matrix.
 */
export function frameMatrix(upAxis: 'y' | 'z', unitScale: number): Matrix4 {
  const m = new Matrix4();
  if (upAxis === 'z') m.makeRotationX(-Math.PI / 2);
  return m.premultiply(new Matrix4().makeScale(unitScale, unitScale, unitScale));
}
