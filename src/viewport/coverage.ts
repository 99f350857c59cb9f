import { Color, WebGLRenderTarget, type Camera, type Object3D, type WebGLRenderer } from 'three';

/** Side of the square the scan is drawn into: enough to tell 0.5 % of a view from nothing, and cheap to read back. */
const SIZE = 64;

/**
 * The share of `camera`'s view that `root` covers when drawn alone, with its own materials and
 * sides (so culled back faces, zero-area triangles and NaN vertices count as the nothing they
 * draw). It is drawn into a small transparent target; a pixel is covered when something wrote its
 * alpha. One extra draw of the scan: this runs once after a scan appears or is re-oriented.
 *
 * The pixels are read back asynchronously (a pixel buffer and a fence): a synchronous read waits on
 * the page's thread for the GPU to finish drawing, which for a million-triangle scan on a software
 * GPU froze the page for 1.7–5 s.
 */
export async function viewCoverage(gl: WebGLRenderer, root: Object3D, camera: Camera): Promise<number> {
  const target = new WebGLRenderTarget(SIZE, SIZE);
  const before = { target: gl.getRenderTarget(), color: gl.getClearColor(new Color()), alpha: gl.getClearAlpha(), autoClear: gl.autoClear };
  const pixels = new Uint8Array(SIZE * SIZE * 4);
  let read: Promise<unknown>;
  try {
    gl.setRenderTarget(target);
    gl.setClearColor(0x000000, 0);
    gl.clear();
    gl.autoClear = false;
    gl.render(root, camera);
    read = gl.readRenderTargetPixelsAsync(target, 0, 0, SIZE, SIZE, pixels);
  } finally {
    gl.setRenderTarget(before.target);
    gl.setClearColor(before.color, before.alpha);
    gl.autoClear = before.autoClear;
  }
  try {
    await read;
  } finally {
    target.dispose();
  }
  let covered = 0;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) covered++;
  return covered / (SIZE * SIZE);
}
