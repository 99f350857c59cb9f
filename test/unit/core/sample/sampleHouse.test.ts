import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isFeasible } from '../../../../src/core/feasibility.ts';
import { undirectedKey } from '../../../../src/core/graph.ts';
import { resolveRef, resolvedWaypoints } from '../../../../src/core/questions.ts';
import { GROUP_NAMES, houseMesh, triangleCount } from '../../../../src/core/sample/houseMesh.ts';
import { SAMPLE_HOUSE } from '../../../../src/core/sample/houseSpec.ts';
import { buildSampleRelease } from '../../../../src/core/sample/sampleRelease.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { LARGE_DETAIL, SAMPLE_DIR, sampleHouseFiles } from '../../../../scenes/generate.ts';

const generated = await sampleHouseFiles();
const byPath = new Map(generated.map((f) => [f.path, f.bytes]));
const text = (path: string) => new TextDecoder().decode(byPath.get(path)!);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The JSON chunk of a binary glTF. */
function glbJson(bytes: Uint8Array): {
  nodes: { name: string; mesh: number }[];
  meshes: { primitives: { indices: number; attributes: Record<string, number> }[] }[];
  accessors: { count: number }[];
} {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(view.getUint32(0, true)).toBe(0x46546c67); // "glTF"
  const length = view.getUint32(12, true);
  expect(view.getUint32(16, true)).toBe(0x4e4f534a); // "JSON"
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
}

describe('the committed sample scene', () => {
  it('is exactly what `npm run scenes` writes, file for file and byte for byte', () => {
    const committed = filesUnder(SAMPLE_DIR)
      .map((p) => relative(SAMPLE_DIR, p).split('\\').join('/'))
      .sort();
    expect(committed, 'run `npm run scenes` and commit scenes/sample-house').toEqual([...byPath.keys()].sort());
    for (const [path, bytes] of byPath) {
      const onDisk = readFileSync(join(SAMPLE_DIR, path));
      if (path.endsWith('.json')) expect(onDisk.toString('utf8'), `${path} is stale: run \`npm run scenes\``).toBe(text(path));
      else expect(Buffer.compare(onDisk, Buffer.from(bytes)), `${path} is stale: run \`npm run scenes\``).toBe(0);
    }
  });

  it('generating twice gives the same bytes (no clock, no randomness)', async () => {
    const again = await sampleHouseFiles();
    for (const f of again) expect(Buffer.compare(Buffer.from(f.bytes), Buffer.from(byPath.get(f.path)!)), f.path).toBe(0);
  });

  it('house.glb holds one mesh per surface group, named after it, with every triangle of the soup', () => {
    const glb = byPath.get('house.glb')!;
    expect(glb.byteLength).toBeLessThan(2 * 1024 * 1024);
    const gltf = glbJson(glb);
    expect(gltf.nodes.map((n) => n.name)).toEqual([...GROUP_NAMES]);
    const soup = houseMesh(SAMPLE_HOUSE);
    const triangles = gltf.meshes.flatMap((m) => m.primitives).reduce((n, p) => n + gltf.accessors[p.indices]!.count / 3, 0);
    expect(triangles).toBe(triangleCount(soup));
    for (const p of gltf.meshes.flatMap((m) => m.primitives)) expect(Object.keys(p.attributes).sort()).toEqual(['COLOR_0', 'NORMAL', 'POSITION']);
  });

  it('is small by default (a few thousand to 30k triangles); the large variant reaches about a million', () => {
    expect(triangleCount(houseMesh(SAMPLE_HOUSE))).toBeGreaterThan(3_000);
    expect(triangleCount(houseMesh(SAMPLE_HOUSE))).toBeLessThan(30_000);
    const large = triangleCount(houseMesh(SAMPLE_HOUSE, { detail: LARGE_DETAIL }));
    expect(large).toBeGreaterThan(950_000);
    expect(large).toBeLessThan(1_050_000);
  });
});

