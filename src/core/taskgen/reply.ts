import type { NavNode } from '../graph.ts';
import { resolveRef, type NavQuestion, type NodeRef } from '../questions.ts';
import { citedTimes, formatVideoTime } from '../vqa/citedTimes.ts';
import { readReplyList } from './replyJson.ts';

/**
 * A model's reply checked task by task. Every task is checked on its own and reported by its
 * number in the reply (1-based, as a person counts): missing or empty fields, node references that
 * match no node of the graph (resolved as the release's references are: id, name, or `id — name`),
 * a start that is the end, a repeat of an earlier task or of a question the scene already has.
 * Those tasks are refused; the others are kept. Warnings keep the task: a question without the
 * `[Agent]` placeholder, a reason that cites no video time or a time after the video's end.
 * Fewer valid tasks than asked for is said, and what was valid is kept.
 */
export interface GeneratedTask {
  /** Its place in the reply (0-based). */
  index: number;
  question: string;
  reason: string;
  sceneType?: string;
  start: NodeRef;
  startDetail: string;
  intermediate: NodeRef[];
  end: NodeRef;
  endDetail: string;
}

export interface TaskProblem {
  /** The task's place in the reply (0-based), or null for the reply as a whole. */
  task: number | null;
  severity: 'error' | 'warning';
  message: string;
}

export interface TaskCheck {
  tasks: GeneratedTask[];
  problems: TaskProblem[];
  /** How many tasks the reply held (valid or not). */
  total: number;
}

export interface TaskContext {
  nodes: readonly NavNode[];
  minTasks: number;
  /** The scene's questions: a task repeating one is refused. */
  existing?: readonly Pick<NavQuestion, 'id' | 'text' | 'start' | 'end' | 'startDetail' | 'endDetail'>[];
  /** The video's length (seconds): a reason citing a time past it is warned about. */
  videoSeconds?: number;
}

/** "task 3: …", "the reply: …". */
export const problemText = (p: TaskProblem): string => `${p.task === null ? 'the reply' : `task ${p.task + 1}`}: ${p.message}`;

const norm = (s: string) =>
  s
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[?.!]+$/, '')
    .toLowerCase();

export function checkTaskReply(content: string, ctx: TaskContext): TaskCheck {
  const problems: TaskProblem[] = [];
  const list = readReplyList(content);
  if (!list.ok) return { tasks: [], problems: [{ task: null, severity: 'error', message: list.error }], total: 0 };
  for (const note of list.notes) problems.push({ task: null, severity: 'warning', message: note });
  const tasks: GeneratedTask[] = [];
  const seenText = new Map<string, string>();
  const seenEnds = new Map<string, string>();
  for (const q of ctx.existing ?? []) {
    seenText.set(norm(q.text), `the scene's question ${q.id}`);
    if (q.start.nodeId && q.end.nodeId)
      seenEnds.set(endsKey(q.start.nodeId, q.startDetail ?? '', q.end.nodeId, q.endDetail ?? ''), `the scene's question ${q.id}`);
  }
  list.elements.forEach((el, index) => {
    const error = (message: string) => problems.push({ task: index, severity: 'error', message });
    if (!el.ok) {
      error(el.error);
      return;
    }
    const task = readTask(el.value, index, ctx.nodes, error, (message) => problems.push({ task: index, severity: 'warning', message }));
    if (!task) return;
    if (task.start.nodeId === task.end.nodeId) {
      error(`starts and ends at the same node (${nodeText(ctx.nodes, task.start.nodeId!)})`);
      return;
    }
    const text = norm(task.question);
    const ends = endsKey(task.start.nodeId!, task.startDetail, task.end.nodeId!, task.endDetail);
    const sameText = seenText.get(text),
      sameEnds = seenEnds.get(ends);
    if (sameText) {
      error(`repeats ${sameText} (the same question)`);
      return;
    }
    if (sameEnds) {
      error(`repeats ${sameEnds} (the same start and end, with the same details)`);
      return;
    }
    seenText.set(text, `task ${index + 1}`);
    seenEnds.set(ends, `task ${index + 1}`);
    checkCitations(task, ctx.videoSeconds, (message) => problems.push({ task: index, severity: 'warning', message }));
    tasks.push(task);
  });
  if (tasks.length < ctx.minTasks) {
    problems.push({
      task: null,
      severity: 'warning',
      message: `${tasks.length} valid task${tasks.length === 1 ? '' : 's'}, fewer than the ${ctx.minTasks} asked for`,
    });
  }
  return { tasks, problems, total: list.elements.length };
}

