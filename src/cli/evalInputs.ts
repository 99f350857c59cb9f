import { join } from 'node:path';
import { buildEvalInputs, evalManifest } from '../core/evalinputs/build.ts';
import {
  EvalInputSchema,
  EvalInputsManifestSchema,
  frameSetFolder,
  type EvalInput,
  type ExcludedQuestion,
  type SpatialPart,
} from '../core/evalinputs/types.ts';
import type { NavGraph } from '../core/graph.ts';
import { filesDigest, type Shard } from '../core/shard.ts';
import { canonicalAgent } from '../core/agents.ts';
import { formatProblem, hasBlocking } from '../core/problems.ts';
import type { FrameBudget } from '../core/tour/types.ts';
import { readRelease } from '../formats/capnav/read.ts';
import { CliError, InputError, makeFolder, readInputText, readJsonFiles, statInput, writeOutput } from './files.ts';
import { frameBudget, readFrame, readFrameList } from './frameSets.ts';
import { spatialParts, writeSpatialFiles, type SpatialArgs } from './spatialInputs.ts';
import { shardOption, upAxisOf } from './options.ts';
import { writeEvalInputsShard } from './evalInputsShard.ts';

/** The evaluation inputs of a run, wherever they came from, and the folder their frame paths are relative to. */
export interface LoadedInputs {
  inputs: EvalInput[];
  excluded: ExcludedQuestion[];
  budget: FrameBudget;
  root: string;
  /** The spatial information the inputs add (eval-inputs --with); empty: frames only. */
  with: SpatialPart[];
}

/** `--agents a,b --agents c` as one list. */
export const nameList = (values: readonly string[] | undefined): string[] =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Every input of a release at a budget (the frames read from `<gt>/frames/`); a scene without frames stops the command, naming the file it looked for. */
export function inputsFromRelease(
  gt: string,
  budget: FrameBudget,
  agents: string[],
  scenes: string[],
  spatial: { with: SpatialPart[]; up: 'y' | 'z' } = { with: [], up: 'y' },
  shard?: Shard,
): LoadedInputs & { graphs: Map<string, NavGraph>; order: string[]; truth: () => string } {
  const files = readJsonFiles(gt);
  const { project, problems } = readRelease(files);
  if (!project || hasBlocking(problems)) {
    for (const p of problems.filter((q) => q.severity === 'fatal')) process.stderr.write(formatProblem(p) + '\n');
    throw new InputError(`${gt} cannot be read as a CapNav release (run "validate" for every problem)`);
  }
  const built = buildEvalInputs(project, { budget, agents, scenes, frames: (scene) => readFrameList(gt, scene, budget), ...spatial, shard });
  if (built.errors.length) throw new CliError(built.errors.join('\n'));
  if (built.missingFrames.length) {
    const where = built.missingFrames.map((s) => join(gt, frameSetFolder(s, budget), 'frames.json'));
    throw new InputError(
      `no frame set at budget ${budget} for ${count(built.missingFrames.length, 'scene')} (${built.missingFrames.join(', ')}): ` +
        `${where[0]}${where.length > 1 ? ', …' : ''} does not exist. Render the scene's tour first (the studio's touring video, or "cli tour"), ` +
        'choose a budget the scenes have, or leave them out with --scenes',
    );
  }
  const graphs = new Map(project.scenes.map((s) => [s.id, s.graph]));
  return { inputs: built.inputs, excluded: built.excluded, budget, root: gt, with: spatial.with, graphs, order: built.order, truth: () => filesDigest(files) };
}

