import { DEFAULT_PROFILES, type AgentProfile } from '../agents.ts';
import { undirectedKey, type NavEdge, type NavNode } from '../graph.ts';
import type { Label } from '../labels.ts';
import type { Scene } from '../project.ts';
import type { NavQuestion } from '../questions.ts';
import { passageFeature, type SampleFeatures } from './features.ts';
import { judgeEdge } from '../rules.ts';
import { nodePosition, SAMPLE_HOUSE, type HouseSpec } from './houseSpec.ts';
import { SAMPLE_QUESTIONS, type SampleQuestion } from './sampleQuestions.ts';

export const SAMPLE_SCENE_ID = 'sample-house';
/** Labels carry a fixed time so regenerating the scene gives byte-identical files. */
export const LABEL_TIMESTAMP = '2026-01-01T00:00:00.000Z';
export const LABEL_ANNOTATOR = 'generator';

export interface SampleRelease {
  profiles: AgentProfile[];
  /** The scene as CapNav release objects: graph, questions, labels (traverse). */
  scene: Scene;
  features: SampleFeatures;
}

/** Node ids in room order: `node_1`, `node_2`, … */
export function nodeIds(spec: HouseSpec): Map<string, string> {
  return new Map(spec.rooms.map((r, i) => [r.key, `node_${i + 1}`]));
}

/** The sample house as a CapNav release (see buildHouseRelease). */
export function buildSampleRelease(spec: HouseSpec = SAMPLE_HOUSE, profiles: readonly AgentProfile[] = DEFAULT_PROFILES): SampleRelease {
  return buildHouseRelease(spec, { sceneId: SAMPLE_SCENE_ID, questions: SAMPLE_QUESTIONS, profiles });
}

export interface HouseReleaseOptions {
  sceneId: string;
  questions: readonly SampleQuestion[];
  profiles?: readonly AgentProfile[];
}

/**
 * A generated house as a CapNav release: one node per room, one edge per connection, every edge
 * labelled for every agent by the ground-truth rules (once, as `from|to` in graph order, since the
 * judgement is the same both ways), the questions, and the per-edge obstacle record.
 */
export function buildHouseRelease(spec: HouseSpec, { sceneId, questions, profiles = DEFAULT_PROFILES }: HouseReleaseOptions): SampleRelease {
  const ids = nodeIds(spec);
  const id = (key: string) => {
    const v = ids.get(key);
    if (!v) throw new Error(`the house has no room "${key}"`);
    return v;
  };
  const nodes: NavNode[] = spec.rooms.map((r) => ({ id: id(r.key), name: r.name, description: r.description, position: nodePosition(spec, r), floor: null }));
  const edges: NavEdge[] = spec.connections.map((c, i) => ({ id: `edge_${i + 1}`, from: id(c.from), to: id(c.to) }));

  const edgeFeatures = spec.connections.map((c) => passageFeature(spec, c));
  const features: SampleFeatures = {
    scene: sceneId,
    storeyHeight: spec.storeyHeightM,
    edges: Object.fromEntries(edges.map((e, i) => [undirectedKey(e.from, e.to), edgeFeatures[i]!])),
    floors: spec.floors.map((f) => ({ index: f.index, heightM: f.heightM })),
  };

  const labels: Record<string, Record<string, Label>> = {};
  for (const agent of profiles) {
    const table: Record<string, Label> = {};
    edges.forEach((e, i) => {
      const j = judgeEdge(agent, edgeFeatures[i]!);
      table[`${e.from}|${e.to}`] = { traversable: j.traversable, note: j.note, timestamp: LABEL_TIMESTAMP, annotator: LABEL_ANNOTATOR };
    });
    labels[agent.name] = table;
  }

  const scene: Scene = {
    id: sceneId,
    graph: { nodes, edges },
    questions: questions.map((q, i) => toQuestion(q, i, id)),
    labels,
    hallucinated: [],
    foreignEntries: [],
    mesh: null,
  };
  return { profiles: profiles.map((p) => ({ ...p })), scene, features };
}

function toQuestion(q: SampleQuestion, index: number, id: (key: string) => string): NavQuestion {
  const ref = (key: string) => ({ raw: id(key), nodeId: id(key) });
  return {
    id: `q${index}`,
    text: q.text,
    sceneType: 'home',
    reason: q.reason,
    start: ref(q.start),
    startDetail: q.startDetail,
    intermediate: q.intermediate.map(ref),
    end: ref(q.end),
    endDetail: q.endDetail,
  };
}
