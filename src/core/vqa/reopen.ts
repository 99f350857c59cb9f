import type { QaItem, ReviewedContent, ReviewRound } from './item.ts';

/**
 * A verdict is about the text the reviewer saw. When what reviewers judge changes (question,
 * answer, options, category, anchors, measurement, trail), the verdicts given so far no longer
 * hold: the item goes back to review, its reviews and adjudication kept as a round of history
 * together with the content they were given on, so the next reviewer sees what changed.
 */

/** What reviewers judge of an item (viewpoint thumbnails left out: a preview, not content). */
export function reviewedContent(item: QaItem): ReviewedContent {
  const viewpoints = item.anchors.viewpoints.map(({ thumbnail: _thumbnail, ...v }) => v);
  return {
    question: item.question,
    answer: item.answer,
    category: item.category,
    anchors: { ...item.anchors, viewpoints },
    ...(item.measurement ? { measurement: item.measurement } : {}),
    trail: item.trail,
  };
}

/** Whether two items show reviewers the same thing. */
export function sameReviewedContent(a: QaItem, b: QaItem): boolean {
  if (
    a.question !== b.question ||
    a.answer !== b.answer ||
    a.category !== b.category ||
    a.trail !== b.trail ||
    a.anchors !== b.anchors ||
    a.measurement !== b.measurement
  ) {
    return canonical(reviewedContent(a)) === canonical(reviewedContent(b));
  }
  return true;
}

/** JSON with object keys in order, so two contents compare by value whatever order their keys were written in. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

/** Whether the item has verdicts in force that an edit would set aside. */
export const hasVerdicts = (item: QaItem): boolean => item.reviews.length > 0 || item.adjudication !== undefined;

/**
 * The item after an edit (`after`, made from `before`): when the edit changed what reviewers
 * judged and verdicts were in force, they move into `reviewHistory` with the content they were
 * given on, and the item is pending again. Anything else is returned unchanged (the same object).
 */
export function reopenAfterEdit(before: QaItem, after: QaItem): QaItem {
  if (after === before || !hasVerdicts(before) || sameReviewedContent(before, after)) return after;
  const round: ReviewRound = {
    status: before.status === 'draft' ? 'pending' : before.status,
    content: reviewedContent(before),
    reviews: before.reviews,
    ...(before.adjudication ? { adjudication: before.adjudication } : {}),
  };
  const { adjudication: _adjudication, ...rest } = after;
  return { ...rest, reviews: [], status: 'pending', reviewHistory: [...(before.reviewHistory ?? []), round] };
}

/** The last round of review an edit ended, if the content changed since (what the review panel compares with). */
export function lastRound(item: QaItem): ReviewRound | undefined {
  return item.reviewHistory?.at(-1);
}