/** The inputs of an export (`eval-inputs --out <dir>`), each file checked; `--agents`/`--scenes` pick among them. */
export function inputsFromExport(dir: string, budget: string | undefined, agents: string[], scenes: string[]): LoadedInputs {
  if (!statInput(dir, 'evaluation inputs').isDirectory())
    throw new InputError(`${dir}: the evaluation inputs cannot be read (not a folder; give the folder "eval-inputs --out" wrote)`);
  const manifestPath = join(dir, 'manifest.json');
  const manifest = EvalInputsManifestSchema.safeParse(jsonOf(manifestPath, 'evaluation inputs manifest'));
  if (!manifest.success) throw new InputError(`${manifestPath}: ${issue(manifest.error.issues[0]!)} (not a manifest written by "eval-inputs")`);
  if (budget !== undefined && frameBudget(budget, 'run-model') !== manifest.data.budget) {
    throw new CliError(`--frames ${budget}: the inputs in ${dir} were exported with the frame set ${manifest.data.budget}`);
  }
  const wantAgents = new Set(agents.map(canonicalAgent));
  const wantScenes = new Set(scenes);
  const inputs: EvalInput[] = [];
  for (const rel of manifest.data.inputs) {
    const path = join(dir, rel);
    const parsed = EvalInputSchema.safeParse(jsonOf(path, 'evaluation input'));
    if (!parsed.success) throw new InputError(`${path}: ${issue(parsed.error.issues[0]!)}`);
    const input = parsed.data as EvalInput;
    // The results folder is named after the manifest's variant: every input must be of it.
    if ((input.with ?? []).join() !== (manifest.data.with ?? []).join())
      throw new InputError(
        `${path}: the input adds ${(input.with ?? []).join(', ') || 'nothing'} to its frames, the manifest says ${(manifest.data.with ?? []).join(', ') || 'nothing'}`,
      );
    if (wantAgents.size && !wantAgents.has(canonicalAgent(input.agent))) continue;
    if (wantScenes.size && !wantScenes.has(input.scene)) continue;
    inputs.push(input);
  }
  for (const a of wantAgents) if (!inputs.some((i) => canonicalAgent(i.agent) === a)) throw new CliError(`--agents ${a}: no input in ${dir} is for that agent`);
  for (const s of wantScenes) if (!inputs.some((i) => i.scene === s)) throw new CliError(`--scenes ${s}: no input in ${dir} is of that scene`);
  return { inputs, excluded: manifest.data.excluded, budget: manifest.data.budget, root: dir, with: manifest.data.with ?? [] };
}

function jsonOf(path: string, what: string): unknown {
  const text = readInputText(path, what);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${path}: the ${what} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

const issue = (i: { path: PropertyKey[]; message: string }) => `at /${i.path.map(String).join('/')}: ${i.message}`;

export interface EvalInputsArgs extends SpatialArgs {
  gt?: string;
  shard?: string;
  frames?: string;
  out?: string;
  agents: string[];
  scenes: string[];
}

/**
 * `eval-inputs --gt <release-dir> --frames <budget> --out <dir> [--with depth,map,graph]`: the
 * export layout of core/evalinputs/types.ts — manifest.json, inputs/<SCENE>/<AGENT>/q<NN>.json, the
 * frames the inputs cite copied to frames/<SCENE>/<budget>/, and with --with the depth frames and
 * maps rendered from the scans. Returns what goes to stderr.
 */
export async function evalInputsCommand(a: EvalInputsArgs): Promise<string> {
  if (!a.gt || !a.out) throw new CliError('eval-inputs needs --gt <release-dir> --frames <budget> --out <dir>');
  const budget = frameBudget(a.frames, 'eval-inputs');
  const parts = spatialParts(a.with);
  if ((a.mesh || a.scans) && !parts.some((p) => p !== 'graph'))
    throw new CliError('--mesh and --scans are the scans that --with depth and --with map render from: give one of those too');
  if (a.mesh && a.scans) throw new CliError('give --mesh <file> (one scene) or --scans <dir>, not both');
  const shard = shardOption(a.shard);
  const loaded = inputsFromRelease(a.gt, budget, a.agents, a.scenes, { with: parts, up: upAxisOf(a.up) }, shard);
  makeFolder(a.out);
  // Rendered first: a missing scan or pose stops the export before any input is written.
  const spatial = await writeSpatialFiles(a.gt, a.out, loaded.inputs, loaded.graphs, budget, parts, a);
  const manifest = evalManifest(loaded, budget, parts);
  loaded.inputs.forEach((input, i) => writeOutput(join(a.out!, manifest.inputs[i]!), JSON.stringify(input, null, 2) + '\n'));
  const copied = new Set<string>();
  for (const input of loaded.inputs) {
    for (const f of input.frames) {
      if (copied.has(f.file)) continue;
      copied.add(f.file);
      // A file that is not a JPEG stops the export here, not a model run later.
      writeOutput(join(a.out, f.file), readFrame(a.gt, f.file));
    }
  }
  for (const scene of new Set(loaded.inputs.map((i) => i.scene))) {
    const list = join(frameSetFolder(scene, budget), 'frames.json');
    writeOutput(join(a.out, list), readInputText(join(a.gt, list), 'frame list'));
  }
  writeOutput(join(a.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  if (shard)
    writeEvalInputsShard(a.out, shard, { truth: loaded.truth(), budget, with: parts, agents: a.agents, scenes: a.scenes, up: upAxisOf(a.up) }, loaded.order);
  const c = manifest.counts;
  return (
    `wrote ${count(c.inputs, 'evaluation input')} (${count(c.questions, 'question')} × ${count(c.agents, 'agent')}, ${count(c.scenes, 'scene')}; ` +
    `${count(c.excludedHallucinated, 'hallucinated question')} left out) and ${count(copied.size, 'frame')}` +
    `${spatial.depth ? `, ${count(spatial.depth, 'depth frame')}` : ''}${spatial.maps ? `, ${count(spatial.maps, 'map')}` : ''} to ${a.out}`
  );
}

export const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
