import type { QaItem, RejectReason, Review } from '../../../core/vqa/item.ts';
import { syncHallucination } from '../../../core/vqa/hallucination.ts';
import type { Project } from '../../../core/project.ts';
import { addReview, adjudicate, adjudicationQueue, adjudicationRefusal, reviewQueue, verdictRefusal } from '../../../core/vqa/review.ts';
import { ANY_SCOPE, scoped, type ItemScope } from '../../../core/vqa/itemFilters.ts';
import { applyEdit, defineEdit } from '../../../state/edits.ts';
import { openItem, qaItems, selectItem } from '../../qa/state/qaItems.ts';
import type { QaFilter, StudioState, StudioStore } from '../../../state/store.ts';
import { setQa } from '../../../state/patch.ts';

/**
 * Reviewing question-answer items: one verdict per gesture (one undo step), recorded with the
 * reviewer's name and the time they spent, the scene's hallucination list kept in step.
 */

/** Reason keys while rejecting (R, then one of these). */
export const REJECT_KEYS: Record<RejectReason, string> = {
  hallucinated: 'H',
  'wrong-answer': 'W',
  ambiguous: 'M',
  trivial: 'T',
  'not-in-taxonomy': 'N',
  implausible: 'P',
};

export const reviewerOf = (s: StudioState): string => s.session.annotator.trim();

/** The items the list shows for a filter, narrowed to the chosen scene, source and import; `to-review` is the reviewer's own queue. */
export function filteredItems(s: StudioState, filter: QaFilter = s.qa.filter): QaItem[] {
  return itemsFor(qaItems(s), filter, reviewerOf(s), s.qa.scope);
}

/** The same from the items themselves, for views that memoise on the item list. */
export function itemsFor(all: readonly QaItem[], filter: QaFilter, reviewer: string, scope: ItemScope = ANY_SCOPE): QaItem[] {
  const items = scoped(all, scope);
  if (filter === 'all') return items;
  if (filter === 'to-review') return reviewQueue(items, reviewer);
  return items.filter((i) => i.status === filter);
}

export type Verdict = { verdict: 'accept' | 'edit-accept' } | { verdict: 'reject'; reason: RejectReason };

/** A review added to an item, the scene's hallucination list kept in step. */
const reviewed = (p: Project, a: { itemId: string; review: Review }): Project => {
  const item = p.qa.items.find((i) => i.id === a.itemId);
  return item ? syncHallucination(p, addReview(item, a.review)) : p;
};

export const REVIEW_EDITS = {
  accept: defineEdit('review.accept', 'Accept item', reviewed),
  acceptEdits: defineEdit('review.acceptEdits', 'Accept item with edits', reviewed),
  reject: defineEdit('review.reject', 'Reject item', reviewed),
  adjudicate: defineEdit(
    'review.adjudicate',
    'Adjudicate item',
    (p, a: { itemId: string; decision: 'accept' | 'reject'; who: string; at: string; comment: string; reason?: RejectReason }) => {
      const item = p.qa.items.find((i) => i.id === a.itemId);
      return item ? syncHallucination(p, adjudicate(item, a.decision, a.who, { at: a.at, comment: a.comment, ...(a.reason ? { reason: a.reason } : {}) })) : p;
    },
  ),
} as const;

/**
 * Record the reviewer's verdict on the open item. Returns why it could not be recorded, or null.
 * The item keeps its place; the caller moves on once the verdict is stored.
 */
export function recordVerdict(store: StudioStore, v: Verdict, now = Date.now()): string | null {
  const s = store.getState();
  const item = openItem(s);
  if (!item) return 'No item is open.';
  const reviewer = reviewerOf(s);
  const refused = verdictRefusal(item, reviewer);
  if (refused) return refused;
  const review: Review = {
    reviewer,
    verdict: v.verdict,
    comment: s.qa.comment.trim(),
    timeMs: Math.max(0, now - (s.qa.reviewStartedAt ?? now)),
    at: new Date(now).toISOString(),
    ...(v.verdict === 'reject' ? { reason: v.reason } : {}),
  };
  applyEdit(store, v.verdict === 'reject' ? REVIEW_EDITS.reject : v.verdict === 'accept' ? REVIEW_EDITS.accept : REVIEW_EDITS.acceptEdits, {
    itemId: item.id,
    review,
  });
  store.setState((st) => ({ qa: { ...st.qa, rejecting: false, editingForReview: false, comment: '' } }));
  return null;
}

