import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_PROFILES } from '../../src/core/agents.ts';
import type { NavGraph } from '../../src/core/graph.ts';
import { loadMesh } from '../../src/engine/mesh/load.ts';
import {
  buildAgentNavMesh,
  prepareGeometry,
  REFERENCE_AGENT,
  suggestScene,
  type SceneGeometry,
  type SceneSuggestions,
} from '../../src/engine/suggest/index.ts';
import { largeSample } from './largeSample.ts';
import type { BenchSection } from './run.ts';

const REPO = resolve(import.meta.dirname, '../..');
const SMALL = join(REPO, 'scenes/sample-house/house.glb');
const LARGE = join(REPO, 'scenes/generated-large/house-1m.glb');
const GRAPH = join(REPO, 'scenes/sample-house/graphs/sample-house-graph.json');
const RUNS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function load(path: string): Promise<{ geom: SceneGeometry; triangles: number; loadMs: number }> {
  const t0 = performance.now();
  const bytes = readFileSync(path);
  const loaded = await loadMesh(
    { files: [{ name: 'house.glb', data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }] },
    { upAxis: 'y', unitScale: 1, createWorker: () => null },
  );
  return { geom: prepareGeometry(loaded), triangles: loaded.stats.triangles, loadMs: performance.now() - t0 };
}

/** Median build time per agent (the reference walker first), each navmesh disposed after timing. */
async function buildTimes(geom: SceneGeometry): Promise<Map<string, { ms: number; radius: number; climb: number; ch: number }>> {
  const out = new Map<string, { ms: number; radius: number; climb: number; ch: number }>();
  for (const profile of [REFERENCE_AGENT, ...DEFAULT_PROFILES]) {
    const times: number[] = [];
    let info = null;
    for (let i = 0; i < RUNS; i++) {
      const nav = await buildAgentNavMesh(geom, profile);
      times.push(nav.info.buildMs);
      info = nav.info;
      nav.dispose();
    }
    out.set(profile.name, { ms: median(times), radius: info!.radiusM, climb: info!.climbM, ch: info!.cellHeightM });
  }
  return out;
}

function labels(r: SceneSuggestions): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(r.agents).map(([a, byEdge]) => [a, Object.fromEntries(Object.entries(byEdge).map(([k, s]) => [k, s.traversable ? 'yes' : s.reason]))]),
    ),
  );
}

export const navmeshBench: BenchSection = {
  name: 'navmesh',
  title: 'per-agent recast navmesh builds and a full suggestion run, sample house (~16 k triangles) vs its ~1 M-triangle version (Node)',
  async run() {
    largeSample();
    const graph = JSON.parse(readFileSync(GRAPH, 'utf8')) as NavGraph;
    const small = await load(SMALL),
      large = await load(LARGE);
    console.log(
      `small: ${small.triangles.toLocaleString('en')} triangles (loaded in ${ms(small.loadMs)}); large: ${large.triangles.toLocaleString('en')} triangles (loaded in ${ms(large.loadMs)})`,
    );
    console.log(`cell size 0.05 m; cell height 0.01 m (coarser only above 250 voxels of agent height); median of ${RUNS} builds\n`);

    const s = await buildTimes(small.geom),
      l = await buildTimes(large.geom);
    const rows: string[][] = [['navmesh build', 'radius / climb', 'small', 'large (target < 1000 ms)']];
    for (const [agent, v] of s)
      rows.push([agent, `${v.radius.toFixed(2)} m / ${v.climb.toFixed(3)} m`, ms(v.ms), `${ms(l.get(agent)!.ms)}${l.get(agent)!.ms < 1000 ? '' : '  OVER'}`]);

    const rs = await suggestScene(small.geom, graph, DEFAULT_PROFILES);
    const rl = await suggestScene(large.geom, graph, DEFAULT_PROFILES);
    rows.push(['', '', '', '']);
    rows.push([`suggestScene (${Object.keys(rs.edges).length} edges × ${DEFAULT_PROFILES.length} agents)`, '', ms(rs.timings.totalMs), ms(rl.timings.totalMs)]);
    rows.push(['  of which 6 navmesh builds', '', ms(rs.timings.navmeshMs), ms(rl.timings.navmeshMs)]);
    rows.push(['  of which measuring the edges', '', ms(rs.timings.measureMs), ms(rl.timings.measureMs)]);
    const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) console.log(r.map((c, i) => (i >= 2 ? c.padStart(w[i]!) : c.padEnd(w[i]!))).join('   '));

    if (labels(rs) !== labels(rl)) throw new Error('the small and the large sample house get different suggestions');
    console.log('\nThe small and the large sample house get identical suggestions for every agent and edge.');
    const over = [...l].filter(([, v]) => v.ms >= 1000).map(([a]) => a);
    if (over.length) console.log(`Over the 1 s target on the large mesh: ${over.join(', ')}`);
  },
};
