import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runBenchPage } from './browserPage.ts';
import { largeSample } from './largeSample.ts';
import type { BenchSection } from './run.ts';

const REPO = resolve(import.meta.dirname, '../..');
const LARGE = join(REPO, 'scenes/generated-large/house-1m.glb');

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const us = (x: number) => `${(x * 1000).toFixed(1)} µs`;

interface Picks {
  pick: number;
  hits: number;
}
interface Result {
  triangles: number;
  bytes: number;
  timings: Record<string, number>;
  /** Picks through the app's caster (engine/rays): as the viewport casts them, open and sliced, and as the collider does. */
  traversa: { load: number; longestMainThreadTask: number; picks: number; open: Picks; sliced: Picks; collider: Picks; slice: number };
  plain: { load: number; longestMainThreadTask: number; pick: number; hits: number; slicedHits: number; picks: number };
  disagreements: number;
}

export const meshBench: BenchSection = {
  name: 'mesh',
  title: "~1 M-triangle sample in headless Chromium: file to interactive and floor picks through the app's caster, against a plain three.js load",
  async run() {
    largeSample();
    const r = await runBenchPage<Result>('mesh', 'runMeshBench', [{ name: 'house-1m.glb', data: readFileSync(LARGE) }]);
    const t = r.traversa;
    console.log(`${r.triangles.toLocaleString('en')} triangles, ${(r.bytes / 1e6).toFixed(1)} MB GLB, 2 cores, SwiftShader (no GPU)\n`);
    const rows = [
      ['', 'Traversa (BVH in a worker)', 'plain GLTFLoader (no BVH)'],
      ['file → interactive', `${ms(r.traversa.load)}  (target < 2000 ms)`, `${ms(r.plain.load)}  (not pickable fast)`],
      ['longest main-thread task', ms(r.traversa.longestMainThreadTask), ms(r.plain.longestMainThreadTask)],
      [
        'one floor pick (viewport)',
        `${us(t.open.pick)}  (target < 1 ms; ${t.open.hits}/${t.picks} hit)`,
        `${ms(r.plain.pick)}  (${r.plain.hits}/${r.plain.picks} hit; every hit, first taken)`,
      ],
      ['pick ratio', `${(r.plain.pick / t.open.pick).toFixed(0)}× faster`, '1×'],
      [
        `  sliced at ${t.slice.toFixed(2)} m (viewport)`,
        `${us(t.sliced.pick)}  (${t.sliced.hits}/${t.picks} hit)`,
        `same rays  (${r.plain.slicedHits}/${r.plain.picks} hit below the slice)`,
      ],
      ['  as the collider casts (list, reused hit)', `${us(t.collider.pick)}  (${t.collider.hits}/${t.picks} hit)`, ''],
    ];
    const w = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
    for (const row of rows) console.log(row.map((c, i) => c.padEnd(w[i]!)).join('   '));
    console.log(`\nTraversa stages: read ${ms(r.timings.read!)}, parse ${ms(r.timings.parse!)}, BVH + weld + floors ${ms(r.timings.bvh!)}`);
    if (r.disagreements) throw new Error(`the app's caster and the plain raycast disagree on ${r.disagreements} of ${r.plain.picks} rays`);
    console.log(`The app's caster (open, sliced, as the collider casts) and the plain raycast hit the same surfaces on all ${r.plain.picks} shared rays.`);
  },
};
