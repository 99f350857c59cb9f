import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  scoreReference,
  type CompatRecord,
  type CompatGroundTruth,
  type CompatInputFile,
  type CompatJudge,
  type CompatLabel,
  type CompatResult,
  type CompatSceneTruth,
} from '../../src/core/scoring/compat/index.ts';
import { loadScenes, resolveIndependently, type OracleScene } from './capnavOracle.ts';
import { mulberry32, pick, type Rng } from './random.ts';
import { expectReleasedScorerAgrees } from './releasedScorer.ts';

/**
 * Fixtures for the reference-compatible scorer: a hand-made house, prediction files as the
 * benchmark's runner writes them, and a results folder generated from the real release with
 * correct, wrong and deliberately broken predictions.
 */

/** A scene from `[id, name]` nodes, `[a, b]` edges and `agent → { 'a|b': [traversable, note?] }` labels. */
export function compatScene(
  nodes: [string, string][],
  edges: [string, string][],
  labels: Record<string, Record<string, [boolean, string?]>> = {},
): CompatSceneTruth {
  const traverse: Record<string, Record<string, CompatLabel>> = {};
  for (const [agent, table] of Object.entries(labels)) {
    traverse[agent] = Object.fromEntries(Object.entries(table).map(([k, [t, note]]) => [k, { traversable: t, note: note ?? null }]));
  }
  return { nodes: nodes.map(([id, name]) => ({ id, name })), edges: edges.map(([from, to]) => ({ from, to })), traverse };
}

/**
 * A small house: kitchen — hallway — living room, hallway — stairs — upstairs bedroom.
 * The wheelchair is stopped by the stairs (noted) and by the bedroom door (no note).
 * The humanoid's labels are stored under ROBOT, as in the release.
 */
export const HOUSE = 'HM3D99999';
export const house = compatScene(
  [
    ['node_1', 'Kitchen'],
    ['node_2', 'Hallway'],
    ['node_3', 'Living room'],
    ['node_4', 'Stair landing'],
    ['node_5', 'Upstairs bedroom'],
    ['node_6', 'Master bedroom bathroom'],
  ],
  [
    ['node_1', 'node_2'],
    ['node_2', 'node_3'],
    ['node_2', 'node_4'],
    ['node_4', 'node_5'],
    ['node_5', 'node_6'],
  ],
  {
    HUMAN: { 'node_1|node_2': [true], 'node_2|node_3': [true], 'node_2|node_4': [true], 'node_4|node_5': [true], 'node_5|node_6': [true] },
    WHEELCHAIR: { 'node_1|node_2': [true], 'node_3|node_2': [true], 'node_2|node_4': [false, 'Stairs'], 'node_4|node_5': [false, ''], 'node_5|node_6': [true] },
    ROBOT: { 'node_1|node_2': [true], 'node_2|node_3': [true], 'node_2|node_4': [false, 'Stairs'], 'node_4|node_5': [false, 'Stairs'] },
  },
);
export const houseTruth = new Map([[HOUSE, house]]);

export const ask = (from: string, to: string) => `Can [Agent] move from the ${from} to the ${to}?`;

export interface PredictionItem {
  question: unknown;
  agent: unknown;
  result?: unknown;
  [field: string]: unknown;
}

/** One item as the runner writes it. */
export function item(question: string, agent: string, answer: unknown, path: unknown, reason = ''): PredictionItem {
  return { question, agent, result: { answer, path, reason } };
}

/** A runner output file: `{ scene, prompt_file, time_sec, result: [...] }`. */
export function resultsFile(path: string, scene: string, items: unknown[]): CompatInputFile {
  return { path, text: JSON.stringify({ scene, prompt_file: `${scene}.txt`, time_sec: 1.5, result: items }, null, 2) };
}

/** Score items as one runner file of `scene` (the house by default). */
export function scoreItems(items: unknown[], opts: { scene?: string; truth?: CompatGroundTruth; judge?: CompatJudge } = {}): CompatResult {
  return scoreFiles([resultsFile(`model/${opts.scene ?? HOUSE}/${opts.scene ?? HOUSE}_run.json`, opts.scene ?? HOUSE, items)], opts);
}

/**
 * Score runner files (over the house by default); with TRAVERSA_RELEASED_SCORER set, also check
 * the result against the released scorer's own output for the same folder (see releasedScorer.ts).
 */
export function scoreFiles(files: CompatInputFile[], opts: { truth?: CompatGroundTruth; judge?: CompatJudge } = {}): CompatResult {
  const truth = opts.truth ?? houseTruth;
  const result = scoreReference(files, truth, opts.judge ? { judge: opts.judge } : {});
  if (!opts.judge) expectReleasedScorerAgrees(files, truth, result);
  return result;
}

