import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, traversa } from '../support/cli.ts';

// Issue 27 §6: `suggest --shard i/N` and `drive --shard i/N` split a scan's edges over machines;
// `merge` prints what the command prints with --json for the whole graph, byte for byte.

const HOUSE = join(REPO, 'scenes/sample-house');
const MESH = join(HOUSE, 'house.glb');
const GRAPH = join(HOUSE, 'graphs/sample-house-graph.json');
const AGENTS = join(HOUSE, 'agent_profile.json');
const dir = mkdtempSync(join(tmpdir(), 'traversa-shard-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The whole run and N shards, all at once; the shards' outputs written to files as a job array would. */
async function wholeAndShards(command: 'suggest' | 'drive', graph: string, n: number) {
  const scan = ['--mesh', MESH, '--graph', graph, '--agents', AGENTS];
  const [whole, ...shards] = await Promise.all([
    traversa(command, ...scan, '--json'),
    ...Array.from({ length: n }, (_, i) => traversa(command, ...scan, '--shard', `${i}/${n}`)),
  ]);
  expect(whole!.code, whole!.stderr).toBe(0);
  const files = shards.map((s, i) => {
    expect(s.code, s.stderr).toBe(0);
    const f = join(dir, `${command}-${n}-${i}.json`);
    writeFileSync(f, s.stdout);
    return f;
  });
  return { whole: whole!.stdout, files };
}

describe('suggest and drive in shards', { timeout: 240_000 }, () => {
  it('suggest over 4 shards, merged in any order, prints what one run prints with --json, byte for byte', async () => {
    const { whole, files } = await wholeAndShards('suggest', GRAPH, 4);
    const merged = await traversa('merge', files[2]!, files[0]!, files[3]!, files[1]!);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(whole);
    const edges = Object.keys(JSON.parse(whole).edges);
    expect(edges.length).toBeGreaterThan(12);
    // Each shard decided its own quarter of the edges.
    const firstShard = JSON.parse(readFileSync(files[0]!, 'utf8'));
    expect(Object.keys(firstShard.result.edges)).toEqual(edges.filter((_, i) => i % 4 === 0));
    const out = join(dir, 'suggest-merged.json');
    const toFile = await traversa('merge', '--out', out, ...files);
    expect([toFile.code, toFile.stdout.trim()]).toEqual([0, `merged the 4 shards of ${edges.length} edges into ${out}`]);
    expect(readFileSync(out, 'utf8')).toBe(whole);
    const missing = await traversa('merge', files[0]!, files[1]!, files[3]!);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('shard 2/4 missing')]);
  });

  it('drive over 2 shards (three doors and the stairs of the house) merges into the one run, byte for byte; shards of another graph are refused', async () => {
    const graph = JSON.parse(readFileSync(GRAPH, 'utf8'));
    // Three ground-floor doors and the flight of stairs (its ends 2.8 m apart in height).
    const y = new Map<string, number>(graph.nodes.map((n: { id: string; position: { y: number } }) => [n.id, n.position.y]));
    const stairs = graph.edges.find((e: { from: string; to: string }) => Math.abs(y.get(e.from)! - y.get(e.to)!) > 2);
    expect(stairs).toMatchObject({ from: 'node_8', to: 'node_10' }); // the stair foot to the landing
    const picked = join(dir, 'few-edges.json');
    writeFileSync(picked, JSON.stringify({ ...graph, edges: [...graph.edges.slice(0, 3), stairs] }));
    const { whole, files } = await wholeAndShards('drive', picked, 2);
    const merged = await traversa('merge', files[1]!, files[0]!);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(whole);
    const suggestShard = join(dir, 'suggest-4-0.json');
    const mixed = await traversa('merge', files[0]!, suggestShard);
    expect([mixed.code, mixed.stderr]).toEqual([1, expect.stringContaining('are outputs of different commands')]);
    const fewer = join(dir, 'fewer-edges.json');
    writeFileSync(fewer, JSON.stringify({ ...graph, edges: graph.edges.slice(0, 2) }));
    const other = await traversa('drive', '--mesh', MESH, '--graph', fewer, '--agents', AGENTS, '--shard', '1/2');
    writeFileSync(join(dir, 'other.json'), other.stdout);
    const otherGraph = await traversa('merge', files[0]!, join(dir, 'other.json'));
    expect([otherGraph.code, otherGraph.stderr]).toEqual([1, expect.stringContaining('are shards of different runs (they differ in graph)')]);
  });
});
