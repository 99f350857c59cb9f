import { BufferAttribute, BufferGeometry, Group, Mesh } from 'three';
import { describe, expect, it } from 'vitest';
import type { AgentProfile } from '../../src/core/agents.ts';
import { maxTurningLengthM, neededWidthM, SIDE_CLEARANCE_M, STEP_TOLERANCE_M, type PassageFeature, type ReasonCategory } from '../../src/core/rules.ts';
import type { TriangleSoup } from '../../src/core/sample/houseMesh.ts';
import { SAMPLE_HOUSE, type HouseSpec } from '../../src/core/sample/houseSpec.ts';
import { RUG_EDGE_M } from '../../src/core/sample/scanLike/clutter.ts';
import { scanLikeHouse, SCAN_VARIANTS, type ScanDefects, type ScanVariant } from '../../src/core/sample/scanLike/index.ts';
import { buildSampleRelease, type SampleRelease } from '../../src/core/sample/sampleRelease.ts';
import type { LoadedMesh } from '../../src/engine/mesh/types.ts';
import { driveScene, type SceneDrives } from '../../src/engine/planner/index.ts';
import { prepareGeometry, suggestScene, type SceneSuggestions } from '../../src/engine/suggest/index.ts';
import { truthRows, type GroundTruth } from './suggestTruth.ts';
import { asLoaded } from './suggestScenes.ts';
import { SECOND_HOUSE, secondHouseRelease } from './secondHouse.ts';

/**
 * The scan-realism matrix (issue: "scans as they really are"): the sample house and the second test
 * house under every scan-like variant (src/core/sample/scanLike/), driven and suggested for every
 * agent × edge (the drive both ways) and held to the houses' true answers. Where the true answer's margin is within what a
 * variant's defects can move a measurement, the case is ambiguous: the tool must then be right or
 * say that the scan cannot tell (a doubt); everywhere else it must be right. No draft may quote a
 * figure that contradicts it.
 *
 * The scans are built in memory, one mesh per named part as the GLB writer writes them, without the
 * GLB round trip (the bench and the browser test read real files): the matrix has to fit in CI.
 */

export type House = 'sample' | 'second';
const SPECS: Record<House, HouseSpec> = { sample: SAMPLE_HOUSE, second: SECOND_HOUSE };
const releases = new Map<House, SampleRelease>();
export function houseRelease(house: House): SampleRelease {
  let r = releases.get(house);
  if (!r) {
    r = house === 'sample' ? buildSampleRelease(SAMPLE_HOUSE) : secondHouseRelease();
    releases.set(house, r);
  }
  return r;
}

/** A soup as a loaded scan: one mesh per group, named after it (doors and lifts are found by name), with a BVH. */
export function loadedOfSoup(soup: TriangleSoup): LoadedMesh {
  const object = new Group();
  for (const g of soup.groups) {
    if (g.count === 0) continue;
    // The group's own vertices (contiguous in a soup), as the GLB writer cuts them: a part's bounds are its own.
    const idx = soup.indices.subarray(g.start, g.start + g.count);
    let first = Infinity,
      last = -Infinity;
    for (const i of idx) {
      if (i < first) first = i;
      if (i > last) last = i;
    }
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(soup.positions.slice(first * 3, (last + 1) * 3), 3));
    geometry.setIndex(
      new BufferAttribute(
        Uint32Array.from(idx, (i) => i - first),
        1,
      ),
    );
    const mesh = new Mesh(geometry);
    mesh.name = g.name;
    object.add(mesh);
  }
  return asLoaded(object, 'scan-like', object.matrix.clone());
}

/**
 * How far a variant's defects can move a measurement: surface noise (2 mm) moves a height by two of
 * it and a width (two jambs, their highest bumps) by six; a duplicate layer (up to 6 mm off) moves a
 * height by its offset and a width by two. Holes are read as floor; winding, order, ceilings and
 * clutter move nothing the rules read.
 */
export function uncertainty(d: ScanDefects): { heightM: number; widthM: number } {
  let heightM = 0,
    widthM = 0;
  if (d.noise) {
    heightM += 2 * d.noise.sigmaM;
    widthM += 6 * d.noise.sigmaM;
  }
  if (d.layers) {
    heightM += d.layers.offsetM[1];
    widthM += 2 * d.layers.offsetM[1];
  }
  return { heightM, widthM };
}

