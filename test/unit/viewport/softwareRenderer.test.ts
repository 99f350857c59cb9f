import { describe, expect, it } from 'vitest';
import { SOFTWARE_RENDERER, softwareRenderer } from '../../../src/viewport/softwareRenderer.ts';

describe('telling a software WebGL renderer from a GPU', () => {
  it("names SwiftShader, llvmpipe and Windows' basic driver as software, real GPUs not", () => {
    expect(SOFTWARE_RENDERER.test('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)')).toBe(true);
    expect(SOFTWARE_RENDERER.test('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(SOFTWARE_RENDERER.test('ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0)')).toBe(true);
    expect(SOFTWARE_RENDERER.test('ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe(false);
    expect(SOFTWARE_RENDERER.test('Apple M2')).toBe(false);
    expect(SOFTWARE_RENDERER.test('Mesa Intel(R) UHD Graphics 620 (KBL GT2)')).toBe(false);
  });

  it('outside a page (the command line, a test) there is no renderer to ask: not software', () => {
    expect(softwareRenderer()).toBe(false);
  });
});
