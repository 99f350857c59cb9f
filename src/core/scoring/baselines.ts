import { profiledAgents } from '../agents.ts';
import { adjacency } from '../graph.ts';
import { isTraversable, labelFor, type LabelTable } from '../labels.ts';
import type { Project, Scene } from '../project.ts';
import { REASON_LABEL } from '../rules.ts';
import { seededRandom } from './bootstrap.ts';

/** A prediction in Traversa's JSONL shape (src/formats/predictions/jsonl.ts). */
export interface PredictionRow {
  model: string;
  scene: string;
  question: string;
  questionIndex: number;
  agent: string;
  answer: 'yes' | 'no';
  path: string[];
  reason: string;
}

interface Task {
  scene: Scene;
  index: number;
  question: string;
  src: string;
  tgt: string;
  agent: string;
  adj: Map<string, string[]>;
}

/** Every benchmark task: non-hallucinated questions with a resolved start and end, for every agent with a profile. */
function tasks(project: Project): Task[] {
  const agents = profiledAgents(project.profiles);
  const out: Task[] = [];
  for (const scene of project.scenes) {
    const adj = adjacency(scene.graph);
    const hallucinated = new Set(scene.hallucinated);
    scene.questions.forEach((q, index) => {
      if (hallucinated.has(q.text) || q.start.nodeId === null || q.end.nodeId === null) return;
      for (const agent of agents) out.push({ scene, index, question: q.text, src: q.start.nodeId, tgt: q.end.nodeId, agent, adj });
    });
  }
  return out;
}

export interface RandomWalkOptions {
  seed?: number;
  /** Steps before giving up; default: the scene's number of nodes. */
  steps?: (scene: Scene) => number;
  /** `plain` may revisit nodes (its path is then not simple); `self-avoiding` never does and stops when stuck. */
  walk?: 'plain' | 'self-avoiding';
}

/**
 * The paper's lower bound (CapNav §3.4): a random walk on the navigation graph from the start,
 * blind to the agent and the scene. It answers "yes" if and only if it reaches the end within
 * the step budget, and gives the walked nodes as its path. Seeded: the same seed gives the same
 * predictions.
 */
export function randomWalkBaseline(project: Project, opts: RandomWalkOptions = {}): PredictionRow[] {
  const rng = seededRandom(opts.seed ?? 1);
  const walk = opts.walk ?? 'self-avoiding';
  return tasks(project).map((t) => {
    const budget = opts.steps?.(t.scene) ?? t.scene.graph.nodes.length;
    const path = [t.src];
    const visited = new Set(path);
    let at = t.src;
    for (let step = 0; step < budget && at !== t.tgt; step++) {
      const options = walk === 'plain' ? t.adj.get(at)! : t.adj.get(at)!.filter((v) => !visited.has(v));
      if (options.length === 0) break;
      at = options[Math.floor(rng() * options.length)]!;
      path.push(at);
      visited.add(at);
    }
    const reached = at === t.tgt;
    return {
      model: 'random-walk',
      scene: t.scene.id,
      question: t.question,
      questionIndex: t.index,
      agent: t.agent,
      answer: reached ? 'yes' : 'no',
      path,
      reason: reached ? '' : 'the random walk did not reach the goal',
    };
  });
}

/** Shortest path by breadth-first search over the hops `ok` allows; null when there is none. */
function shortestPath(adj: Map<string, string[]>, src: string, tgt: string, ok: (u: string, v: string) => boolean): string[] | null {
  if (src === tgt) return [src];
  const prev = new Map<string, string>([[src, src]]);
  const queue = [src];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head]!;
    for (const v of adj.get(u) ?? []) {
      if (prev.has(v) || !ok(u, v)) continue;
      prev.set(v, u);
      if (v === tgt) {
        const path = [v];
        for (let w = u; w !== src; w = prev.get(w)!) path.push(w);
        path.push(src);
        return path.reverse();
      }
      queue.push(v);
    }
  }
  return null;
}

/**
 * The ground truth as a prediction, the upper bound of every metric: the true answer; for a
 * feasible task, a shortest route over traversable hops; for an infeasible one, a shortest route
 * in the graph and, as the reason, the annotator's note on its first blocked hop (with the label's
 * reason category, when it records one). A task whose
 * start and end are not connected at all gets the start alone as its path.
 */
export function oracleBaseline(project: Project): PredictionRow[] {
  return tasks(project).map((t) => ({
    model: 'oracle',
    scene: t.scene.id,
    question: t.question,
    questionIndex: t.index,
    agent: t.agent,
    ...oracleAnswer(t.scene.labels, t.adj, t.agent, t.src, t.tgt),
  }));
}

/** The ground truth's answer to one task, as `oracleBaseline` gives it (also the training target of core/research/trainingExport.ts). */
export function oracleAnswer(
  labels: LabelTable,
  adj: Map<string, string[]>,
  agent: string,
  src: string,
  tgt: string,
): { answer: 'yes' | 'no'; path: string[]; reason: string } {
  const route = shortestPath(adj, src, tgt, (u, v) => isTraversable(labels, agent, u, v));
  if (route) return { answer: 'yes', path: route, reason: '' };
  const path = shortestPath(adj, src, tgt, () => true) ?? [src];
  let reason = 'the start and the goal are not connected';
  for (let i = 0; i + 1 < path.length; i++) {
    const l = labelFor(labels, agent, path[i]!, path[i + 1]!);
    if (l?.traversable === true) continue;
    const note = l?.note.trim() ?? '';
    // A Traversa label's reason category is said in words too, so a judge can match it.
    const category = l?.reason ? REASON_LABEL[l.reason] : '';
    reason = [note, category].filter(Boolean).join(': ') || `${path[i]} -> ${path[i + 1]} is not traversable for ${agent}`;
    break;
  }
  return { answer: 'no', path, reason };
}