/** The adjudicator's final decision on the open item (reviews that disagreed). */
export function recordAdjudication(store: StudioStore, decision: 'accept' | 'reject', reason: RejectReason | undefined, now = Date.now()): string | null {
  const s = store.getState();
  const item = openItem(s);
  if (!item) return 'No item is open.';
  const who = reviewerOf(s);
  const refused = adjudicationRefusal(item, who);
  if (refused) return refused;
  applyEdit(store, REVIEW_EDITS.adjudicate, {
    itemId: item.id,
    decision,
    who,
    at: new Date(now).toISOString(),
    comment: s.qa.comment.trim(),
    ...(reason ? { reason } : {}),
  });
  store.setState((st) => ({ qa: { ...st.qa, rejecting: false, comment: '' } }));
  return null;
}

/** Open the next item this person may adjudicate within the filters (after the open one in project order, else the first). Returns false when there is none. */
export function nextToAdjudicate(store: StudioStore): boolean {
  const s = store.getState();
  const all = qaItems(s);
  const queue = adjudicationQueue(scoped(all, s.qa.scope), reviewerOf(s)).filter((i) => i.id !== s.qa.itemId);
  const at = all.findIndex((i) => i.id === s.qa.itemId);
  const next = queue.find((i) => all.indexOf(i) > at) ?? queue[0];
  if (!next) return false;
  selectItem(store, next.id);
  return true;
}

/**
 * Open the next (or previous) item of the list the reviewer is working through. In review mode
 * that is the reviewer's queue, which the item just decided has left: the next one is the first
 * queued item after it in project order. Returns false when there is none.
 */
export function stepItem(store: StudioStore, delta: 1 | -1): boolean {
  const s = store.getState();
  const all = qaItems(s);
  const list = s.qa.mode === 'review' ? filteredItems(s, 'to-review') : filteredItems(s);
  if (list.length === 0) return false;
  const at = all.findIndex((i) => i.id === s.qa.itemId);
  const pos = (i: QaItem) => all.indexOf(i);
  const next = delta > 0 ? list.find((i) => pos(i) > at) : [...list].reverse().find((i) => pos(i) < at);
  if (!next) return false;
  selectItem(store, next.id);
  return true;
}

/** Start reviewing: the first item of the reviewer's queue is opened (the open one if it is queued). */
export function startReview(store: StudioStore): boolean {
  const s = store.getState();
  store.setState((st) => ({ qa: { ...st.qa, mode: 'review', rejecting: false, editingForReview: false } }));
  const queue = filteredItems(s, 'to-review');
  const first = queue.find((i) => i.id === s.qa.itemId) ?? queue[0];
  if (first) selectItem(store, first.id);
  return !!first;
}

/**
 * Narrow the list and the review queue to a scene, source or import (kept for the session). While
 * reviewing, an open item the new filters leave out gives way to the first item of the narrowed
 * queue, so the keys never act on an item the reviewer filtered away.
 */
export function setScope(store: StudioStore, patch: Partial<ItemScope>): void {
  store.setState((s) => ({ qa: { ...s.qa, scope: { ...s.qa.scope, ...patch } } }));
  const s = store.getState();
  const open = openItem(s);
  if (s.qa.mode !== 'review' || (open && scoped([open], s.qa.scope).length)) return;
  selectItem(store, filteredItems(s, 'to-review')[0]?.id ?? null);
}

/** The reviewer's comment on the verdict being written. */
export const setReviewComment = (store: StudioStore, comment: string): void => setQa(store, { comment });
