import { CAPNAV_AGENTS, canonicalAgent, traverseKeyOf, type AgentProfile } from '../../core/agents.ts';
import type { NavQuestion, NodeRef } from '../../core/questions.ts';
import type { Label } from '../../core/labels.ts';
import type { Project, Scene } from '../../core/project.ts';
import type { SourceFile } from '../json.ts';
import { releasePath } from './files.ts';

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

/**
 * Write a project in the CapNav release layout. References that resolve are written as node ids
 * (the canonical form); unresolved ones are written back verbatim; fields the tool does not
 * model are written back unchanged; the humanoid's labels go under `ROBOT` as the release has them.
 */
export function writeRelease(project: Pick<Project, 'profiles' | 'scenes'>): SourceFile[] {
  const files: SourceFile[] = [{ path: releasePath.profiles, text: json(project.profiles.map(profileToRaw)) }];
  for (const scene of project.scenes) {
    files.push({ path: releasePath.graph(scene.id), text: json(graphToRaw(scene)) });
    files.push({ path: releasePath.qa(scene.id), text: json(scene.questions.map(questionToRaw)) });
    files.push({ path: releasePath.traverse(scene.id), text: json(traverseToRaw(scene)) });
  }
  return files;
}

function profileToRaw(p: AgentProfile): Record<string, unknown> {
  return {
    agent_name: p.name,
    body_shape: p.shape,
    body_height_m: p.heightM,
    body_width_m: p.widthM,
    body_depth_m: p.depthM,
    max_vertical_cross_height_m: p.maxStepM,
    can_go_up_or_down_stairs: p.canUseStairs,
    can_operate_elevator: p.canUseElevator,
    can_open_the_door: p.canOpenDoors,
    description: p.description,
    ...(p.turningSpaceM !== null ? { turning_space_m: p.turningSpaceM } : {}),
    ...p.extra,
  };
}

function graphToRaw(scene: Scene): Record<string, unknown> {
  return {
    nodes: scene.graph.nodes.map((n) => ({
      id: n.id,
      name: n.name,
      description: n.description,
      position: { x: n.position.x, y: n.position.y, z: n.position.z },
      ...(n.floor !== null ? { floor: n.floor } : {}),
      ...n.extra,
    })),
    edges: scene.graph.edges.map((e) => ({ id: e.id, from: e.from, to: e.to, ...e.extra })),
    ...scene.graphExtra,
  };
}

const refOut = (r: NodeRef) => r.nodeId ?? r.raw;

function questionToRaw(q: NavQuestion): Record<string, unknown> {
  return {
    ...(q.sceneType !== undefined ? { scene_type: q.sceneType } : {}),
    question: q.text,
    ...(q.reason !== undefined ? { reason: q.reason } : {}),
    nodes_involved: {
      start: refOut(q.start),
      ...(q.startDetail !== undefined ? { start_detail: q.startDetail } : {}),
      intermediate: q.intermediate.map(refOut),
      end: refOut(q.end),
      ...(q.endDetail !== undefined ? { end_detail: q.endDetail } : {}),
      ...q.nodesInvolvedExtra,
    },
    ...q.extra,
  };
}

function labelToRaw(l: Label): Record<string, unknown> {
  return {
    traversable: l.traversable,
    note: l.note,
    ...(l.timestamp !== undefined ? { timestamp: l.timestamp } : {}),
    ...(l.question !== undefined ? { question: l.question } : {}),
    ...(l.annotator !== undefined ? { annotator: l.annotator } : {}),
    ...l.extra,
  };
}

/** Agent keys in the release's own order, then any custom agents. */
const RELEASE_ORDER = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'SWEEPER', 'QUADRUPEDAL'];

function traverseToRaw(scene: Scene): Record<string, unknown> {
  const out: Record<string, unknown> = { _hallucinatedQuestions: [...scene.hallucinated] };
  const agents = [...RELEASE_ORDER, ...Object.keys(scene.labels).filter((a) => !RELEASE_ORDER.includes(a))];
  for (const agent of agents) {
    const table = scene.labels[agent] ?? {};
    if (!(CAPNAV_AGENTS as readonly string[]).includes(agent) && Object.keys(table).length === 0) continue;
    const entries: Record<string, unknown> = {};
    for (const [key, label] of Object.entries(table)) entries[key] = labelToRaw(label);
    out[traverseKeyOf(agent)] = entries;
  }
  for (const f of scene.foreignEntries) {
    // Under the same key as the agent's labels, whatever spelling the source file used.
    const table = (out[traverseKeyOf(canonicalAgent(f.agentKey))] ??= {}) as Record<string, unknown>;
    table[f.key] = f.value;
  }
  return { ...out, ...scene.traverseExtra };
}
