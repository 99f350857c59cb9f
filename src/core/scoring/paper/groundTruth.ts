import type { AgentProfile } from '../../agents.ts';
import { buildBlockCutTree, type BlockCutTree } from '../../blockCutTree.ts';
import { isFeasible } from '../../feasibility.ts';
import { adjacency, parseSegmentKey, segmentKey } from '../../graph.ts';
import type { Label } from '../../labels.ts';
import type { Project, Scene } from '../../project.ts';
import { resolveRef, resolvedWaypoints, type NavQuestion } from '../../questions.ts';
import type { ReasonCategory } from '../../rules.ts';
import { workList } from '../../worklist.ts';
import { categoriesOf, sortCategories } from '../judges/categories.ts';

/**
 * The ground truth a project holds, indexed for scoring many predictions: per scene the
 * adjacency, a question lookup, and caches per (question, agent) and per path token, so scoring
 * 100,000 predictions does each graph computation once.
 */
export interface QuestionTruth {
  index: number;
  question: NavQuestion;
  hallucinated: boolean;
  /** The question's explicit start/end node references, resolved; null when they name no node. */
  src: string | null;
  tgt: string | null;
  waypoints: string[] | null;
}

export interface AgentTruth {
  feasible: boolean;
  /** Obstacle categories of the not-traversable edges on the question's work list for the agent. */
  obstacleTypes: ReasonCategory[];
}

export interface SceneTruth {
  scene: Scene;
  adj: Map<string, string[]>;
  /** The node a path token names (id, unique name, or `id — name`), or null. Never guessed. */
  resolveToken(token: string): string | null;
  findQuestion(text: string, agent: string, index: number | null | undefined): QuestionTruth | undefined;
  agentTruth(q: QuestionTruth, agent: string): AgentTruth;
  /** The label for walking u → v (that direction, else the reverse). */
  label(agent: string, u: string, v: string): Label | undefined;
  /** Hops of the shortest route on the graph from `src` to `tgt`, whatever the agent; null when there is none. */
  graphHops(src: string, tgt: string): number | null;
}

export interface GroundTruth {
  scene(id: string): SceneTruth | undefined;
  profile(agent: string): AgentProfile | undefined;
  /** Agents the ground truth knows: every profile and every agent with labels. */
  knowsAgent(agent: string): boolean;
}

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Categories of a not-traversable label: its reason when recorded, else the rule mapping of its note, else `other`. */
export function obstacleCategories(label: Label): ReasonCategory[] {
  if (label.reason) return [label.reason];
  const cats = categoriesOf(label.note);
  return cats.length ? cats : ['other'];
}

/** Categories a label states (reason, else what its note names); empty when the note names none. */
export function statedCategories(label: Label): ReasonCategory[] {
  return label.reason ? [label.reason] : categoriesOf(label.note);
}

const indexes = new WeakMap<Project, GroundTruth>();

/**
 * The index of a project's ground truth. Scenes are indexed lazily, on their first prediction.
 * Documents are immutable (every edit makes a new project object), so one index per project
 * object serves every model scored against it — a results folder often holds dozens.
 */
export function groundTruth(project: Project): GroundTruth {
  let gt = indexes.get(project);
  if (!gt) {
    gt = buildGroundTruth(project);
    indexes.set(project, gt);
  }
  return gt;
}

function buildGroundTruth(project: Project): GroundTruth {
  const scenes = new Map(project.scenes.map((s) => [s.id, s]));
  const lower = new Map(project.scenes.map((s) => [s.id.toLowerCase(), s.id]));
  const built = new Map<string, SceneTruth>();
  const profiles = new Map(project.profiles.map((p) => [p.name, p]));
  const agents = new Set<string>(profiles.keys());
  for (const s of project.scenes) for (const a of Object.keys(s.labels)) agents.add(a);
  const gt: GroundTruth = {
    scene(id) {
      const key = scenes.has(id) ? id : lower.get(id.trim().toLowerCase());
      if (key === undefined) return undefined;
      let st = built.get(key);
      if (!st) {
        st = sceneTruth(scenes.get(key)!);
        built.set(key, st);
      }
      return st;
    },
    profile: (agent) => profiles.get(agent),
    knowsAgent: (agent) => agents.has(agent),
  };
  return gt;
}