/** Score one question for one scene given as nodes and edges (all edges traversable for HUMAN). */
export function guessIn(nodes: [string, string][], question: string, edges: [string, string][] = []): CompatResult['records'][number] {
  const scene = compatScene(nodes, edges, { HUMAN: Object.fromEntries(edges.map(([a, b]) => [`${a}|${b}`, [true] as [boolean]])) });
  return scoreItems([item(question, 'HUMAN', 'no', ['x', 'y'])], { scene: 'S', truth: new Map([['S', scene]]) }).records[0]!;
}

const BASE = ['qid', 'scene', 'agent', 'entry_idx', 'status', 'question', 'source_file', 'model_setting', 'prompt_file', 'time_sec'];
const GUESS = ['derive_method', 'src_name', 'tgt_name', 'src_id', 'tgt_id'];
const PATHS = [
  'vlm_answer',
  'vlm_path_names_raw',
  'vlm_path_names_mapped',
  'vlm_path_ids',
  'pv_valid',
  'pv_errors',
  'rta_applicable',
  'traversability_score',
  'rv_applicable',
  'rv_score',
  'rv_judge_explanation',
  'rv_llm_model',
  'ground_truth_doable',
  'correct_answer',
];
/** Each record kind's keys, in the released scorer's order. */
export const RECORD_KEYS = {
  failedBeforeGuess: [...BASE, 'ok', 'error'],
  failedAfterGuess: [...BASE, 'ok', 'error', 'derive_method'],
  formatError: [...BASE, 'ok', 'format_error', 'format_error_type', ...GUESS, ...PATHS, 'binary_bucket'],
  parsed: [...BASE, 'ok', 'format_error', 'format_error_type', 'binary_bucket', ...GUESS, ...PATHS],
};
/** Which of the four kinds a record is. */
export function recordKind(r: CompatRecord): keyof typeof RECORD_KEYS {
  if (!r.ok) return 'derive_method' in r ? 'failedAfterGuess' : 'failedBeforeGuess';
  return r.format_error ? 'formatError' : 'parsed';
}

export const AGENTS = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'] as const;

/** How a generated record was made, so tests can check each kind's outcome. */
export type Variant =
  'correct' | 'garbage-answer' | 'bool-answer' | 'letter-answer' | 'names-with-typos' | 'empty-path' | 'yes-one-node' | 'unknown-token' | 'wrong-answer';

export interface GeneratedRecord {
  file: string;
  scene: string;
  question: string;
  agent: string;
  variant: Variant;
  /** Feasibility by the question's own node references (not the scorer's guess); null when they do not resolve. */
  feasibleByRefs: boolean | null;
  /** The question's start and end references, resolved (null when a reference matches no node). */
  srcByRefs: string | null;
  tgtByRefs: string | null;
}

export interface GeneratedResults {
  files: CompatInputFile[];
  records: GeneratedRecord[];
  /** Files that must fail as a whole: path → expected reason. */
  brokenFiles: Record<string, string>;
  /** Items that must be skipped (not objects). */
  skippedItems: number;
}

function labelOf(scene: OracleScene, agent: string, a: string, b: string): { traversable?: unknown } | undefined {
  const key = agent === 'HUMANOID' ? 'ROBOT' : agent;
  const table = scene.traverse[key] as Record<string, { traversable?: unknown }> | undefined;
  return table?.[`${a}|${b}`] ?? table?.[`${b}|${a}`];
}

/** Shortest path src → tgt, over edges `ok` accepts; null when there is none. */
function bfsPath(scene: OracleScene, src: string, tgt: string, ok: (a: string, b: string) => boolean): string[] | null {
  const adj = new Map<string, string[]>();
  for (const e of scene.edges) {
    adj.set(e.from, [...(adj.get(e.from) ?? []), e.to]);
    adj.set(e.to, [...(adj.get(e.to) ?? []), e.from]);
  }
  const prev = new Map<string, string | null>([[src, null]]);
  const queue = [src];
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i]!;
    if (u === tgt) break;
    for (const v of adj.get(u) ?? [])
      if (!prev.has(v) && ok(u, v)) {
        prev.set(v, u);
        queue.push(v);
      }
  }
  if (!prev.has(tgt)) return null;
  const path: string[] = [];
  for (let v: string | null = tgt; v !== null; v = prev.get(v)!) path.unshift(v);
  return path;
}

function typo(rng: Rng, name: string): string {
  if (name.length < 6) return name;
  const i = 1 + Math.floor(rng() * (name.length - 2));
  return rng() < 0.5 ? name.slice(0, i) + name.slice(i + 1) : name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
}

const loaded = new Map<string, OracleScene[]>();

/**
 * A results folder over the release in `dir`: one file per scene and agent, one item per
 * question with the answer and path that are right by the question's node references; about a
 * third of the items are altered (garbage, True/False, (A)/(B), names with typos, an empty path,
 * one-node yes, an unknown token, the opposite answer). Plus files that fail whole and non-object items.
 */
