import { inShard, type Shard } from '../shard.ts';
import { canonicalAgent, type AgentProfile } from '../agents.ts';
import { pathPartProblem } from '../pathNames.ts';
import { isHallucinated, type Project, type Scene } from '../project.ts';
import type { FrameBudget, SampledFrame } from '../tour/types.ts';
import { evalPrompt, PROMPT_VERSION } from './prompt.ts';
import { graphText, sceneMaps } from './spatial.ts';
import {
  depthFramePath,
  EVAL_INPUT_FORMAT,
  EVAL_MANIFEST_FORMAT,
  evalInputPath,
  frameSetFolder,
  promptFileName,
  type EvalInput,
  type EvalInputsManifest,
  type ExcludedQuestion,
  type SpatialPart,
} from './types.ts';

export interface BuildOptions {
  budget: FrameBudget;
  /** A scene's frame list (its frames.json) at the budget; undefined when the scene has none. */
  frames(scene: string): readonly SampledFrame[] | undefined;
  /** Agents to ask about (any case; `ROBOT` is `HUMANOID`); default every profile, in profile order. */
  agents?: readonly string[];
  /** Scenes to include; default every scene, in project order. */
  scenes?: readonly string[];
  /** Spatial information to add (in SPATIAL_PARTS order); default none, the inputs of B.1. */
  with?: readonly SpatialPart[];
  /** The scan's up axis, which the graph's positions follow (floors go by height on it); default y. */
  up?: 'y' | 'z';
  /** Only this shard's scenes: i, i+N, … of the scenes chosen, in their order (core/shard.ts). */
  shard?: Shard;
}

export interface BuildResult {
  /** Scene by scene; in a scene, agent by agent (profile order), questions in file order. */
  inputs: EvalInput[];
  /** Questions left out because the traverse file lists them as hallucinated (as scoring leaves them out). */
  excluded: ExcludedQuestion[];
  /** Scenes (with questions to ask) that have no frame set at the budget. */
  missingFrames: string[];
  /** Why the options cannot be used (an unknown agent or scene, a name that cannot be a folder). */
  errors: string[];
  /** The scenes chosen, in their order (before a shard takes its own). */
  order: string[];
}

/**
 * Every (question × agent) evaluation input of the project: CapNav B.1's prompt and the scene's
 * frame set. Hallucinated questions are left out exactly as the scorer leaves them out (the
 * question's exact text is in the scene's hallucination list); every other question is asked,
 * including those whose start or end names no node (the released scorer guesses their ends
 * from the text and scores them).
 */
export function buildEvalInputs(project: Project, opts: BuildOptions): BuildResult {
  const out: BuildResult = { inputs: [], excluded: [], missingFrames: [], errors: [], order: [] };
  const profiles = chooseAgents(project, opts.agents, out.errors);
  const chosen = chooseScenes(project, opts.scenes, out.errors);
  out.order = chosen.map((s) => s.id);
  const scenes = opts.shard ? chosen.filter((_, i) => inShard(i, opts.shard!)) : chosen;
  for (const p of profiles) {
    const problem = pathPartProblem(p.name);
    if (problem) out.errors.push(`agent ${JSON.stringify(p.name)} becomes a folder name and ${problem}`);
  }
  if (out.errors.length) return out;
  for (const scene of scenes) {
    const asked = scene.questions
      .map((q, index) => ({ q, index }))
      .filter(({ q, index }) => {
        if (!isHallucinated(scene, q.text)) return true;
        out.excluded.push({ scene: scene.id, questionIndex: index, question: q.text, reason: 'hallucinated' });
        return false;
      });
    if (asked.length === 0) continue;
    const frames = opts.frames(scene.id);
    if (!frames) {
      out.missingFrames.push(scene.id);
      continue;
    }
    const folder = frameSetFolder(scene.id, opts.budget);
    const cited = frames.map((f) => ({ file: `${folder}/${f.file}`, t: f.t }));
    const spatial = spatialOf(scene, frames, opts);
    for (const profile of profiles) {
      for (const { q, index } of asked) {
        out.inputs.push({
          format: EVAL_INPUT_FORMAT,
          version: 1,
          promptVersion: PROMPT_VERSION,
          scene: scene.id,
          agent: profile.name,
          questionIndex: index,
          questionId: q.id,
          question: q.text,
          promptFile: promptFileName(scene.id, index, profile.name),
          prompt: evalPrompt({ question: q.text, profile, graph: scene.graph, frameCount: cited.length, added: spatial.added }),
          budget: opts.budget,
          frames: cited,
          ...spatial.fields,
        });
      }
    }
  }
  return out;
}

/** What the spatial parts add to a scene's inputs: the prompt's graph section, and the depth frames and maps cited. */
function spatialOf(scene: Scene, frames: readonly SampledFrame[], opts: BuildOptions): { added: string[]; fields: Partial<EvalInput> } {
  const parts = opts.with ?? [];
  if (parts.length === 0) return { added: [], fields: {} };
  const up = opts.up ?? 'y';
  const fields: Partial<EvalInput> = { with: [...parts] };
  if (parts.includes('depth')) fields.depthFrames = frames.map((f) => ({ file: depthFramePath(scene.id, opts.budget, f.file), t: f.t }));
  if (parts.includes('map')) fields.maps = sceneMaps(scene.id, scene.graph, up);
  return { added: parts.includes('graph') ? [graphText(scene.graph, up)] : [], fields };
}

function chooseAgents(project: Project, wanted: readonly string[] | undefined, errors: string[]): AgentProfile[] {
  if (!wanted || wanted.length === 0) return project.profiles;
  const byName = new Map(project.profiles.map((p) => [canonicalAgent(p.name), p]));
  const chosen: AgentProfile[] = [];
  for (const w of wanted) {
    const p = byName.get(canonicalAgent(w));
    if (p) {
      if (!chosen.includes(p)) chosen.push(p);
    } else errors.push(`agent ${JSON.stringify(w)} has no profile (the profiles are ${project.profiles.map((x) => x.name).join(', ')})`);
  }
  return chosen;
}

function chooseScenes(project: Project, wanted: readonly string[] | undefined, errors: string[]): Scene[] {
  if (!wanted || wanted.length === 0) return project.scenes;
  const chosen: Scene[] = [];
  for (const w of wanted) {
    const s = project.scenes.find((x) => x.id === w);
    if (s) {
      if (!chosen.includes(s)) chosen.push(s);
    } else errors.push(`scene ${JSON.stringify(w)} is not in the release`);
  }
  return chosen;
}

/** The manifest of an export of `result` (what `cli eval-inputs` writes as manifest.json). */
export function evalManifest(result: Pick<BuildResult, 'inputs' | 'excluded'>, budget: FrameBudget, parts: readonly SpatialPart[] = []): EvalInputsManifest {
  const scenes = new Set(result.inputs.map((i) => i.scene));
  const agents = new Set(result.inputs.map((i) => i.agent));
  const questions = new Set(result.inputs.map((i) => `${i.scene}\u0000${i.questionIndex}`));
  return {
    format: EVAL_MANIFEST_FORMAT,
    version: 1,
    promptVersion: PROMPT_VERSION,
    budget,
    ...(parts.length ? { with: [...parts] } : {}),
    inputs: result.inputs.map((i) => evalInputPath(i.scene, i.agent, i.questionIndex)),
    excluded: result.excluded,
    counts: { scenes: scenes.size, agents: agents.size, questions: questions.size, inputs: result.inputs.length, excludedHallucinated: result.excluded.length },
  };
}
