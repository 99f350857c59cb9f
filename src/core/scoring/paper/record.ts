import { canonicalAgent } from '../../agents.ts';
import { pathErrors } from '../../pathValidity.ts';
import type { ReasonCategory } from '../../rules.ts';
import { sortCategories } from '../judges/categories.ts';
import type { JudgeRequest } from '../judges/types.ts';
import { parseAnswer, type Answer } from './answer.ts';
import { obstacleCategories, statedCategories, type AgentTruth, type GroundTruth, type SceneTruth } from './groundTruth.ts';
import type { Hop, Outcome, Prediction, ScoredRecord } from './types.ts';

/** A record whose RV waits for the judge. */
export interface PendingJudgement {
  record: ScoredRecord;
  request: JudgeRequest;
}

/**
 * Score one prediction against the ground truth, everything except the judge's verdict (which
 * may be asynchronous and is batched by the caller). Implements CapNav §3.4 as docs/scoring.md §1
 * states it; each decision is kept on the record. `task` (for scored records) is the same object
 * for every prediction of one (scene, question, agent), which lets the caller spot duplicates.
 */
export function scorePrediction(gt: GroundTruth, pred: Prediction, judging: boolean): { record: ScoredRecord; pending?: PendingJudgement; task?: AgentTruth } {
  const answer = remembered(answers, pred.answer, parseAnswer);
  const agent = remembered(agents, pred.agent, canonicalAgent);
  const record: ScoredRecord = {
    id: pred.id,
    file: pred.file,
    location: pred.location,
    model: pred.model,
    scene: pred.scene,
    questionIndex: pred.questionIndex ?? null,
    question: pred.question,
    agent,
    matched: false,
    parseable: answer !== null,
    answer,
    answerRaw: pred.answer,
    pathTokens: pred.path,
    pathIds: [],
    reason: pred.reason,
    src: null,
    tgt: null,
    gtFeasible: null,
    pathValid: null,
    pathErrors: [],
    hops: [],
    rta: null,
    rv: null,
    outcome: null,
    obstacleTypes: [],
    failureModes: [],
    status: 'unmatched',
  };
  const st = gt.scene(pred.scene);
  if (!st) return { record: { ...record, note: `scene "${pred.scene}" is not in the ground truth` } };
  record.scene = st.scene.id;
  if (!gt.knowsAgent(agent)) return { record: { ...record, note: `agent "${pred.agent}" has no profile and no labels in the ground truth` } };
  const q = st.findQuestion(pred.question, agent, pred.questionIndex);
  if (!q) {
    const what = pred.question.trim() ? `question ${JSON.stringify(pred.question)}` : `question index ${pred.questionIndex ?? '(none)'}`;
    return { record: { ...record, note: `${what} matches no question of scene ${st.scene.id}` } };
  }
  record.matched = true;
  record.questionIndex = q.index;
  if (!record.question.trim()) record.question = q.question.text; // matched by index: show the text
  record.pathIds = pred.path.map((t) => st.resolveToken(t));
  if (q.hallucinated) return { record: { ...record, status: 'excluded-hallucinated', note: 'the question is listed as hallucinated in the traverse file' } };
  if (q.src === null || q.tgt === null) {
    return {
      record: { ...record, status: 'excluded-unresolved', note: "the question's start or end names no node, so there is no ground truth to score against" },
    };
  }
  record.status = 'scored';
  record.src = q.src;
  record.tgt = q.tgt;
  const truth = st.agentTruth(q, agent);
  record.gtFeasible = truth.feasible;
  record.obstacleTypes = truth.obstacleTypes;

  if (isValidRoute(st.adj, record.pathIds, q.src, q.tgt)) record.pathValid = true;
  else {
    // Unresolved tokens are checked as written, so they fail as unknown nodes (never guessed).
    const checked = record.pathIds.map((id, i) => id ?? pred.path[i]!);
    record.pathErrors = pathErrors(st.scene.graph, checked, q.src, q.tgt, st.adj);
    record.pathValid = record.pathErrors.length === 0;
  }
  record.hops = hopsOf(st, agent, record.pathIds);
  record.outcome = outcomeOf(answer, truth.feasible);

  if (answer === 'yes' && record.pathValid) {
    const n = record.hops.length;
    let ok = 0;
    for (const h of record.hops) if (h.traversable === true) ok++;
    record.rta = n === 0 ? 1 : ok / n;
  }
  if (answer === 'no' && judging) {
    const resolved = record.pathIds.filter((id): id is string => id !== null);
    if (resolved.length < 2) {
      record.rv = 0;
      record.rvRule = 'no-route';
    } else if (pred.reason.trim() === '') {
      record.rv = 0;
      record.rvRule = 'no-reason';
    } else return { record, task: truth, pending: { record, request: judgeRequest(st, agent, resolved, pred, record) } };
  }
  return { record, task: truth };
}