export function generateResults(dir: string, seed = 7, opts: { model?: string; broken?: boolean } = {}): GeneratedResults {
  const model = opts.model ?? 'gemini';
  const rng = mulberry32(seed);
  let scenes = loaded.get(dir);
  if (!scenes) loaded.set(dir, (scenes = loadScenes(dir)));
  const files: CompatInputFile[] = [];
  const records: GeneratedRecord[] = [];
  for (const scene of scenes) {
    const nameOf = new Map(scene.nodes.map((n) => [n.id, n.name]));
    for (const agent of AGENTS) {
      const file = `${model}/${scene.id}/${scene.id}_${agent}.json`;
      const items: unknown[] = [];
      for (const q of scene.questions) {
        const src = resolveIndependently(q.nodes_involved.start, scene.nodes);
        const tgt = resolveIndependently(q.nodes_involved.end, scene.nodes);
        const feasible = src && tgt ? bfsPath(scene, src, tgt, (a, b) => labelOf(scene, agent, a, b)?.traversable === true) : null;
        const anyPath = src && tgt ? bfsPath(scene, src, tgt, () => true) : null;
        let answer: unknown = feasible ? 'yes' : 'no';
        let path: unknown = feasible ?? anyPath ?? [src ?? 'node_0', tgt ?? 'node_0'];
        let variant: Variant = 'correct';
        const roll = rng();
        if (roll < 0.04) {
          variant = 'garbage-answer';
          answer = pick(rng, ['maybe', 'I cannot tell', '', 'y']);
        } else if (roll < 0.08) {
          variant = 'bool-answer';
          answer = Boolean(feasible);
        } else if (roll < 0.12) {
          variant = 'letter-answer';
          answer = feasible ? pick(rng, ['(A)', 'A', ' a ']) : pick(rng, ['(B)', 'B']);
        } else if (roll < 0.2) {
          variant = 'names-with-typos';
          path = (path as string[]).map((id) => typo(rng, nameOf.get(id) ?? id));
        } else if (roll < 0.23) {
          variant = 'empty-path';
          path = [];
        } else if (roll < 0.26) {
          variant = 'yes-one-node';
          answer = 'yes';
          path = [(path as string[])[0]];
        } else if (roll < 0.29) {
          variant = 'unknown-token';
          path = [...(path as string[]), 'node_9999'];
        } else if (roll < 0.34) {
          variant = 'wrong-answer';
          answer = feasible ? 'no' : 'yes';
        }
        items.push(item(q.question, agent, answer, path, feasible ? '' : 'The wheelchair cannot climb the stairs'));
        records.push({
          file,
          scene: scene.id,
          question: q.question,
          agent,
          variant,
          feasibleByRefs: src && tgt ? feasible !== null : null,
          srcByRefs: src,
          tgtByRefs: tgt,
        });
      }
      files.push(resultsFile(file, scene.id, items));
    }
  }
  if (opts.broken === false) return { files, records, brokenFiles: {}, skippedItems: 0 };
  const brokenFiles: Record<string, string> = {
    [`${model}/broken/list.json`]: 'invalid_json',
    [`${model}/broken/no_scene.json`]: 'missing_scene',
    [`${model}/broken/odd_items.json`]: 'empty_result_items_or_missing_fields',
    [`${model}/broken/result_text.json`]: 'result_not_list',
    [`${model}/broken/truncated.json`]: 'invalid_json',
  };
  files.push(
    { path: `${model}/broken/list.json`, text: '[1, 2, 3]' },
    { path: `${model}/broken/no_scene.json`, text: JSON.stringify({ result: [item('Can [Agent] move from A to B?', 'HUMAN', 'yes', ['node_1', 'node_2'])] }) },
    { path: `${model}/broken/result_text.json`, text: JSON.stringify({ scene: 'HM3D00000', result: 'Answer: (A) True | Path: node_1 -> node_2' }) },
    { path: `${model}/broken/truncated.json`, text: '{"scene": "HM3D00000", "result": [' },
    // Non-object items are skipped without a record; a file with nothing else fails whole.
    { path: `${model}/broken/odd_items.json`, text: JSON.stringify({ scene: 'HM3D00000', result: ['yes', 3, null, ['node_1']] }) },
  );
  return { files, records, brokenFiles, skippedItems: 4 };
}

/**
 * The released layout on disk, as the CapNav runner writes it for `models` models:
 * `<into>/model-01/<SCENE>/<SCENE>_<AGENT>.json`, one file per scene and agent, one item per
 * question (each model's items altered by its own seed, no broken files). Returns the counts.
 */
export function writeReleasedLayout(releaseDir: string, into: string, models: number): { files: number; records: number } {
  let files = 0,
    records = 0;
  for (let m = 1; m <= models; m++) {
    const gen = generateResults(releaseDir, 1000 + m, { model: `model-${String(m).padStart(2, '0')}`, broken: false });
    for (const f of gen.files) {
      const to = join(into, f.path);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, f.text);
    }
    files += gen.files.length;
    records += gen.records.length;
  }
  return { files, records };
}
