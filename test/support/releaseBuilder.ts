import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Builders for small synthetic CapNav releases, as the raw JSON a user's files contain
 * (see the shared capnav-formats.md). Every builder returns a fresh object, so a test can
 * break one field and hand the files to the reader.
 */

export interface RawNodeJson {
  id: unknown;
  name: unknown;
  position: { x: number; y: number; z: number };
  [field: string]: unknown;
}
export interface RawEdgeJson {
  id: string;
  from: string;
  to: string;
  [field: string]: unknown;
}
export interface RawGraphJson {
  nodes: RawNodeJson[];
  edges: RawEdgeJson[];
  [field: string]: unknown;
}
export interface RawNodesInvolved {
  start: string;
  intermediate?: string[];
  end: string;
  [field: string]: unknown;
}
export interface RawQuestionJson {
  question: string;
  nodes_involved?: RawNodesInvolved;
  [field: string]: unknown;
}
export interface RawLabelJson {
  traversable: unknown;
  note?: string;
  [field: string]: unknown;
}
export type RawAgentTableJson = Record<string, RawLabelJson | Record<string, unknown>>;
export interface RawTraverseJson {
  _hallucinatedQuestions?: string[];
  [agentKey: string]: unknown;
}

/** One scene's files; a string stands for the file's literal text (to test malformed JSON). */
export interface SceneSpec {
  id: string;
  graph?: RawGraphJson | string;
  qa?: RawQuestionJson[] | { questions: RawQuestionJson[] } | string;
  traverse?: RawTraverseJson | string;
}

export interface SourceFileLike {
  path: string;
  text: string;
}

export const rawNode = (id: string, name: string, more: Record<string, unknown> = {}): RawNodeJson => ({
  id,
  name,
  description: '',
  position: { x: 0, y: 0, z: 0 },
  ...more,
});
export const rawEdge = (id: string, from: string, to: string, more: Record<string, unknown> = {}): RawEdgeJson => ({ id, from, to, ...more });
export const rawLabel = (traversable: boolean, note: string, more: Record<string, unknown> = {}): RawLabelJson => ({
  traversable,
  note,
  timestamp: '2025-11-04T21:57:24.240Z',
  ...more,
});

export function rawQuestion(question: string, start: string, end: string, intermediate: string[] = [], more: Record<string, unknown> = {}): RawQuestionJson {
  return {
    scene_type: 'home',
    question,
    reason: 'The video shows a clear walkway (00:01-00:05).',
    nodes_involved: { start, start_detail: 'by the door', intermediate, end, end_detail: 'by the window' },
    ...more,
  };
}

export function agentTable(traverse: RawTraverseJson, agentKey: string): RawAgentTableJson {
  return traverse[agentKey] as RawAgentTableJson;
}

export function questionsOf(spec: SceneSpec): RawQuestionJson[] {
  const qa = spec.qa;
  if (qa === undefined || typeof qa === 'string') throw new Error('scene has no parsed question file');
  return Array.isArray(qa) ? qa : qa.questions;
}

export const Q = {
  hallToBedroom: 'Can [Agent] move from the front hall to the master bedroom?',
  kitchenToUpstairs: 'Can [Agent] move from the kitchen to the upstairs hall by way of the living room?',
  kitchenToTypo: 'Can [Agent] move from the kitchen to the second floor bedroom?',
  garage: 'Can [Agent] move from the garage to the kitchen?',
  kitchenToLiving: 'Can [Agent] move from the kitchen to the living room?',
} as const;

/**
 * A two-storey house: hall, kitchen and living room form a cycle on the ground floor; stairs lead
 * from the living room to the landing, then the upstairs hall, then the master bedroom.
 * Questions use every reference form; the traverse file keeps the humanoid under `ROBOT`.
 */
