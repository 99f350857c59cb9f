import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { formatProblem } from '../core/problems.ts';
import { readRelease } from '../formats/capnav/read.ts';
import { MeshLoadError, loadMesh } from '../engine/mesh/load.ts';
import { prepareGeometry, suggestScene, type SceneSuggestions } from '../engine/suggest/index.ts';
import { CliError, InputError, readInput, readInputText } from './files.ts';
import { table } from './tables.ts';

/**
 * `suggest --mesh <file> --graph <graph.json> [--agents <agent_profile.json>] [--up y|z] [--scale N] [--json]`:
 * suggested traversability per agent and edge, from the same engine the studio runs (loadMesh,
 * prepareGeometry, suggestScene). Problems with the inputs (a mesh that cannot be loaded, a graph or
 * profile file that cannot be read) are a failed command, exit 1; bad arguments are exit 2.
 */

function bytes(path: string): ArrayBuffer {
  const b = readInput(path, 'mesh');
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

/** The mesh file, plus the files beside it for formats that refer to side files (.gltf's .bin, .obj's .mtl). */
function meshFiles(path: string): { name: string; data: ArrayBuffer }[] {
  const files = [{ name: basename(path), data: bytes(path) }];
  if (!['.gltf', '.obj'].includes(extname(path).toLowerCase())) return files;
  const dir = dirname(path);
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name !== basename(path) && statSync(full).isFile()) files.push({ name, data: bytes(full) });
  }
  return files;
}

/** The graph (and profiles) through the release reader, so they are validated as an import is. */
function readInputs(graphPath: string, agentsPath: string | undefined) {
  const graphAlias = /-graph\.json$/i.test(basename(graphPath)) ? basename(graphPath) : 'suggest-graph.json';
  const files = [{ path: `graphs/${graphAlias}`, text: readInputText(graphPath, 'graph') }];
  if (agentsPath) files.push({ path: 'agent_profile.json', text: readInputText(agentsPath, 'agent profiles') });
  const { project, problems } = readRelease(files);
  const realName = (p: string) => (p.endsWith(graphAlias) ? graphPath : p === 'agent_profile.json' && agentsPath ? agentsPath : p);
  const shown = problems.filter((p) => p.code !== 'scene.no-questions' && p.code !== 'scene.no-labels');
  for (const p of shown) process.stderr.write(formatProblem({ ...p, file: realName(p.file) }) + '\n');
  const scene = project?.scenes[0];
  if (!project || !scene) throw new InputError(`${graphPath} cannot be read as a navigation graph`);
  return { graph: scene.graph, profiles: project.profiles };
}

export interface SuggestArgs { mesh?: string; graph?: string; agents?: string; up?: string; scale?: string; json: boolean }

export async function suggestCommand(args: SuggestArgs): Promise<string> {
  if (!args.mesh) throw new CliError('suggest needs --mesh <file>');
  if (!args.graph) throw new CliError('suggest needs --graph <graph.json>');
  const upAxis = args.up ?? 'y';
  if (upAxis !== 'y' && upAxis !== 'z') throw new CliError(`--up must be y or z (got ${upAxis})`);
  const unitScale = args.scale === undefined ? 1 : Number(args.scale);
  if (!(unitScale > 0 && Number.isFinite(unitScale))) throw new CliError(`--scale must be a positive number (got ${args.scale})`);

  const { graph, profiles } = readInputs(args.graph, args.agents);
  let loaded;
  try {
    // No workers on the command line: the parse and the BVH run on this thread.
    loaded = await loadMesh({ files: meshFiles(args.mesh) }, { upAxis, unitScale, createWorker: () => null });
  } catch (e) {
    if (e instanceof MeshLoadError) throw new InputError(e.message);
    throw e;
  }
  try {
    const result = await suggestScene(prepareGeometry(loaded), graph, profiles);
    return args.json ? JSON.stringify(asJson(result), null, 2) : formatSuggestions(result);
  } finally {
    loaded.dispose();
  }
}

function asJson(r: SceneSuggestions) {
  const agents = Object.fromEntries(Object.entries(r.agents).map(([agent, byEdge]) => [agent,
    Object.fromEntries(Object.entries(byEdge).map(([edge, s]) => [edge, { traversable: s.traversable, reason: s.reason, note: s.note, measured: s.measured }]))]));
  const edges = Object.fromEntries(Object.entries(r.edges).map(([edge, m]) => [edge, m.feature ?? { kind: null, noRoute: m.noRoute }]));
  return { agents, edges };
}

const cm = (m: number | undefined) => (m === undefined ? '' : `${(m * 100).toFixed(1)} cm`);

function formatSuggestions(r: SceneSuggestions): string {
  const agentNames = Object.keys(r.agents);
  const rows = Object.entries(r.edges).map(([key, m]) => {
    const f = m.feature;
    const what = !f ? 'no route'
      : [f.kind, f.clearWidthM !== undefined ? `width ${cm(f.clearWidthM)}` : '', f.sillHeightM !== undefined ? `step ${cm(f.sillHeightM)}` : '',
        f.risers ? `${f.risers} × ${cm(f.riserM)} risers` : '', f.cornerWidthsM ? `legs ${cm(f.cornerWidthsM[0])} / ${cm(f.cornerWidthsM[1])}` : '',
        f.closedDoor ? 'closed door' : ''].filter(Boolean).join(', ');
    return [key, what, ...agentNames.map((a) => { const s = r.agents[a]![key]!; return s.traversable ? 'yes' : `no (${s.reason})`; })];
  });
  const timings = `navmeshes ${(r.timings.navmeshMs / 1000).toFixed(1)} s, measuring ${(r.timings.measureMs / 1000).toFixed(1)} s`;
  return `${table(['edge', 'measured', ...agentNames], rows)}\n\n${timings}\n`;
}