describe('the sample scene as a CapNav release', () => {
  const release = generated.filter((f) => f.path !== 'house.glb' && f.path !== 'features.json').map((f) => ({ path: f.path, text: text(f.path) }));
  const { project, problems } = readRelease(release, 'Sample house');
  const scene = project!.scenes[0]!;

  it('reads back with nothing worse than a warning, as scene sample-house with the five agents', () => {
    expect(problems.filter((p) => p.severity !== 'warning')).toEqual([]);
    expect(project!.scenes.map((s) => s.id)).toEqual(['sample-house']);
    expect(project!.profiles.map((p) => p.name)).toEqual(['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER']);
    expect(scene.graph.nodes).toHaveLength(14);
    expect(scene.graph.edges).toHaveLength(14);
  });

  it('has human-readable, unique node names and ids node_1…, edge_1…', () => {
    expect(new Set(scene.graph.nodes.map((n) => n.name)).size).toBe(14);
    expect(scene.graph.nodes.map((n) => n.id)).toEqual(scene.graph.nodes.map((_, i) => `node_${i + 1}`));
    expect(scene.graph.edges.map((e) => e.id)).toEqual(scene.graph.edges.map((_, i) => `edge_${i + 1}`));
  });

  it('resolves every question reference to a node, in CapNav style', () => {
    expect(scene.questions.length).toBeGreaterThanOrEqual(8);
    expect(scene.questions.length).toBeLessThanOrEqual(12);
    for (const q of scene.questions) {
      expect(q.text).toMatch(/^Can \[Agent\] move from .+\?$/);
      expect(q.sceneType).toBe('home');
      expect(q.reason).toBeTruthy();
      expect(q.startDetail && q.endDetail).toBeTruthy();
      for (const ref of [q.start, ...q.intermediate, q.end]) expect(resolveRef(ref.raw, scene.graph.nodes)).toMatchObject({ via: 'id' });
    }
    expect(scene.hallucinated).toEqual([]);
  });

  it("records one obstacle per edge in features.json, keyed a|b with a < b, at its storey's height", () => {
    const features = JSON.parse(text('features.json'));
    expect(features).toMatchObject({
      scene: 'sample-house',
      storeyHeight: 2.8,
      floors: [
        { index: 0, heightM: 0 },
        { index: 1, heightM: 2.8 },
      ],
    });
    expect(Object.keys(features.edges).sort()).toEqual(scene.graph.edges.map((e) => undirectedKey(e.from, e.to)).sort());
    const y = new Map(scene.graph.nodes.map((n) => [n.id, n.position.y]));
    for (const e of scene.graph.edges) {
      const f = features.edges[undirectedKey(e.from, e.to)];
      if (f.kind === 'stairs' || f.kind === 'lift')
        expect(f.at.y).toBe(1.4); // half-way between the storeys
      else expect(f.at.y).toBeCloseTo(y.get(e.from)! - 0.02, 9);
    }
    expect(features).toEqual(buildSampleRelease(SAMPLE_HOUSE).features);
  });
});

// Who can do each task, worked out by hand from the house plan: Y feasible, n not. A task with an
// intermediate waypoint must reach it on the way.
const FEASIBLE: Record<string, string> = {
  //                                                                                   HUMAN WHEELCHAIR HUMANOID QUADRUPEDAL SWEEPER
  'Can [Agent] move from the entrance hall to the second bedroom upstairs?': 'Y n Y Y n', // lift: the sill; stairs
  'Can [Agent] move from the entrance hall to the first bedroom upstairs?': 'Y n n Y n', // 0.70 m door
  'Can [Agent] move from the living room to the study?': 'Y n n Y Y', // corridor and the 2 cm sill
  'Can [Agent] move from the kitchen to the utility room?': 'Y n n Y Y', // the L-shaped corner
  'Can [Agent] move from the entrance hall into the bathroom?': 'Y Y n n n', // closed 0.80 m door
  'Can [Agent] move from the living room up to the landing?': 'Y Y Y Y n', // stairs or lift
  'Can [Agent] move from the kitchen to the back hall?': 'Y Y n Y Y', // 0.90 m door, corridor
  'Can [Agent] move from the foot of the stairs to the first bedroom, passing the upper lift lobby on the way?': 'Y n n Y n',
  'Can [Agent] move from the second bedroom down to the lift lobby on the ground floor?': 'Y n Y Y n',
  'Can [Agent] move from the lift lobby to the living room?': 'Y Y Y Y Y',
};

describe('who can do each task in the sample house', () => {
  const { scene } = buildSampleRelease(SAMPLE_HOUSE);
  const agents = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'];

  it('matches the hand-written table for every question and agent', () => {
    expect(scene.questions.map((q) => q.text)).toEqual(Object.keys(FEASIBLE));
    for (const q of scene.questions) {
      const stops = resolvedWaypoints(q)!;
      const answers = agents.map((a) => (stops.slice(1).every((to, i) => isFeasible(scene.graph, scene.labels, a, stops[i]!, to)) ? 'Y' : 'n'));
      expect(answers.join(' '), q.text).toBe(FEASIBLE[q.text]);
      // The intermediate stop never changes the answer here, so CapNav's start-to-end statistics agree.
      const direct = agents.map((a) => (isFeasible(scene.graph, scene.labels, a, stops[0]!, stops[stops.length - 1]!) ? 'Y' : 'n'));
      expect(direct.join(' ')).toBe(FEASIBLE[q.text]);
    }
  });

  it('splits the agents: every agent but the human fails some task, and every task is feasible for someone', () => {
    const rows = Object.values(FEASIBLE).map((r) => r.split(' '));
    for (let a = 1; a < agents.length; a++)
      expect(
        rows.some((r) => r[a] === 'n'),
        agents[a],
      ).toBe(true);
    for (const r of rows) expect(r[0]).toBe('Y');
  });
});
