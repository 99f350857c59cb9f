// Bench section: the footprint collider (src/engine/collider) — the cost of one step for a box
// (wheelchair) and a cylinder (human) on the sample house (~16 k triangles) and on its ~1 M-triangle
// version (target: well under 1 ms per step), and one auto-driven edge. Both meshes must give the
// same verdicts, or the section throws.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_PROFILES, type AgentProfile } from '../../src/core/agents.ts';
import type { Vec3 } from '../../src/core/graph.ts';
import { autoDrive, type AutoDriveResult } from '../../src/engine/collider/autoDrive.ts';
import { place } from '../../src/engine/collider/body.ts';
import { clearWidthAtAgent } from '../../src/engine/collider/readouts.ts';
import { colliderWorldFromObject, type ColliderWorld } from '../../src/engine/collider/world.ts';
import { loadMesh } from '../../src/engine/mesh/load.ts';
import { largeSample } from './largeSample.ts';
import type { BenchSection } from './run.ts';

const REPO = resolve(import.meta.dirname, '../..');
const SMALL = join(REPO, 'scenes/sample-house/house.glb');
const LARGE = join(REPO, 'scenes/generated-large/house-1m.glb');

const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;
const WHEELCHAIR = agent('WHEELCHAIR'),
  HUMAN = agent('HUMAN');
// Upper hall (node_11) → the 0.70 m door → Bedroom 1 (node_13), as in features.json and the graph.
const UPPER_HALL: Vec3 = { x: 3.37, y: 2.82, z: 4.9 };
const ROUTE: Vec3[] = [UPPER_HALL, { x: 5.6, y: 2.8, z: 4.9 }, { x: 7.29, y: 2.82, z: 3.2 }];

/** Median time of one call (ms): batches of ≥ 5 ms, 15 of them, after one warm-up batch. */
function perCall(fn: () => void): number {
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    if (performance.now() - t0 >= 5) break;
    batch *= 2;
  }
  const samples: number[] = [];
  for (let k = 0; k < 15; k++) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    samples.push((performance.now() - t0) / batch);
  }
  return samples.sort((a, b) => a - b)[7]!;
}

interface SceneTimes {
  triangles: number;
  worldMs: number;
  rows: Map<string, number>;
  drives: Map<string, { ms: number; result: AutoDriveResult }>;
}

async function measureScene(path: string): Promise<SceneTimes> {
  const bytes = readFileSync(path);
  const loaded = await loadMesh({ files: [{ name: 'house.glb', data: new Blob([bytes]) }] }, { upAxis: 'y', unitScale: 1, createWorker: () => null });
  let t0 = performance.now();
  const world: ColliderWorld = colliderWorldFromObject(loaded.object, loaded.frame);
  const worldMs = performance.now() - t0;
  // Warm the JIT up on everything timed below, so the first row is not the compiler's.
  for (const profile of [WHEELCHAIR, HUMAN]) {
    autoDrive(world, profile, ROUTE);
    const body = place(world, profile, UPPER_HALL, 1);
    for (let k = 0; k < 500; k++) body.step({ forward: k % 2 ? 0.02 : -0.02, turn: 0 });
  }
  const rows = new Map<string, number>();
  for (const [label, profile] of [
    ['box (wheelchair)', WHEELCHAIR],
    ['cylinder (human)', HUMAN],
  ] as const) {
    for (const [what, yaw] of [
      ['facing +X', Math.PI / 2],
      ['facing 45°', Math.PI / 4],
    ] as const) {
      const body = place(world, profile, UPPER_HALL, yaw);
      let k = 0;
      // Back and forth in the open hall: every call is a full step that moves (floor, body, clearance).
      rows.set(
        `step ${label}, moving, ${what}`,
        perCall(() => {
          body.step({ forward: k++ % 2 ? 0.02 : -0.02, turn: 0 });
        }),
      );
    }
    // Pressed against the door frame: the step is refused (and reported) every time.
    const stuck = place(
      world,
      profile,
      { x: 5.6 - 0.06 - (profile.shape === 'box' ? 0.52 : 0.32) - 0.005, y: 2.82, z: profile.shape === 'box' ? 4.9 : 4.9 - 0.4 },
      Math.PI / 2,
    );
    rows.set(
      `step ${label}, blocked at the door frame`,
      perCall(() => {
        stuck.step({ forward: 0.02, turn: 0 });
      }),
    );
    rows.set(
      `clear width readout ${label}`,
      perCall(() => {
        clearWidthAtAgent(stuck);
      }),
    );
  }
  const drives = new Map<string, { ms: number; result: AutoDriveResult }>();
  for (const profile of [WHEELCHAIR, HUMAN]) {
    autoDrive(world, profile, ROUTE); // warm-up
    t0 = performance.now();
    const result = autoDrive(world, profile, ROUTE);
    drives.set(profile.name, { ms: performance.now() - t0, result });
  }
  const triangles = loaded.stats.triangles;
  loaded.dispose();
  return { triangles, worldMs, rows, drives };
}

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

function verdict(r: AutoDriveResult): string {
  return r.reached
    ? `reached, narrowest ${r.measured.clearWidthM?.toFixed(3)} m`
    : `${r.contact?.kind} contact, opening ${r.measured.clearWidthM?.toFixed(3)} m`;
}

export const colliderBench: BenchSection = {
  name: 'collider',
  title: 'footprint collider steps and one auto-driven edge, sample house (~16 k triangles) vs its ~1 M-triangle version (Node)',
  async run() {
    largeSample();
    const small = await measureScene(SMALL),
      large = await measureScene(LARGE);
    console.log(`small: ${small.triangles.toLocaleString('en')} triangles; large: ${large.triangles.toLocaleString('en')} triangles`);
    console.log(`collider world (solid + door BVHs): small ${small.worldMs.toFixed(0)} ms, large ${large.worldMs.toFixed(0)} ms; median per call\n`);
    const rows: string[][] = [['', 'small', 'large (target < 1 ms)']];
    for (const [what, ms] of small.rows) {
      const big = large.rows.get(what)!;
      rows.push([what, us(ms), `${us(big)}${what.startsWith('step') && big >= 1 ? '  OVER' : ''}`]);
    }
    rows.push(['', '', '']);
    for (const [name, s] of small.drives) {
      const l = large.drives.get(name)!;
      const steps = (d: { result: AutoDriveResult }) => d.result.trajectory.length - 1;
      rows.push([`auto-drive ${name}, upper hall → Bedroom 1 (${steps(s)} steps)`, `${s.ms.toFixed(0)} ms`, `${l.ms.toFixed(0)} ms`]);
      rows.push(['  per step, incl. local search and readouts', us(s.ms / steps(s)), us(l.ms / steps(l))]);
      rows.push([`  ${verdict(s.result)}`, '', '']);
      if (verdict(s.result) !== verdict(l.result) || steps(s) !== steps(l))
        throw new Error(`${name}: the small and the large mesh disagree (${verdict(s.result)} in ${steps(s)} steps vs ${verdict(l.result)} in ${steps(l)})`);
    }
    const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows)
      console.log(
        r
          .map((c, i) => (i >= 1 ? c.padStart(w[i]!) : c.padEnd(w[i]!)))
          .join('   ')
          .trimEnd(),
      );
    console.log('\nThe small and the large mesh give the same auto-drive verdicts, widths and step counts.');
  },
};
