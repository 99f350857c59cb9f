import type { Project, Scene } from '../project.ts';
import type { QaItem } from './item.ts';
import { rejectReason } from './review.ts';

/**
 * CapNav excludes a question from the benchmark by listing its exact text in the scene's
 * hallucination list (`_hallucinatedQuestions`). An item with `source: 'capnav'` stands for one
 * scene question; reviewing that item is how the list is kept:
 * - the item is rejected as `hallucinated` → the question's text is listed;
 * - the item is accepted → the text is unlisted (the reviewers found the question grounded,
 *   overturning an earlier listing, including one that came with the release);
 * - the item was rejected as hallucinated and no longer is (the verdict was changed, undone
 *   or overturned) → the text is unlisted;
 * - otherwise (pending, or rejected for another reason) the list is left as it is, so a release's
 *   own listing survives until someone decides the question.
 * Nothing is unlisted while another item for the same question is still rejected as hallucinated.
 * The text is the scene question's, not the item's (a reviewer may have reworded the item).
 *
 * A navigation task generated here (`source: 'generated'` standing for a scene question,
 * core/taskgen) was never checked by anyone: rejecting it for ANY reason lists it, since a task a
 * reviewer refused must not stay in the benchmark; the rest of the rules are the same.
 */

export const isRejectedAsHallucinated = (item: QaItem | undefined): boolean => !!item && rejectReason(item) === 'hallucinated';

/** The item's verdict takes its question out of the benchmark (see above). */
const leavesBenchmark = (item: QaItem | undefined): boolean =>
  !!item && (item.source === 'generated' ? item.status === 'rejected' : isRejectedAsHallucinated(item));

/** The item stands for one of its scene's questions: a CapNav question or a task generated here. */
export const standsForQuestion = (item: Pick<QaItem, 'source' | 'capnavQuestion'>): boolean => item.capnavQuestion !== undefined && item.source !== 'written';

/**
 * Put the item into the project (replacing the item with its id, or appending it) and bring its
 * scene's hallucination list in line. Pass the project as it was BEFORE the change: the stored
 * copy of the item is how an undone rejection is recognised.
 */
export function syncHallucination(project: Project, item: QaItem): Project {
  const before = project.qa.items.find((i) => i.id === item.id);
  const items = before ? project.qa.items.map((i) => (i.id === item.id ? item : i)) : [...project.qa.items, item];
  const withItem: Project = { ...project, qa: { ...project.qa, items } };
  const question = capnavQuestionOf(project, item);
  if (!question) return withItem;

  const { scene, text } = question;
  const listed = scene.hallucinated.includes(text);
  let hallucinated = scene.hallucinated;
  if (leavesBenchmark(item)) {
    if (!listed) hallucinated = [...scene.hallucinated, text];
  } else if (listed && (item.status === 'accepted' || leavesBenchmark(before))) {
    const othersSayHallucinated = items.some((i) => i.id !== item.id && leavesBenchmark(i) && sameQuestion(i, item));
    if (!othersSayHallucinated) hallucinated = scene.hallucinated.filter((t) => t !== text);
  }
  if (hallucinated === scene.hallucinated) return withItem;
  return { ...withItem, scenes: project.scenes.map((s) => (s === scene ? { ...s, hallucinated } : s)) };
}

const sameQuestion = (a: QaItem, b: QaItem) => standsForQuestion(a) && a.sceneId === b.sceneId && a.capnavQuestion === b.capnavQuestion;

/** The scene question a CapNav item (or a generated task) stands for, or null when the item is not one or the question is gone. */
export function capnavQuestionOf(project: Pick<Project, 'scenes'>, item: QaItem): { scene: Scene; index: number; text: string } | null {
  if (!standsForQuestion(item) || item.capnavQuestion === undefined) return null;
  const scene = project.scenes.find((s) => s.id === item.sceneId);
  const q = scene?.questions[item.capnavQuestion];
  return scene && q ? { scene, index: item.capnavQuestion, text: q.text } : null;
}