// Models write few distinct answers and agent names; reading each once spares 100,000 string copies.
const answers = new Map<string, Answer | null>();
const agents = new Map<string, string>();
function remembered<T>(memo: Map<string, T>, raw: string, read: (raw: string) => T): T {
  let v = memo.get(raw);
  if (v === undefined && !memo.has(raw)) {
    v = read(raw);
    if (memo.size >= 10_000) memo.clear();
    memo.set(raw, v);
  }
  return v as T;
}

/**
 * The common case, decided without allocating: every token resolved, starts at src, ends at tgt,
 * consecutive nodes adjacent, none repeated. Anything else goes to `pathErrors` for the details.
 */
function isValidRoute(adj: Map<string, string[]>, ids: readonly (string | null)[], src: string, tgt: string): boolean {
  const n = ids.length;
  if (n === 0 || ids[0] !== src || ids[n - 1] !== tgt) return false;
  for (let i = 0; i < n; i++) {
    const u = ids[i];
    if (u === null || u === undefined) return false;
    for (let j = 0; j < i; j++) if (ids[j] === u) return false;
    if (i + 1 < n && !adj.get(u)!.includes(ids[i + 1]!)) return false;
  }
  return true;
}

function outcomeOf(answer: 'yes' | 'no' | null, feasible: boolean): Outcome {
  // An unparseable answer is wrong either way: a missed positive or a false alarm.
  if (answer === 'yes') return feasible ? 'TP' : 'FP';
  if (answer === 'no') return feasible ? 'FN' : 'TN';
  return feasible ? 'FN' : 'FP';
}

function hopsOf(st: SceneTruth, agent: string, ids: readonly (string | null)[]): Hop[] {
  const hops: Hop[] = [];
  for (let i = 0; i + 1 < ids.length; i++) {
    const from = ids[i]!,
      to = ids[i + 1]!;
    const isEdge = from !== null && to !== null && st.adj.get(from)!.includes(to);
    const hop: Hop = { from, to, isEdge, traversable: null };
    if (isEdge) {
      const l = st.label(agent, from, to);
      hop.traversable = l?.traversable === true;
      if (l) {
        if (l.note) hop.note = l.note;
        if (!l.traversable) hop.categories = obstacleCategories(l);
      }
    }
    hops.push(hop);
  }
  return hops;
}

/**
 * What the judge sees: the reason, and the ground-truth failure notes of the consecutive resolved
 * nodes of the route that the agent cannot walk (unresolved tokens are skipped). A pair without
 * an edge or without a label gets a generated note saying so.
 */
function judgeRequest(st: SceneTruth, agent: string, resolved: string[], pred: Prediction, record: ScoredRecord): JudgeRequest {
  const notes = new Set<string>();
  const cats = new Set<ReasonCategory>();
  for (let i = 0; i + 1 < resolved.length; i++) {
    const u = resolved[i]!,
      v = resolved[i + 1]!;
    if (!st.adj.get(u)!.includes(v)) {
      notes.add(`No edge between ${u} and ${v}`);
      continue;
    }
    const l = st.label(agent, u, v);
    if (!l) {
      notes.add(`Edge ${u}->${v} has no label for ${agent} (not traversable)`);
      continue;
    }
    if (l.traversable) continue;
    notes.add(l.note.trim() || `Edge ${u}->${v} not traversable for ${agent}`);
    for (const c of statedCategories(l)) cats.add(c);
  }
  return {
    reason: pred.reason,
    notes: [...notes].sort(),
    agent,
    categories: sortCategories(cats),
    record: { model: pred.model, scene: record.scene, question: st.scene.questions[record.questionIndex!]!.text, agent },
  };
}
