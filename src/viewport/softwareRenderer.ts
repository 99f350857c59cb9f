/**
 * Whether WebGL is drawn on the CPU (SwiftShader, llvmpipe): a machine without a GPU, a VM, a
 * remote desktop, or headless Chromium. There the studio draws without multisampling, which costs
 * such a renderer several passes over every pixel of every frame (a labelling walk of ten segments
 * took 44 s with it and 36 s without, on two cores). Asked once, of a throwaway context.
 */
export const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

let known: boolean | undefined;

export function softwareRenderer(): boolean {
  if (known !== undefined) return known;
  known = false;
  if (typeof document === 'undefined') return known;
  const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
  if (!gl) return known;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = `${String(gl.getParameter(gl.RENDERER))} ${info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : ''}`;
  known = SOFTWARE_RENDERER.test(name);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return known;
}
