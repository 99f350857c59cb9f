import { impliedRoute, type ImpliedRoute } from '../../../core/impliedRoute.ts';
import type { Scene } from '../../../core/project.ts';
import type { NavQuestion } from '../../../core/questions.ts';
import { citedTimes, type CitedTime } from '../../../core/vqa/citedTimes.ts';
import { capnavQuestionOf } from '../../../core/vqa/hallucination.ts';
import type { QaItem } from '../../../core/vqa/item.ts';
import { addMarkAt, openItem } from './qaItems.ts';
import type { Mark } from '../../../core/vqa/item.ts';
import type { StudioState } from '../../../state/store.ts';
import { followSliceIn, nodesSlice, type ViewSlice } from '../../../state/slice.ts';
import { feedWorkspace } from '../../../state/workspaceFeeds.ts';

/**
 * The evidence a reviewer checks a navigation question against: the video times its reason
 * cites and the route it implies through the graph. For CapNav questions and generated tasks
 * (items that stand for a scene question); other items have their trail's cited times only.
 */

let lastQuestion: { scene: Scene; question: NavQuestion } | null = null;

/** The scene question the open item stands for, with its scene (the same object while neither changes, as a selector must give). */
export function openItemQuestion(s: StudioState): { scene: Scene; question: NavQuestion } | null {
  const item = openItem(s);
  const project = s.document.project;
  if (!item || !project) return null;
  const q = capnavQuestionOf(project, item);
  if (!q) return null;
  const question = q.scene.questions[q.index]!;
  if (lastQuestion?.scene !== q.scene || lastQuestion.question !== question) lastQuestion = { scene: q.scene, question };
  return lastQuestion;
}

/**
 * The times the item's reason cites: read from its trail as the reviewer sees it (edits included),
 * else from its question's reason.
 */
export function itemCitations(item: Pick<QaItem, 'trail'>, question?: Pick<NavQuestion, 'reason'>): CitedTime[] {
  const fromTrail = item.trail.flatMap((step) => citedTimes(step.text));
  return fromTrail.length ? fromTrail : citedTimes(question?.reason ?? '');
}

let last: { scene: Scene; question: NavQuestion; route: ImpliedRoute } | null = null;

/** The route the open item's question implies (the same object while neither the question nor the scene changes), or null. */
export function openItemRoute(s: StudioState): ImpliedRoute | null {
  const q = openItemQuestion(s);
  if (!q) return null;
  if (last && last.scene === q.scene && last.question === q.question) return last.route;
  last = { ...q, route: impliedRoute(q.scene.graph, q.question) };
  return last.route;
}

/**
 * The slice of the open question-answer item: the floors of the nodes it references (or of the
 * route its question implies), so the scene shows — and a mark placed on it lands on — the floor
 * the item is about, not the slab above it. Null when it references no node.
 */
export function itemSlice(s: StudioState): ViewSlice | null {
  const item = openItem(s);
  const ids = item ? [...item.anchors.nodes, ...(openItemRoute(s)?.nodes ?? [])] : [];
  return ids.length ? nodesSlice(s, ids) : null;
}
const NO_MARKS: Mark[] = [];
const NO_NODES: string[] = [];
followSliceIn('qa', itemSlice);
feedWorkspace({
  marks: (s) => openItem(s)?.anchors.marks ?? NO_MARKS,
  referenced: (s) => openItem(s)?.anchors.nodes ?? NO_NODES,
  implied: openItemRoute,
  addMark: addMarkAt,
});
