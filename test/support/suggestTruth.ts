import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { traverseKeyOf, type AgentProfile } from '../../src/core/agents.ts';
import type { NavGraph } from '../../src/core/graph.ts';
import type { PassageFeature, ReasonCategory } from '../../src/core/rules.ts';
import { readRelease } from '../../src/formats/capnav/read.ts';
import { loadMesh, type LoadedMesh } from '../../src/engine/mesh/load.ts';
import { REPO } from './cli.ts';

/** The sample house's release, ground truth and obstacle records, for the suggestion tests. */

export const SAMPLE_DIR = join(REPO, 'scenes/sample-house/');

/** The ground truth's note → reason category ("Sill 0.05 m higher…" → step). */
export function reasonOfNote(note: string): ReasonCategory {
  const table: [RegExp, ReasonCategory][] = [
    [/^Stairs/, 'stairs'],
    [/^Lift/, 'lift'],
    [/^Closed door/, 'door'],
    [/^Sill/, 'step'],
    [/^Low opening/, 'narrow'],
    [/^Narrow passage/, 'narrow'],
    [/^Turning space/, 'turning'],
  ];
  const hit = table.find(([re]) => re.test(note));
  if (!hit) throw new Error(`no reason category for the note "${note}"`);
  return hit[1];
}

export interface GroundTruth {
  agent: string;
  edge: string;
  traversable: boolean;
  reason: ReasonCategory | null;
}

/** One agent's labels (`from|to` → label) as ground-truth rows keyed by the undirected edge `a|b`, a < b. */
export function truthRows(agent: string, labels: Record<string, { traversable: boolean; note: string }>): GroundTruth[] {
  return Object.entries(labels).map(([seg, label]) => {
    const [a, b] = seg.split('|') as [string, string];
    return { agent, edge: a < b ? `${a}|${b}` : `${b}|${a}`, traversable: label.traversable, reason: label.traversable ? null : reasonOfNote(label.note) };
  });
}

/** The sample release (profiles, graph) and its per-agent, per-edge labels keyed `a|b` with a < b. */
export function sampleRelease(): { profiles: AgentProfile[]; graph: NavGraph; truth: GroundTruth[]; features: Record<string, PassageFeature> } {
  const files: { path: string; text: string }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.json') && name !== 'features.json') files.push({ path: relative(SAMPLE_DIR, full), text: readFileSync(full, 'utf8') });
    }
  };
  walk(SAMPLE_DIR);
  const { project } = readRelease(files);
  const traverse = JSON.parse(readFileSync(join(SAMPLE_DIR, 'traverse/sample-house-traverse.json'), 'utf8')) as Record<
    string,
    Record<string, { traversable: boolean; note: string }>
  >;
  const truth = project!.profiles.flatMap((p) => truthRows(p.name, traverse[traverseKeyOf(p.name)]!));
  const features = (JSON.parse(readFileSync(join(SAMPLE_DIR, 'features.json'), 'utf8')) as { edges: Record<string, PassageFeature> }).edges;
  return { profiles: project!.profiles, graph: project!.scenes[0]!.graph, truth, features };
}

/** The sample house's scan, loaded as the studio loads it (on this thread: no workers in Node). */
export async function loadSampleHouse(): Promise<LoadedMesh> {
  const bytes = readFileSync(join(SAMPLE_DIR, 'house.glb'));
  return loadMesh(
    { files: [{ name: 'house.glb', data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }] },
    { upAxis: 'y', unitScale: 1, createWorker: () => null },
  );
}
