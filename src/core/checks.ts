import { parseSegmentKey, undirectedKey } from './graph.ts';
import { directionConflicts } from './labels.ts';
import type { Severity } from './problems.ts';
import type { Scene } from './project.ts';
import { resolveRef, waypoints } from './questions.ts';

/** Where in a scene a finding is: formats map this onto a file and a location inside it. */
export type Where =
  | { kind: 'node'; index: number; field?: string }
  | { kind: 'edge'; index: number; field?: string }
  | { kind: 'question'; index: number; field?: 'start' | 'end' | 'question' }
  | { kind: 'question'; index: number; field: 'intermediate'; item: number }
  | { kind: 'label'; agent: string; key: string }
  | { kind: 'hallucinated'; index: number };

export interface Finding {
  severity: Severity;
  code: string;
  where: Where;
  message: string;
}

/**
 * Consistency checks on one scene, in file order: the graph (duplicate ids, edges to missing
 * nodes, self-loops, repeated edges, nodes without edges), the questions (references that resolve to no node), the
 * labels (segments that are not edges, directions that disagree, missing reasons) and the
 * hallucination list. Pure: the same checks run at import, in `validate` and after edits.
 */
export function checkScene(scene: Scene): Finding[] {
  let findings = checked.get(scene);
  if (!findings) checked.set(scene, (findings = [...checkGraph(scene), ...checkQuestions(scene), ...checkLabels(scene), ...checkHallucinated(scene)]));
  return [...findings];
}

/**
 * Findings kept per scene object: scenes are immutable (an edit makes a new object), so a scene
 * checked on import is not checked again when the scene list counts its errors right after (at
 * 1,000 scenes that second pass was ~170 ms of showing the import).
 */
const checked = new WeakMap<Scene, readonly Finding[]>();

function checkGraph({ graph, questions }: Scene): Finding[] {
  const out: Finding[] = [];
  const nodeIds = new Set<string>();
  graph.nodes.forEach((n, index) => {
    if (nodeIds.has(n.id))
      out.push({
        severity: 'fatal',
        code: 'node.duplicate-id',
        where: { kind: 'node', index, field: 'id' },
        message: `node id ${n.id} is used more than once`,
      });
    nodeIds.add(n.id);
  });
  const edgeIds = new Set<string>();
  const pairs = new Map<string, string>();
  graph.edges.forEach((e, index) => {
    if (edgeIds.has(e.id))
      out.push({
        severity: 'fatal',
        code: 'edge.duplicate-id',
        where: { kind: 'edge', index, field: 'id' },
        message: `edge id ${e.id} is used more than once`,
      });
    edgeIds.add(e.id);
    for (const field of ['from', 'to'] as const) {
      if (!nodeIds.has(e[field]))
        out.push({
          severity: 'error',
          code: 'edge.missing-node',
          where: { kind: 'edge', index, field },
          message: `edge ${e.id} ${field === 'from' ? 'starts' : 'ends'} at ${e[field]}, which is not a node of the graph`,
        });
    }
    if (e.from === e.to)
      out.push({ severity: 'warning', code: 'edge.self-loop', where: { kind: 'edge', index }, message: `edge ${e.id} connects ${e.from} to itself` });
    const key = undirectedKey(e.from, e.to);
    const first = pairs.get(key);
    if (first !== undefined && e.from !== e.to)
      out.push({
        severity: 'warning',
        code: 'edge.repeated',
        where: { kind: 'edge', index },
        message: `edge ${e.id} repeats edge ${first} between ${e.from} and ${e.to}`,
      });
    else pairs.set(key, e.id);
  });
  const isolated = isolatedNodes(graph);
  graph.nodes.forEach((n, index) => {
    if (!isolated.has(n.id)) return;
    const uses = questions.flatMap((q, i) =>
      [q.start.nodeId === n.id ? 'starts' : '', q.end.nodeId === n.id ? 'ends' : ''].filter(Boolean).map((how) => `question ${i} ${how} there`),
    );
    out.push({
      severity: 'warning',
      code: 'node.isolated',
      where: { kind: 'node', index },
      message: `node ${n.id}${n.name && n.name !== n.id ? ` ("${n.name}")` : ''} has no edges: no route reaches it, so a question starting or ending there is infeasible for every agent${uses.length ? ` (${uses.join(', ')})` : ''}`,
    });
  });
  return out;
}

/**
 * Nodes without an edge to another node. A question from or to one is infeasible for every
 * agent, and a model can only answer it "no" without a route, which scores 0 for RV: one such
 * record can decide an agent's RV (issue 13: the oracle's 74.92 for HUMAN).
 */
export function isolatedNodes(graph: Scene['graph']): Set<string> {
  const linked = new Set<string>();
  for (const e of graph.edges)
    if (e.from !== e.to) {
      linked.add(e.from);
      linked.add(e.to);
    }
  return new Set(graph.nodes.filter((n) => !linked.has(n.id)).map((n) => n.id));
}