export function houseScene(id = 'HM3D00025'): { id: string; graph: RawGraphJson; qa: RawQuestionJson[]; traverse: RawTraverseJson } {
  const graph: RawGraphJson = {
    nodes: [
      rawNode('node_1', 'Front hall'),
      rawNode('node_2', 'Kitchen'),
      rawNode('node_3', 'Living room'),
      rawNode('node_5', 'Stair landing'),
      rawNode('node_12', 'Hall - upstairs'),
      rawNode('node_8', 'Master bedroom'),
    ],
    edges: [
      rawEdge('edge_1', 'node_1', 'node_2'),
      rawEdge('edge_2', 'node_2', 'node_3'),
      rawEdge('edge_3', 'node_3', 'node_1'),
      rawEdge('edge_4', 'node_3', 'node_5'),
      rawEdge('edge_5', 'node_5', 'node_12'),
      rawEdge('edge_6', 'node_12', 'node_8'),
    ],
  };
  const qa = [
    rawQuestion(Q.hallToBedroom, 'node_1', 'master BEDROOM'),
    rawQuestion(Q.kitchenToUpstairs, 'node_2 — Kitchen', 'Hall - upstairs', ['node_3 - Living room']),
    rawQuestion(Q.garage, 'node_1', 'node_2'),
  ];
  const all = (t: boolean, note: string) => ({
    'node_1|node_3': rawLabel(t, note, { question: Q.hallToBedroom }),
    'node_3|node_5': rawLabel(false, 'Stairs', { question: Q.hallToBedroom }),
    'node_5|node_12': rawLabel(t, note, { question: Q.hallToBedroom }),
    'node_12|node_8': rawLabel(t, note, { question: Q.hallToBedroom }),
  });
  const traverse: RawTraverseJson = {
    _hallucinatedQuestions: [Q.garage],
    HUMAN: {
      'node_1|node_3': rawLabel(true, 'Auto-approved: able-bodied human'),
      'node_2|node_3': rawLabel(true, 'Auto-approved: able-bodied human'),
      'node_1|node_2': rawLabel(true, 'Auto-approved: able-bodied human'),
      'node_3|node_5': rawLabel(true, 'Auto-approved: able-bodied human'),
      'node_5|node_12': rawLabel(true, 'Auto-approved: able-bodied human'),
      'node_12|node_8': rawLabel(true, 'Auto-approved: able-bodied human'),
    },
    WHEELCHAIR: all(true, 'Wide doorway'),
    ROBOT: all(true, 'Flat floor'),
    SWEEPER: {},
    QUADRUPEDAL: {},
  };
  return { id, graph, qa, traverse };
}

const PROFILES = [
  ['HUMAN', 'cylinder', 1.7, 0.6, null, 0.3, true, true, true],
  ['WHEELCHAIR', 'box', 1.2, 0.7, 1.0, 0.013, false, true, true],
  ['HUMANOID', 'box', 1.5, 0.9, 0.9, 0.4, false, true, true],
  ['QUADRUPEDAL', 'box', 0.7, 0.5, 1.1, 0.3, true, false, false],
  ['SWEEPER', 'cylinder', 0.15, 0.4, null, 0.02, false, false, false],
] as const;

export function rawProfiles(): Record<string, unknown>[] {
  return PROFILES.map(([agent_name, body_shape, body_height_m, body_width_m, body_depth_m, max_vertical_cross_height_m, stairs, elevator, doors]) => ({
    agent_name,
    body_shape,
    body_height_m,
    body_width_m,
    body_depth_m,
    max_vertical_cross_height_m,
    can_go_up_or_down_stairs: stairs,
    can_operate_elevator: elevator,
    can_open_the_door: doors,
    description: `${agent_name} profile`,
  }));
}

export interface ReleaseOptions {
  /** Leading folder every path is given under, e.g. `capnav`. */
  root?: string;
  /** Put every file in one folder (no graphs/, qa/, traverse/). */
  flat?: boolean;
  /** Include agent_profile.json (default true). */
  profiles?: boolean;
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** The files of a release, with paths as a folder picker or `readdir` would give them. */
export function releaseFiles(scenes: SceneSpec[], opts: ReleaseOptions = {}): SourceFileLike[] {
  const at = (folder: string, name: string) => [opts.root, opts.flat ? undefined : folder, name].filter(Boolean).join('/');
  const files: SourceFileLike[] = [];
  if (opts.profiles !== false) files.push({ path: at('', 'agent_profile.json'), text: text(rawProfiles()) });
  for (const s of scenes) {
    if (s.graph !== undefined) files.push({ path: at('graphs', `${s.id}-graph.json`), text: text(s.graph) });
    if (s.qa !== undefined) files.push({ path: at('qa', `${s.id}_QA.json`), text: text(s.qa) });
    if (s.traverse !== undefined) files.push({ path: at('traverse', `${s.id}-traverse.json`), text: text(s.traverse) });
  }
  return files;
}

/** Write files into a fresh temporary folder and return its path. */
export function writeReleaseDir(files: readonly SourceFileLike[], prefix = 'traversa-release-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const f of files) {
    const full = join(dir, f.path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, f.text);
  }
  return dir;
}
