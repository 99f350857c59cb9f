/**
 * Seeded randomness for the scan-like variants: the same seed gives the same scan, byte for byte,
 * on every machine (no Math.random, no clock).
 */

/** mulberry32: a small, fast 32-bit generator; returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform draw in [lo, hi). */
export const between = (r: () => number, lo: number, hi: number): number => lo + (hi - lo) * r();

/** A seed derived from another and a label, so each defect draws from its own stream. */
export function subSeed(seed: number, label: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A hash of an integer lattice point and a channel to [-1, 1]. */
function latticeValue(i: number, j: number, k: number, seed: number): number {
  let h = seed >>> 0;
  h = Math.imul(h ^ (i | 0), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (j | 0), 0xc2b2ae35) >>> 0;
  h = Math.imul(h ^ (k | 0), 0x27d4eb2f) >>> 0;
  h = (h ^ (h >>> 15)) >>> 0;
  h = Math.imul(h, 0x2c1b3c6d) >>> 0;
  h = (h ^ (h >>> 12)) >>> 0;
  return (h / 4294967295) * 2 - 1;
}

const fade = (t: number) => t * t * (3 - 2 * t);

/**
 * Value noise in 3D: lattice values at integer points, blended with a smooth step. Continuous in
 * the position, so two copies of one vertex (or two vertices a hair apart) move alike. Its root
 * mean square is about 0.37 (`VALUE_NOISE_RMS`); divide by it for unit spread.
 */
export function valueNoise(x: number, y: number, z: number, seed: number): number {
  const i = Math.floor(x),
    j = Math.floor(y),
    k = Math.floor(z);
  const u = fade(x - i),
    v = fade(y - j),
    w = fade(z - k);
  const c000 = latticeValue(i, j, k, seed),
    c100 = latticeValue(i + 1, j, k, seed);
  const c010 = latticeValue(i, j + 1, k, seed),
    c110 = latticeValue(i + 1, j + 1, k, seed);
  const c001 = latticeValue(i, j, k + 1, seed),
    c101 = latticeValue(i + 1, j, k + 1, seed);
  const c011 = latticeValue(i, j + 1, k + 1, seed),
    c111 = latticeValue(i + 1, j + 1, k + 1, seed);
  const x00 = c000 + u * (c100 - c000);
  const x10 = c010 + u * (c110 - c010);
  const x01 = c001 + u * (c101 - c001);
  const x11 = c011 + u * (c111 - c011);
  const y0 = x00 + v * (x10 - x00),
    y1 = x01 + v * (x11 - x01);
  return y0 + w * (y1 - y0);
}

/** Measured over 10^6 random points (test/unit/core/sample/scanLike.test.ts checks it). */
export const VALUE_NOISE_RMS = 0.37;