function checkQuestions(scene: Scene): Finding[] {
  const out: Finding[] = [];
  const texts = new Map<string, number>();
  scene.questions.forEach((q, index) => {
    const earlier = texts.get(q.text);
    if (earlier !== undefined)
      out.push({
        severity: 'warning',
        code: 'question.duplicate-text',
        where: { kind: 'question', index, field: 'question' },
        message: `question ${index} has the same text as question ${earlier}; labels and the hallucination list cannot tell them apart`,
      });
    else texts.set(q.text, index);
    const refs = waypoints(q);
    refs.forEach((ref, i) => {
      const where: Where =
        i === 0
          ? { kind: 'question', index, field: 'start' }
          : i === refs.length - 1
            ? { kind: 'question', index, field: 'end' }
            : { kind: 'question', index, field: 'intermediate', item: i - 1 };
      const r = resolveRef(ref.raw, scene.graph.nodes);
      if (ref.nodeId === null) {
        out.push({
          severity: 'error',
          code: 'question.unresolved-ref',
          where,
          message: `question ${index}: ${r.nodeId === null ? r.reason : `"${ref.raw}" is unresolved`}`,
        });
      } else if (!scene.graph.nodes.some((n) => n.id === ref.nodeId)) {
        out.push({
          severity: 'error',
          code: 'question.missing-node',
          where,
          message: `question ${index} refers to node ${ref.nodeId}, which is no longer in the graph`,
        });
      } else if (r.nodeId !== null && 'warning' in r && r.warning) {
        out.push({ severity: 'warning', code: 'question.ref-name-mismatch', where, message: `question ${index}: reference "${ref.raw}" ${r.warning}` });
      }
    });
  });
  return out;
}

function checkLabels(scene: Scene): Finding[] {
  const out: Finding[] = [];
  const nodeIds = new Set(scene.graph.nodes.map((n) => n.id));
  const edges = new Set(scene.graph.edges.map((e) => undirectedKey(e.from, e.to)));
  const questionTexts = new Set(scene.questions.map((q) => q.text));
  for (const [agent, table] of Object.entries(scene.labels)) {
    for (const [key, label] of Object.entries(table)) {
      const seg = parseSegmentKey(key)!;
      const where: Where = { kind: 'label', agent, key };
      const missing = [seg.from, seg.to].filter((id) => !nodeIds.has(id));
      if (missing.length)
        out.push({
          severity: 'error',
          code: 'label.unknown-node',
          where,
          message: `${agent} label on ${key}: ${missing.join(' and ')} ${missing.length > 1 ? 'are not nodes' : 'is not a node'} of the graph`,
        });
      else if (!edges.has(undirectedKey(seg.from, seg.to)))
        out.push({
          severity: 'error',
          code: 'label.not-an-edge',
          where,
          message: `${agent} label on ${key}: there is no edge between ${seg.from} and ${seg.to}`,
        });
      if (!label.traversable && label.note.trim() === '')
        out.push({ severity: 'warning', code: 'label.no-reason', where, message: `${agent} label on ${key} says not traversable but gives no reason` });
      if (label.question !== undefined && !questionTexts.has(label.question))
        out.push({
          severity: 'warning',
          code: 'label.unknown-question',
          where,
          message: `${agent} label on ${key} was made for a question that is not in the question file`,
        });
    }
  }
  for (const c of directionConflicts(scene.labels)) {
    out.push({
      severity: 'warning',
      code: 'label.direction-conflict',
      where: { kind: 'label', agent: c.agent, key: `${c.a}|${c.b}` },
      message: `${c.agent}: ${c.a}→${c.b} is ${c.forward.traversable ? 'traversable' : 'not traversable'} but ${c.b}→${c.a} is ${c.backward.traversable ? 'traversable' : 'not traversable'}`,
    });
  }
  for (const f of scene.foreignEntries) {
    out.push({
      severity: 'warning',
      code: 'label.unrecognised-key',
      where: { kind: 'label', agent: f.agentKey, key: f.key },
      message: `${f.agentKey} entry "${f.key}" is not a from|to segment; kept unchanged and not counted`,
    });
  }
  return out;
}

function checkHallucinated(scene: Scene): Finding[] {
  const texts = new Set(scene.questions.map((q) => q.text));
  return scene.hallucinated.flatMap((text, index): Finding[] =>
    texts.has(text)
      ? []
      : [
          {
            severity: 'warning',
            code: 'hallucinated.unknown-question',
            where: { kind: 'hallucinated', index },
            message: `hallucinated question "${text.length > 80 ? text.slice(0, 77) + '…' : text}" matches no question of the scene`,
          },
        ],
  );
}
