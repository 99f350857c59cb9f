import { z } from 'zod';
import { pathPartProblem, relativePathProblem } from '../pathNames.ts';
import { FRAME_BUDGETS, type FrameBudget } from '../tour/types.ts';

/**
 * Evaluation inputs: per (question × agent) of a scene, the prompt a model answers (CapNav
 * appendix B.1) and the frames it sees. `cli eval-inputs` exports them; `cli run-model` builds
 * the same inputs from a release (or reads an export) and sends them to a model.
 *
 * Export layout (under `--out`):
 *
 *     manifest.json                            an EvalInputsManifest: every input file, in run order,
 *                                              and the questions left out (hallucinated)
 *     inputs/<SCENE>/<AGENT>/q<NN>.json        one EvalInput; NN = the question's place in the QA
 *                                              file, from 01 (CapNav's prompt files count the same way)
 *     frames/<SCENE>/<budget>/NNN.jpg          the frame set the inputs cite, copied from the release
 *     frames/<SCENE>/<budget>/frames.json      SampledFrame[] (see core/tour/types.ts)
 *
 * With spatial information (`eval-inputs --with depth,map,graph`, any of them; the inputs' `with`):
 *
 *     frames/<SCENE>/<budget>/depth/NNN.png    depth: frame NNN.jpg's depth rendered from the scan at
 *                                              the frame's pose, the same camera and picture at a
 *                                              quarter of its width and height (DEPTH_DOWNSCALE):
 *                                              16-bit grey PNG, z-depth (along the view axis) in
 *                                              millimetres, 0 where nothing is within 65.535 m
 *     frames/<SCENE>/<budget>/depth/depth.json a DepthInfo (spatial.ts): units, camera, each pose
 *     maps/<SCENE>/floor-<N>.png               map: floor N's top-down map, rendered from the scan
 *                                              (orthographic, cut 1.8 m above the floor), with a red
 *                                              numbered marker on each node of the floor
 *     maps/<SCENE>/map.json                    a MapInfo (spatial.ts): the pixel ↔ world transform, floors,
 *                                              each node's marker (number, floor, pixel)
 *
 * graph adds no file: the topological graph is a section of the prompt (core/evalinputs/spatial.ts).
 *
 * Frame paths inside an input are relative to the export's root (the release's root when the
 * inputs are built from a release), so an export can be moved and run as it is.
 */

export const EVAL_INPUT_FORMAT = 'traversa-eval-input';
export const EVAL_MANIFEST_FORMAT = 'traversa-eval-inputs';

/** The line of the prompt where the frames go (run-model puts the images there). */
export const VIDEO_MARK = '<video>';

export interface EvalFrame {
  /** Relative to the export (or release) root: `frames/<SCENE>/<budget>/000.jpg`. */
  file: string;
  /** Time in the touring video (seconds). */
  t: number;
}

/** The spatial information an input may add to its frames (`eval-inputs --with`), in this order. */
export const SPATIAL_PARTS = ['depth', 'map', 'graph'] as const;
export type SpatialPart = (typeof SPATIAL_PARTS)[number];

/** A floor's top-down map as an input cites it. */
export interface EvalMap {
  /** Relative to the export root: `maps/<SCENE>/floor-1.png`. */
  file: string;
  /** From 1 (the lowest floor). */
  floor: number;
  /** The markers on it: each node's number on the map. */
  markers: { label: string; node: string }[];
}

export interface EvalInput {
  format: typeof EVAL_INPUT_FORMAT;
  version: 1;
  promptVersion: string;
  scene: string;
  agent: string;
  /** Place of the question in the scene's QA file, from 0. */
  questionIndex: number;
  questionId: string;
  /** The question as the QA file writes it (`[Agent]` kept): what predictions repeat and scoring matches. */
  question: string;
  /** CapNav's prompt-file name, `<SCENE>_q<NN>_<AGENT>.txt` (NN from 01). */
  promptFile: string;
  /** The whole prompt; the line `<video>` (VIDEO_MARK) stands where the frames go. */
  prompt: string;
  budget: FrameBudget;
  frames: EvalFrame[];
  /** The spatial information added, in SPATIAL_PARTS order; absent (as in inputs written before it) or empty: frames only. */
  with?: SpatialPart[];
  /** With depth: each frame's depth frame, in the frames' order. */
  depthFrames?: EvalFrame[];
  /** With map: the top-down map of each floor with nodes, lowest first. */
  maps?: EvalMap[];
}

