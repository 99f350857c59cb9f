import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_DIR, sampleRelease } from '../../support/suggestTruth.ts';
import { traversa } from '../../support/cli.ts';

// `suggest` on the command line, run as a user runs it (the bundled entry `npm run cli` uses, with
// recast's wasm loaded from node_modules): the sample house gives the ground truth's labels.

const MESH = join(SAMPLE_DIR, 'house.glb');
const GRAPH = join(SAMPLE_DIR, 'graphs/sample-house-graph.json');
const tmp = mkdtempSync(join(tmpdir(), 'traversa-suggest-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Output {
  agents: Record<string, Record<string, { traversable: boolean; reason: string | null; measured: Record<string, unknown> }>>;
  edges: Record<string, { kind: string | null }>;
}

describe('traversa suggest', () => {
  // Both runs start at once (separate processes share the cores); the table only needs the corner edge.
  const asJson = traversa('suggest', '--mesh', MESH, '--graph', GRAPH, '--agents', join(SAMPLE_DIR, 'agent_profile.json'), '--json');
  const full = JSON.parse(readFileSync(GRAPH, 'utf8')) as { nodes: { id: string }[]; edges: { from: string; to: string }[] };
  const cornerOnly = join(tmp, 'corner-graph.json');
  writeFileSync(
    cornerOnly,
    JSON.stringify({
      nodes: full.nodes.filter((n) => ['node_3', 'node_4'].includes(n.id)),
      edges: full.edges.filter((e) => e.from === 'node_3' && e.to === 'node_4'),
    }),
  );
  const asTable = traversa('suggest', '--mesh', MESH, '--graph', cornerOnly);

  it('prints, per agent and edge, the ground truth’s labels and the measurements as JSON', async () => {
    const { code, stdout, stderr } = await asJson;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as Output;
    const { truth } = sampleRelease();
    expect(truth.map((t) => ({ ...t, ...pick(out.agents[t.agent]![t.edge]!) }))).toEqual(truth);
    expect(out.edges['node_10|node_8']).toMatchObject({ kind: 'stairs', risers: 16 });
    expect(out.agents.WHEELCHAIR!['node_5|node_6']!.measured).toMatchObject({ stepHeightM: expect.closeTo(0.02, 3) });
  }, 60_000);

  it('prints a readable table by default', async () => {
    const { code, stdout } = await asTable;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^edge\s+measured\s+HUMAN\s+WHEELCHAIR\s+HUMANOID\s+QUADRUPEDAL\s+SWEEPER/);
    expect(stdout).toMatch(/node_3\|node_4\s+corner.*\s+yes\s+no \(turning\)\s+no \(narrow\)\s+yes\s+yes/);
  }, 60_000);

  it('fails with exit 1 and a message on stderr for an unreadable mesh or a broken graph', async () => {
    const missing = await traversa('suggest', '--mesh', join(tmp, 'none.glb'), '--graph', GRAPH, '--json');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain('none.glb: the mesh cannot be read');
    const broken = join(tmp, 'broken-graph.json');
    writeFileSync(broken, '{ "nodes": [ { "id": "a" } ], "edges": [] }');
    const bad = await traversa('suggest', '--mesh', MESH, '--graph', broken, '--json');
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toContain(`${broken} /nodes/0/name`);
    const args = await traversa('suggest', '--mesh', MESH);
    expect(args.code).toBe(2);
  }, 60_000);
});

const pick = (s: { traversable: boolean; reason: string | null }) => ({ traversable: s.traversable, reason: s.reason });