const endsKey = (start: string, startDetail: string, end: string, endDetail: string) => [start, norm(startDetail), end, norm(endDetail)].join('\n');

function nodeText(nodes: readonly NavNode[], id: string): string {
  const n = nodes.find((x) => x.id === id);
  return n && n.name ? `${id} ${n.name}` : id;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const kindOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'string' ? 'text' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** The task, or null when a field it needs is missing or wrong (each said through `error`). */
function readTask(value: unknown, index: number, nodes: readonly NavNode[], error: (m: string) => void, warn: (m: string) => void): GeneratedTask | null {
  if (!isObject(value)) {
    error(`not a task object (${kindOf(value)})`);
    return null;
  }
  let ok = true;
  const text = (obj: Record<string, unknown>, key: string, what: string): string => {
    const v = obj[key];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      error(`no ${key} (${what})`);
      ok = false;
      return '';
    }
    if (typeof v !== 'string') {
      error(`${key} is ${kindOf(v)}, not text`);
      ok = false;
      return '';
    }
    return v.trim();
  };
  const question = text(value, 'question', 'the task itself');
  const reason = text(value, 'reason', 'why the route exists, citing video times');
  const sceneType = typeof value.scene_type === 'string' && value.scene_type.trim() !== '' ? value.scene_type.trim() : undefined;
  const ni = value.nodes_involved;
  if (!isObject(ni)) {
    error(ni === undefined || ni === null ? 'no nodes_involved (its start and end nodes)' : `nodes_involved is ${kindOf(ni)}, not an object`);
    return null;
  }
  const ref = (raw: string, role: string): NodeRef => {
    const r = resolveRef(raw, nodes);
    if (r.nodeId === null) {
      error(refProblem(role, raw, r.reason));
      ok = false;
    } else if ('warning' in r && r.warning) warn(`${role} ${r.warning}`);
    return { raw, nodeId: r.nodeId };
  };
  const startRaw = text(ni, 'start', 'the start node');
  const start = startRaw ? ref(startRaw, 'start node') : null;
  const startDetail = text(ni, 'start_detail', 'where in the start node');
  const endRaw = text(ni, 'end', 'the end node');
  const end = endRaw ? ref(endRaw, 'end node') : null;
  const endDetail = text(ni, 'end_detail', 'where in the end node');
  const inter = ni.intermediate;
  let intermediate: NodeRef[] = [];
  if (Array.isArray(inter)) {
    intermediate = inter.flatMap((r, k) => {
      if (typeof r !== 'string' || r.trim() === '') {
        error(`intermediate node ${k + 1} is ${typeof r === 'string' ? 'empty' : kindOf(r)}, not a node id`);
        ok = false;
        return [];
      }
      return [ref(r.trim(), `intermediate node ${k + 1}`)];
    });
  } else if (inter !== undefined && inter !== null) {
    error(`intermediate is ${kindOf(inter)}, not a list of node ids`);
    ok = false;
  }
  if (!ok || !start || !end) return null;
  if (!/\[agent\]/i.test(question)) warn('the question does not name the agent as [Agent]');
  return { index, question, reason, ...(sceneType ? { sceneType } : {}), start, startDetail, intermediate, end, endDetail };
}

/** "end node "Attic" is not in the graph", in the words of the reference resolver otherwise. */
function refProblem(role: string, raw: string, reason: string): string {
  if (/matches no node id or name$/.test(reason)) return `${role} "${raw}" is not in the graph`;
  return `${role} ${reason}`;
}

function checkCitations(task: GeneratedTask, videoSeconds: number | undefined, warn: (m: string) => void): void {
  const cited = citedTimes(task.reason);
  if (cited.length === 0) {
    warn('the reason cites no video time');
    return;
  }
  if (videoSeconds === undefined) return;
  const late = cited.filter((c) => c.to > videoSeconds + 1);
  if (late.length) warn(`the reason cites ${late.map((c) => c.text).join(', ')}, after the video's end (${formatVideoTime(videoSeconds)})`);
}