/** The planner's lattice: a footprint's length is decided to within it round a corner. */
const LATTICE_M = 0.02;

/**
 * Why a case is ambiguous under a variant (its truth's margin is within the defects' reach), or null.
 * With clutter every route off a node crosses a rug's 1 cm edge, a step like a sill's.
 */
export function ambiguity(feature: PassageFeature, agent: AgentProfile, u: { heightM: number; widthM: number }, rugs = false): string | null {
  const why: string[] = [];
  const stepLimit = agent.maxStepM + STEP_TOLERANCE_M;
  for (const [what, h] of [
    ['sill', feature.sillHeightM],
    ['rug edge', rugs ? RUG_EDGE_M : undefined],
  ] as const) {
    if (h !== undefined && Math.abs(h - stepLimit) <= u.heightM)
      why.push(`${what} ${h} m against a ${stepLimit.toFixed(3)} m limit, ${(Math.abs(h - stepLimit) * 1000).toFixed(0)} mm apart`);
  }
  if (feature.clearHeightM !== undefined && Math.abs(feature.clearHeightM - agent.heightM) <= u.heightM)
    why.push(`clear height ${feature.clearHeightM} m against ${agent.heightM} m`);
  const widths = [feature.clearWidthM, ...(feature.cornerWidthsM ?? [])].filter((w): w is number => w !== undefined);
  const needed = neededWidthM(agent);
  if (widths.length && Math.abs(Math.min(...widths) - needed) <= u.widthM)
    why.push(`clear width ${Math.min(...widths)} m against ${needed.toFixed(2)} m needed`);
  if (feature.cornerWidthsM && agent.shape === 'box' && agent.depthM !== null && u.widthM > 0) {
    // The drive turns the footprint with its side clearance (the collider's); the legs narrowed by the defects.
    const w = Math.min(agent.widthM, agent.depthM) + 2 * SIDE_CLEARANCE_M,
      l = Math.max(agent.widthM, agent.depthM) + 2 * SIDE_CLEARANCE_M;
    const [a, b] = feature.cornerWidthsM;
    const clean = maxTurningLengthM(a, b, w) - l,
      narrowed = maxTurningLengthM(a - u.widthM, b - u.widthM, w) - l;
    if (clean > 0 && narrowed < LATTICE_M)
      why.push(
        `the footprint turns the corner with ${(clean * 1000).toFixed(0)} mm to spare, ${(narrowed * 1000).toFixed(0)} mm with the legs narrowed by ${(u.widthM * 1000).toFixed(0)} mm: under the planner's 2 cm lattice`,
      );
  }
  return why.length ? why.join('; ') : null;
}

export interface MatrixCase extends GroundTruth {
  name: string;
  ambiguous: string | null;
}

/** Every agent × edge of a house with its truth and, under a variant, whether it is ambiguous. */
export function matrixCases(house: House, defects: ScanDefects): MatrixCase[] {
  const release = houseRelease(house);
  const names = new Map(release.scene.graph.nodes.map((n) => [n.id, n.name]));
  const u = uncertainty(defects);
  return release.profiles
    .flatMap((p) => truthRows(p.name, release.scene.labels[p.name]!))
    .map((t) => {
      const feature = release.features.edges[t.edge]!;
      const agent = release.profiles.find((p) => p.name === t.agent)!;
      return {
        ...t,
        name: t.edge
          .split('|')
          .map((id) => names.get(id))
          .join('–'),
        ambiguous: ambiguity(feature, agent, u, defects.clutter === true),
      };
    });
}

export interface MatrixRun {
  drives: SceneDrives;
  suggestions: SceneSuggestions;
  triangles: number;
}

/**
 * The matrix's density: sides of 10 cm, the coarse end of a reconstruction's 3–10 cm (the sample house
 * at ~0.7 M triangles), so the whole matrix fits the test run; `npm run bench -- drive` times the
 * ~1 M-triangle scan at 8 cm.
 */
export const MATRIX_DENSITY_M = 0.1;

