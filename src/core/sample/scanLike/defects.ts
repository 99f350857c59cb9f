import { filterTriangles, type Part } from './parts.ts';
import { drawPatches } from './patches.ts';
import { between, VALUE_NOISE_RMS, valueNoise } from './random.ts';

/**
 * The defects of a reconstruction that are not density or noise, each on the parts in place:
 * holes, duplicate layers, missing ceiling patches, inconsistent winding and shuffled order.
 */

/**
 * Holes where the scanner saw nothing (glass, mirrors, dark or shiny surfaces, under furniture):
 * round patches from a single triangle up to ~`maxDiameterM` across, in floors, walls and
 * ceilings alike, until `fraction` of the area is gone.
 */
export function punchHoles(parts: readonly Part[], o: { fraction: number; maxDiameterM: number }, r: () => number): number {
  const patches = drawPatches(parts, { fraction: o.fraction, radiusM: [0, o.maxDiameterM / 2] }, r);
  return removePatches(patches);
}

/**
 * Missing ceiling patches (a ceiling too far or too dark for the sensor): larger patches of the
 * surfaces that face down above head height, `fraction` of their area.
 */
export function dropCeilingPatches(parts: readonly Part[], o: { fraction: number; aboveM: number }, r: () => number): number {
  const patches = drawPatches(
    parts,
    {
      fraction: o.fraction,
      radiusM: [0.3, 0.8],
      eligible: (s) => s.ny < -0.9 * 2 * s.area && s.cy > o.aboveM,
    },
    r,
  );
  return removePatches(patches);
}

function removePatches(patches: ReturnType<typeof drawPatches>): number {
  const byPart = new Map<Part, Set<number>>();
  for (const p of patches) {
    const set = byPart.get(p.part) ?? new Set<number>();
    for (const t of p.triangles) set.add(t);
    byPart.set(p.part, set);
  }
  let removed = 0;
  for (const [part, set] of byPart) removed += filterTriangles(part, (t) => !set.has(t));
  return removed;
}

/**
 * Duplicate overlapping layers, where two sweeps of the same surface were fused a few millimetres
 * apart: patches of floors and walls copied, offset along the surface's normal by `offsetM` either
 * way, with noise of their own (so the two layers cross each other here and there).
 */
export function duplicateLayers(
  parts: readonly Part[],
  o: { fraction: number; offsetM: [number, number]; sigmaM: number },
  r: () => number,
  seed: number,
): number {
  const patches = drawPatches(parts, { fraction: o.fraction, radiusM: [0.2, 0.7], eligible: (s, p) => p.name === 'floor' || p.name === 'wall' }, r);
  let added = 0;
  const k = o.sigmaM / VALUE_NOISE_RMS;
  for (const { part, triangles, normal } of patches) {
    const off = between(r, o.offsetM[0], o.offsetM[1]) * (r() < 0.5 ? -1 : 1);
    const copy = new Map<number, number>();
    const pos = part.positions;
    const dup = (v: number): number => {
      let c = copy.get(v);
      if (c === undefined) {
        const x = pos[v * 3]!,
          y = pos[v * 3 + 1]!,
          z = pos[v * 3 + 2]!;
        const d = off + k * valueNoise(x / 0.05, y / 0.05, z / 0.05, seed);
        pos.push(x + normal[0] * d, y + normal[1] * d, z + normal[2] * d);
        c = pos.length / 3 - 1;
        copy.set(v, c);
      }
      return c;
    };
    for (const t of triangles) {
      part.indices.push(dup(part.indices[t * 3]!), dup(part.indices[t * 3 + 1]!), dup(part.indices[t * 3 + 2]!));
      added++;
    }
  }
  return added;
}

/** Inconsistent winding: `fraction` of the triangles turned to face the other way. */
export function flipWinding(parts: readonly Part[], fraction: number, r: () => number): number {
  let flipped = 0;
  for (const p of parts) {
    for (let t = 0; t < p.indices.length / 3; t++) {
      if (r() >= fraction) continue;
      const b = p.indices[t * 3 + 1]!;
      p.indices[t * 3 + 1] = p.indices[t * 3 + 2]!;
      p.indices[t * 3 + 2] = b;
      flipped++;
    }
  }
  return flipped;
}

/** Triangle order shuffled within each part, and each triangle's corners rotated (its winding kept). */
export function shuffleTriangles(parts: readonly Part[], r: () => number): void {
  for (const p of parts) {
    const n = p.indices.length / 3;
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const out = new Array<number>(n * 3);
    order.forEach((t, i) => {
      const s = Math.floor(r() * 3);
      for (let c = 0; c < 3; c++) out[i * 3 + c] = p.indices[t * 3 + ((c + s) % 3)]!;
    });
    p.indices = out;
  }
}