export interface ExcludedQuestion {
  scene: string;
  questionIndex: number;
  question: string;
  reason: 'hallucinated';
}

export interface EvalInputsManifest {
  format: typeof EVAL_MANIFEST_FORMAT;
  version: 1;
  promptVersion: string;
  budget: FrameBudget;
  /** The spatial information every input adds (absent: frames only). */
  with?: SpatialPart[];
  /** Input files (relative to the export root) in the order run-model asks them. */
  inputs: string[];
  excluded: ExcludedQuestion[];
  counts: { scenes: number; agents: number; questions: number; inputs: number; excludedHallucinated: number };
}

/** `q01` for the first question of a QA file. */
export const questionTag = (index: number) => `q${String(index + 1).padStart(2, '0')}`;

export const promptFileName = (scene: string, index: number, agent: string) => `${scene}_${questionTag(index)}_${agent}.txt`;

/** Where an input lives in an export. */
export const evalInputPath = (scene: string, agent: string, index: number) => `inputs/${scene}/${agent}/${questionTag(index)}.json`;

/** The frame-set folder of a scene in the release layout (and in an export). */
export const frameSetFolder = (scene: string, budget: FrameBudget) => `frames/${scene}/${budget}`;

/** Where a frame's depth frame goes: `frames/<SCENE>/<budget>/depth/000.png` for 000.jpg. */
export const depthFramePath = (scene: string, budget: FrameBudget, frameFile: string) =>
  `${frameSetFolder(scene, budget)}/depth/${frameFile.replace(/\.[^.]*$/, '')}.png`;

/** A scene's maps folder, and the map of a floor (from 1) in it. */
export const mapFolder = (scene: string) => `maps/${scene}`;
export const mapFile = (scene: string, floor: number) => `${mapFolder(scene)}/floor-${floor}.png`;

/** Depth frames are the colour frame's picture at 1/DEPTH_DOWNSCALE of its width and height. */
export const DEPTH_DOWNSCALE = 4;
/** The deepest a 16-bit millimetre depth can say. */
export const DEPTH_FAR_M = 65.535;

const safeRelative = z.string().superRefine((p, ctx) => {
  const problem = relativePathProblem(p);
  if (problem) ctx.addIssue({ code: 'custom', message: `a frame path ${problem}` });
});

/** A scene id or agent name: both become parts of result file names. */
const namePart = z
  .string()
  .min(1)
  .superRefine((p, ctx) => {
    const problem = pathPartProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: `becomes part of a file name and ${problem}` });
  });

export const EvalInputSchema = z.object({
  format: z.literal(EVAL_INPUT_FORMAT),
  version: z.literal(1),
  promptVersion: z.string().min(1),
  scene: namePart,
  agent: namePart,
  questionIndex: z.number().int().nonnegative(),
  questionId: z.string(),
  question: z.string().min(1),
  promptFile: z.string(),
  prompt: z.string().min(1),
  budget: z.enum(FRAME_BUDGETS),
  frames: z.array(z.object({ file: safeRelative, t: z.number().finite().nonnegative() })),
  with: z.array(z.enum(SPATIAL_PARTS)).optional(),
  depthFrames: z.array(z.object({ file: safeRelative, t: z.number().finite().nonnegative() })).optional(),
  maps: z
    .array(z.object({ file: safeRelative, floor: z.number().int().positive(), markers: z.array(z.object({ label: z.string(), node: z.string() })) }))
    .optional(),
});

export const EvalInputsManifestSchema = z.object({
  format: z.literal(EVAL_MANIFEST_FORMAT),
  version: z.literal(1),
  promptVersion: z.string(),
  budget: z.enum(FRAME_BUDGETS),
  with: z.array(z.enum(SPATIAL_PARTS)).optional(),
  inputs: z.array(safeRelative),
  excluded: z.array(z.object({ scene: z.string(), questionIndex: z.number(), question: z.string(), reason: z.literal('hallucinated') })),
  counts: z.object({ scenes: z.number(), agents: z.number(), questions: z.number(), inputs: z.number(), excludedHallucinated: z.number() }),
});