/** Build the house under the variant, drive and suggest every agent × edge. */
export async function runMatrix(house: House, variant: ScanVariant, seed = 1): Promise<MatrixRun> {
  const { soup, report } = scanLikeHouse(SPECS[house], { ...SCAN_VARIANTS[variant], densityM: MATRIX_DENSITY_M }, seed);
  const loaded = loadedOfSoup(soup);
  try {
    const geom = prepareGeometry(loaded);
    const release = houseRelease(house);
    // Both ways: an edge's label holds for both directions, and a drive read its corner 1 mm wider one way.
    const drives = await driveScene(geom, release.scene.graph, release.profiles, { bothWays: true });
    const suggestions = await suggestScene(geom, release.scene.graph, release.profiles, { corroborate: false });
    return { drives, suggestions, triangles: report.triangles };
  } finally {
    loaded.dispose();
  }
}

const answer = (traversable: boolean, reason: ReasonCategory | null) => (traversable ? 'yes' : (reason ?? 'other'));

/** A draft note whose figures contradict it: "clear width 0.80 m < 0.64 m", "Sill 0.011 m higher than the 0.013 m". */
export function contradiction(note: string): string | null {
  const narrow = /clear (?:width|height) (\d+(?:\.\d+)?) m < (\d+(?:\.\d+)?) m/.exec(note);
  if (narrow && !(Number(narrow[1]) < Number(narrow[2]))) return note;
  const sill = /Sill (\d+(?:\.\d+)?) m higher than the (\d+(?:\.\d+)?) m/.exec(note);
  if (sill && !(Number(sill[1]) > Number(sill[2]))) return note;
  return null;
}

/** Hold one house × variant to its truth; print the table of what was decided, ambiguous cases with why. */
export function checkMatrix(house: House, variant: ScanVariant, run: MatrixRun): void {
  const cases = matrixCases(house, SCAN_VARIANTS[variant]);
  const lines: string[] = [];
  const wrong: string[] = [];
  const contradictions: string[] = [];
  for (const c of cases) {
    const d = run.drives.agents[c.agent]![c.edge]!;
    const back = run.drives.reverse![c.agent]![c.edge]!;
    const s = run.suggestions.agents[c.agent]![c.edge]!;
    const truth = answer(c.traversable, c.reason);
    for (const [tool, got, doubt, note] of [
      ['drive', answer(d.reached, d.reason), d.doubt, d.note],
      ['drive←', answer(back.reached, back.reason), back.doubt, back.note],
      ['suggest', answer(s.traversable, s.reason), s.doubt, s.note],
    ] as const) {
      const right = got === truth;
      const ok = right || (c.ambiguous !== null && doubt !== null);
      const flag = ok ? (right ? '' : '  (ambiguous, and it says so)') : '  <-- WRONG';
      if (!ok) wrong.push(`${tool} ${c.name} ${c.agent}: truth ${truth}, got ${got} — ${note}${doubt ? ` [doubt: ${doubt}]` : ''}`);
      if (!right || doubt || flag)
        lines.push(
          `${tool.padEnd(7)} ${c.name.padEnd(28)} ${c.agent.padEnd(12)} truth ${truth.padEnd(8)} got ${got.padEnd(8)}${doubt ? ' (doubt)' : ''}${flag}`,
        );
      const bad = contradiction(note);
      if (bad) contradictions.push(`${tool} ${c.name} ${c.agent}: ${bad}`);
    }
  }
  const ambiguous = cases.filter((c) => c.ambiguous).map((c) => `  ${c.name} ${c.agent}: ${c.ambiguous}`);
  console.log(
    `${house} house, ${variant} (${run.triangles.toLocaleString('en')} triangles): ${cases.length} agent × edge cases, ${ambiguous.length} ambiguous${ambiguous.length ? `:\n${ambiguous.join('\n')}` : ''}${lines.length ? `\n${lines.join('\n')}` : ''}`,
  );
  expect(wrong, `${house} house, ${variant}: answers other than the truth`).toEqual([]);
  expect(contradictions, `${house} house, ${variant}: drafts that contradict their own figures`).toEqual([]);
}

/** The matrix cell of one variant as a test file declares it: both houses, every agent × edge. */
export function matrixSuite(variant: ScanVariant): void {
  describe(`scans as they really are: the "${variant}" variant`, () => {
    for (const house of ['sample', 'second'] as const) {
      it(`${house} house: drive and suggest give the true answer for every agent × edge, or say the scan cannot tell where it cannot`, async () => {
        checkMatrix(house, variant, await runMatrix(house, variant));
      }, 600_000);
    }
  });
}
