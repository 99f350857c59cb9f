import { edgePairs, undirectedKey, type NavGraph } from '../core/graph.ts';
import { inShard, shardSetProblem, type Shard } from '../core/shard.ts';
import { InputError, writeOutput } from './files.ts';
import { fileDigest } from './sceneScans.ts';
import type { ScanArgs } from './scanInputs.ts';
import type { ShardOutput } from './shardFiles.ts';

/**
 * `suggest --shard i/N` and `drive --shard i/N`: a shard decides the scan's edges i, i+N, … (in
 * the graph's order, each edge once) and prints them with what the merge needs; `merge` prints
 * what the command prints with `--json` for the whole graph. Every shard loads the scan and
 * builds its navmeshes; the edges (the drive's motion planning above all) are what is split.
 */

export const SCAN_SHARD_FORMATS = { suggest: 'traversa-suggest-shard', drive: 'traversa-drive-shard' } as const;
export type ScanCommand = keyof typeof SCAN_SHARD_FORMATS;

/** The graph with only this shard's edges (all its nodes kept). */
export function shardGraph<G extends Pick<NavGraph, 'nodes' | 'edges'>>(graph: G, shard: Shard): G {
  const mine = new Set(
    edgePairs(graph)
      .filter((_, i) => inShard(i, shard))
      .map(([a, b]) => `${a}|${b}`),
  );
  return { ...graph, edges: graph.edges.filter((e) => mine.has(undirectedKey(e.from, e.to))) };
}

/** The run a shard belongs to: the scan, graph and profiles (by checksum, a block at a time: a scan may be a gigabyte) and how the scan is read. */
function runOf(args: ScanArgs) {
  return {
    mesh: fileDigest(args.mesh!),
    graph: fileDigest(args.graph!),
    agents: args.agents === undefined ? null : fileDigest(args.agents),
    up: args.up ?? 'y',
    scale: args.scale ?? '1',
  };
}

/** What a shard prints: its part of the command's JSON, with the whole run's edge order. */
export function scanShardText(command: ScanCommand, shard: Shard, args: ScanArgs, graph: Pick<NavGraph, 'nodes' | 'edges'>, json: object): string {
  const order = edgePairs(graph).map(([a, b]) => `${a}|${b}`);
  return JSON.stringify({ format: SCAN_SHARD_FORMATS[command], version: 1, shard, run: runOf(args), order, result: json });
}

type Keyed = Record<string, unknown>;
interface ScanShardDoc {
  shard: Shard;
  run: unknown;
  order: string[];
  result: { agents: Record<string, Keyed>; edges?: Keyed } & Keyed;
}

function checked(s: ShardOutput): ScanShardDoc {
  const d = s.doc as Partial<ScanShardDoc>;
  const ok =
    d.shard &&
    Number.isInteger(d.shard.index) &&
    Number.isInteger(d.shard.count) &&
    Array.isArray(d.order) &&
    d.order.every((k) => typeof k === 'string') &&
    typeof d.result === 'object' &&
    d.result !== null &&
    typeof d.result.agents === 'object';
  if (!ok) throw new InputError(`${s.file}: not a shard printed by "suggest --shard" or "drive --shard" (its shard, order or result is missing)`);
  return d as ScanShardDoc;
}

/** The shards' edges, each from the shard that decided it, in the run's order: the command's `--json` output. */
export function mergeScanShards(shards: readonly ShardOutput[], out: string | undefined): { text: string; code: number } {
  const docs = shards.map((s) => ({ file: s.file, ...checked(s) }));
  const problem = shardSetProblem(docs);
  if (problem) throw new InputError(problem);
  const sorted = [...docs].sort((a, b) => a.shard.index - b.shard.index);
  const order = sorted[0]!.order;
  // Shard i decided the edges at places i, i+N, …: sorted[place % N].
  const byEdge = (pick: (d: ScanShardDoc) => Keyed | undefined) => {
    const merged: Keyed = {};
    order.forEach((key, place) => {
      const part = pick(sorted[place % sorted.length]!);
      if (part && Object.hasOwn(part, key)) merged[key] = part[key];
    });
    return merged;
  };
  // Every field any shard has, in their order: a shard without edges has no resolution to report.
  const result: Keyed = {};
  for (const field of new Set(sorted.flatMap((d) => Object.keys(d.result)))) {
    if (field === 'agents')
      result.agents = Object.fromEntries(Object.keys(sorted[0]!.result.agents).map((agent) => [agent, byEdge((d) => d.result.agents[agent])]));
    else if (field === 'edges') result.edges = byEdge((d) => d.result.edges);
    else result[field] = sorted.find((d) => d.result[field] !== undefined)!.result[field];
  }
  const text = JSON.stringify(result, null, 2);
  if (out === undefined) return { text, code: 0 };
  writeOutput(out, text + '\n');
  return { text: `merged the ${docs.length} shards of ${order.length} edges into ${out}`, code: 0 };
}
