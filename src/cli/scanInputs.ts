import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { AgentProfile } from '../core/agents.ts';
import type { NavGraph } from '../core/graph.ts';
import { MeshLoadError, loadMesh, type LoadedMesh } from '../engine/mesh/load.ts';
import { CliError, InputError, isRegularFile, MAX_MESH_BYTES, readInput } from './files.ts';
import { upAxisOf } from './options.ts';
import { readInputs } from './graphInput.ts';

/**
 * What `suggest` and `drive` read: a scan (`--mesh`, with its side files), its navigation graph
 * (`--graph`) and optionally agent profiles (`--agents`), with the scan's up axis and unit scale.
 * The graph and profiles go through the release reader, validated as an import is; a scan that
 * cannot be loaded is an input error (exit 1), a bad argument a usage error (exit 2).
 */
export interface ScanArgs {
  mesh?: string;
  graph?: string;
  agents?: string;
  up?: string;
  scale?: string;
  json: boolean;
}

/**
 * The unit scales accepted: millimetres (0.001) to a 1:10 model (10). The work of measuring grows
 * with the scan's size in metres: at 10 the sample house takes ~50 s, at 100 the navmesh no
 * longer fits recast's memory.
 */
const SCALE = [0.0001, 10] as const;

function bytes(path: string): ArrayBuffer {
  const b = readInput(path, 'mesh', MAX_MESH_BYTES);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

/** The mesh file, plus the files beside it for formats that refer to side files (.gltf's .bin, .obj's .mtl). */
function meshFiles(path: string): { name: string; data: ArrayBuffer }[] {
  const files = [{ name: basename(path), data: bytes(path) }];
  if (!['.gltf', '.obj'].includes(extname(path).toLowerCase())) return files;
  const dir = dirname(path);
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name !== basename(path) && isRegularFile(full)) files.push({ name, data: bytes(full) });
  }
  return files;
}

async function loadScan(command: string, args: ScanArgs): Promise<{ graph: NavGraph; profiles: AgentProfile[]; loaded: LoadedMesh }> {
  if (!args.mesh) throw new CliError(`${command} needs --mesh <file>`);
  if (!args.graph) throw new CliError(`${command} needs --graph <graph.json>`);
  const upAxis = upAxisOf(args.up);
  const unitScale = args.scale === undefined ? 1 : Number(args.scale);
  if (!(unitScale >= SCALE[0] && unitScale <= SCALE[1]))
    throw new CliError(`--scale must be the scan's unit in metres, from ${SCALE[0]} to ${SCALE[1]} (got ${args.scale})`);
  const { graph, profiles } = readInputs(args.graph, args.agents);
  return { graph, profiles, loaded: await loadScanFile(args.mesh, upAxis, unitScale) };
}

/**
 * A scan file (with its side files: every file beside it, or `files`, those it names) loaded with
 * its BVH; one that cannot be loaded is an input error.
 */
export async function loadScanFile(path: string, upAxis: 'y' | 'z', unitScale = 1, files?: readonly { path: string; name: string }[]): Promise<LoadedMesh> {
  try {
    const read = files ? files.map((f) => ({ name: f.name, data: bytes(f.path) })) : meshFiles(path);
    // No workers on the command line: the parse and the BVH run on this thread.
    return await loadMesh({ files: read }, { upAxis, unitScale, createWorker: () => null });
  } catch (e) {
    if (e instanceof MeshLoadError) throw new InputError(e.message);
    throw e;
  }
}

/** Load the scan and its graph, run `use` on them, and free the scan whatever happens. */
export async function withScan<T>(
  command: string,
  args: ScanArgs,
  use: (inputs: { graph: NavGraph; profiles: AgentProfile[]; loaded: LoadedMesh }) => Promise<T>,
): Promise<T> {
  const inputs = await loadScan(command, args);
  try {
    return await use(inputs);
  } finally {
    inputs.loaded.dispose();
  }
}
