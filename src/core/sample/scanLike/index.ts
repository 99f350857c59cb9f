import { houseMesh, triangleCount, type TriangleSoup } from '../houseMesh.ts';
import type { HouseSpec } from '../houseSpec.ts';
import { addClutter, type ClutterReport } from './clutter.ts';
import { dropCeilingPatches, duplicateLayers, flipWinding, punchHoles, shuffleTriangles } from './defects.ts';
import { densify } from './density.ts';
import { addNoise, type NoiseOptions } from './noise.ts';
import { partsOf, soupOf, type Part } from './parts.ts';
import { rng, subSeed } from './random.ts';

/**
 * A generated house rewritten the way a reconstruction (HM3D, Matterport3D) looks, with nothing
 * else changed — the graph, the agents and the true answers are the house's own: dense small
 * triangles, coherent vertex noise and a floor warp, holes, inconsistent winding, shuffled order,
 * duplicate overlapping layers, missing ceiling patches, and furniture. Each defect can be had on
 * its own or all together, from a seed: the same seed gives the same scan.
 *
 * The test matrix (test/support/scanMatrix.ts: test/unit/scanMatrix/, test/scans/), `npm run scenes -- --scan-like` and
 * `npm run bench -- drive` read their scans from here.
 */
export interface ScanDefects {
  /** Longest triangle side (3–10 cm in real scans). */
  densityM?: number;
  noise?: NoiseOptions;
  /** Holes up to `maxDiameterM` across, `fraction` of the area (0.1–1 %). */
  holes?: { fraction: number; maxDiameterM: number };
  /** Inconsistent winding: this fraction of the faces turned (0–0.5). */
  flip?: number;
  shuffle?: boolean;
  /** Duplicate layers over `fraction` of the floors' and walls' area, offset 2–6 mm, with noise of their own. */
  layers?: { fraction: number; offsetM: [number, number]; sigmaM: number };
  /** Missing patches over `fraction` of the ceilings' area. */
  ceilings?: { fraction: number };
  clutter?: boolean;
}

/** The density every variant has (a reconstruction is dense before it is anything else). */
export const SCAN_DENSITY_M = 0.08;

const NOISE: NoiseOptions = { sigmaM: 0.002, correlationM: 0.05, warpM: 0.01, warpWavelengthM: 4 };
const HOLES = { fraction: 0.003, maxDiameterM: 0.15 };
const LAYERS = { fraction: 0.04, offsetM: [0.002, 0.006] as [number, number], sigmaM: 0.0015 };

/**
 * The variants of the test matrix: density alone, then density and each defect, then all of them.
 * Noise is 2 mm with a ±1 cm warp; holes 0.3 % of the area up to 15 cm; half the faces wound the
 * other way (winding then says nothing); duplicate layers over 4 %; a tenth of the ceilings missing.
 */
export const SCAN_VARIANTS = {
  dense: {},
  noisy: { noise: NOISE },
  holed: { holes: HOLES },
  wound: { flip: 0.5 },
  shuffled: { shuffle: true },
  layered: { layers: LAYERS },
  ceilings: { ceilings: { fraction: 0.1 } },
  cluttered: { clutter: true },
  all: { noise: NOISE, holes: HOLES, flip: 0.5, shuffle: true, layers: LAYERS, ceilings: { fraction: 0.1 }, clutter: true },
} satisfies Record<string, ScanDefects>;

export type ScanVariant = keyof typeof SCAN_VARIANTS;
export const SCAN_VARIANT_NAMES = Object.keys(SCAN_VARIANTS) as ScanVariant[];

export interface ScanLikeReport {
  triangles: number;
  holesRemoved: number;
  ceilingRemoved: number;
  layerTriangles: number;
  flipped: number;
  clutter: ClutterReport | null;
}

/** The house `spec` as a scan with `defects` (density `SCAN_DENSITY_M` unless told), from `seed`. */
export function scanLikeHouse(spec: HouseSpec, defects: ScanDefects, seed = 1): { soup: TriangleSoup; report: ScanLikeReport } {
  const parts = partsOf(houseMesh(spec));
  const report: ScanLikeReport = { triangles: 0, holesRemoved: 0, ceilingRemoved: 0, layerTriangles: 0, flipped: 0, clutter: null };
  if (defects.clutter) {
    const furniture: Part = { name: 'furniture', positions: [], indices: [] };
    report.clutter = addClutter(spec, furniture, rng(subSeed(seed, 'clutter')));
    parts.push(furniture);
  }
  const dense = rng(subSeed(seed, 'density'));
  for (const p of parts) densify(p, defects.densityM ?? SCAN_DENSITY_M, dense);
  if (defects.noise) addNoise(parts, defects.noise, subSeed(seed, 'noise'));
  if (defects.layers) report.layerTriangles = duplicateLayers(parts, defects.layers, rng(subSeed(seed, 'layers')), subSeed(seed, 'layer-noise'));
  if (defects.holes) report.holesRemoved = punchHoles(parts, defects.holes, rng(subSeed(seed, 'holes')));
  if (defects.ceilings) report.ceilingRemoved = dropCeilingPatches(parts, { fraction: defects.ceilings.fraction, aboveM: 2.0 }, rng(subSeed(seed, 'ceilings')));
  if (defects.flip) report.flipped = flipWinding(parts, defects.flip, rng(subSeed(seed, 'flip')));
  if (defects.shuffle) shuffleTriangles(parts, rng(subSeed(seed, 'shuffle')));
  const soup = soupOf(parts);
  report.triangles = triangleCount(soup);
  return { soup, report };
}
