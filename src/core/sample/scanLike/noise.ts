import type { Part } from './parts.ts';
import { subSeed, VALUE_NOISE_RMS, valueNoise } from './random.ts';

/**
 * Vertex noise as a reconstruction has it, spatially coherent: every vertex moves by a smooth
 * function of where it is, so two copies of one position (the corners shared by a wall and the
 * floor it stands on) move alike and the surface stays closed.
 *
 * - fine noise: each axis σ (`sigmaM`, 1–5 mm), varying over `correlationM` (a few centimetres);
 * - a warp: heights swell and sag by up to `warpM` (±1 cm) over `warpWavelengthM` (metres), as
 *   real floors do, with a fifth of that sideways.
 */
export interface NoiseOptions {
  sigmaM: number;
  correlationM?: number;
  warpM?: number;
  warpWavelengthM?: number;
}

export function addNoise(parts: readonly Part[], o: NoiseOptions, seed: number): void {
  const corr = o.correlationM ?? 0.05,
    warp = o.warpM ?? 0,
    wave = o.warpWavelengthM ?? 4;
  const sx = subSeed(seed, 'noise-x'),
    sy = subSeed(seed, 'noise-y'),
    sz = subSeed(seed, 'noise-z');
  const wy = subSeed(seed, 'warp-y'),
    wx = subSeed(seed, 'warp-x'),
    wz = subSeed(seed, 'warp-z');
  const k = o.sigmaM / VALUE_NOISE_RMS;
  // The warp: value noise on a lattice a wavelength apart, its peaks (the lattice's ±1) at ±warpM.
  const kw = warp;
  for (const p of parts) {
    const pos = p.positions;
    for (let v = 0; v < pos.length; v += 3) {
      // As the file will store it: two copies of a position equal in float32 move exactly alike.
      const x = Math.fround(pos[v]!),
        y = Math.fround(pos[v + 1]!),
        z = Math.fround(pos[v + 2]!);
      const fx = x / corr,
        fy = y / corr,
        fz = z / corr;
      let dx = k * valueNoise(fx, fy, fz, sx),
        dy = k * valueNoise(fx, fy, fz, sy),
        dz = k * valueNoise(fx, fy, fz, sz);
      if (warp > 0) {
        const gx = x / wave,
          gz = z / wave;
        dy += kw * valueNoise(gx, 0.5, gz, wy);
        dx += 0.2 * kw * valueNoise(gx, 1.5, gz, wx);
        dz += 0.2 * kw * valueNoise(gx, 2.5, gz, wz);
      }
      pos[v] = x + dx;
      pos[v + 1] = y + dy;
      pos[v + 2] = z + dz;
    }
  }
}