function sceneTruth(scene: Scene): SceneTruth {
  const adj = adjacency(scene.graph);
  const hallucinated = new Set(scene.hallucinated);
  const questions: QuestionTruth[] = scene.questions.map((question, index) => {
    const wps = resolvedWaypoints(question);
    return {
      index,
      question,
      hallucinated: hallucinated.has(question.text),
      src: question.start.nodeId,
      tgt: question.end.nodeId,
      waypoints: wps,
    };
  });
  const byExactText = new Map<string, QuestionTruth>();
  for (const q of questions) if (!byExactText.has(q.question.text)) byExactText.set(q.question.text, q);
  const byText = new Map<string, QuestionTruth>();
  for (const q of questions) if (!byText.has(norm(q.question.text))) byText.set(norm(q.question.text), q);
  // Runners may substitute the agent's name for `[Agent]`; those texts are indexed per agent on first use.
  const byAgentText = new Map<string, Map<string, QuestionTruth>>();
  const tokens = new Map<string, string | null>();
  /** Question index → agent → truth. */
  const perAgent: (Map<string, AgentTruth> | undefined)[] = [];
  const lookups = new Map<string, QuestionTruth | null>();
  let bct: BlockCutTree | null = null;

  /** Case and spacing ignored; `[Agent]` may have been replaced by the agent's name. */
  const findByNormalisedText = (text: string, agent: string): QuestionTruth | undefined => {
    const key = norm(text);
    const direct = byText.get(key);
    if (direct) return direct;
    let named = byAgentText.get(agent);
    if (!named) {
      named = new Map();
      for (const q of questions) named.set(norm(q.question.text.replace(/\[agent\]/gi, agent)), q);
      byAgentText.set(agent, named);
    }
    return named.get(key);
  };

  // Per agent, from → to → label with the reverse direction filled in where only one exists: a
  // lookup without building `from|to` strings (the hottest path when scoring many predictions).
  const byAgentHop = new Map<string, Map<string, Map<string, Label>>>();
  const hopTable = (agent: string): Map<string, Map<string, Label>> => {
    let t = byAgentHop.get(agent);
    if (!t) {
      t = new Map();
      const put = (a: string, b: string, l: Label, own: boolean) => {
        let row = t!.get(a);
        if (!row) {
          row = new Map();
          t!.set(a, row);
        }
        if (own || !row.has(b)) row.set(b, l);
      };
      for (const [key, l] of Object.entries(scene.labels[agent] ?? {})) {
        const seg = parseSegmentKey(key);
        if (!seg) continue;
        put(seg.from, seg.to, l, true);
        put(seg.to, seg.from, l, false);
      }
      byAgentHop.set(agent, t);
    }
    return t;
  };
  const label = (agent: string, u: string, v: string): Label | undefined => hopTable(agent).get(u)?.get(v);

  const hops = new Map<string, number | null>();
  return {
    scene,
    adj,
    label,
    graphHops(src, tgt) {
      const key = `${src}\u0000${tgt}`;
      let h = hops.get(key);
      if (h === undefined) {
        h = hopDistance(adj, src, tgt);
        hops.set(key, h);
      }
      return h;
    },
    resolveToken(token) {
      let id = tokens.get(token);
      if (id === undefined) {
        const t = token.trim();
        id = adj.has(t) ? t : resolveRef(t, scene.graph.nodes).nodeId;
        tokens.set(token, id);
      }
      return id;
    },
    findQuestion(text, agent, index) {
      // Most predictions repeat the question verbatim: an exact hit skips normalising long texts.
      const exact = byExactText.get(text);
      if (exact) return exact;
      if (text.trim() === '') return index !== null && index !== undefined ? questions[index] : undefined;
      const memoKey = `${agent}\u0000${text}`;
      let found = lookups.get(memoKey);
      if (found === undefined) {
        found = findByNormalisedText(text, agent) ?? null;
        lookups.set(memoKey, found);
      }
      return found ?? undefined;
    },
    agentTruth(q, agent) {
      let row = perAgent[q.index];
      if (!row) {
        row = new Map();
        perAgent[q.index] = row;
      }
      let t = row.get(agent);
      if (!t) {
        const feasible = q.src !== null && q.tgt !== null && isFeasible(scene.graph, scene.labels, agent, q.src, q.tgt, adj);
        const cats = new Set<ReasonCategory>();
        if (q.waypoints) {
          bct ??= buildBlockCutTree(scene.graph);
          const table = scene.labels[agent] ?? {};
          for (const edge of workList(scene.graph, q.waypoints, bct)) {
            const { from, to } = parseSegmentKey(edge)!;
            for (const l of [table[segmentKey(from, to)], table[segmentKey(to, from)]]) {
              if (l && !l.traversable) for (const c of obstacleCategories(l)) cats.add(c);
            }
          }
        }
        t = { feasible, obstacleTypes: sortCategories(cats) };
        row.set(agent, t);
      }
      return t;
    },
  };
}

/** Breadth-first hops from `src` to `tgt` over `adj`; null when `tgt` cannot be reached. */
function hopDistance(adj: Map<string, string[]>, src: string, tgt: string): number | null {
  const dist = new Map<string, number>([[src, 0]]);
  const queue = [src];
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i]!,
      d = dist.get(u)!;
    if (u === tgt) return d;
    for (const v of adj.get(u) ?? [])
      if (!dist.has(v)) {
        dist.set(v, d + 1);
        queue.push(v);
      }
  }
  return null;
}
