import { REJECT_REASONS, type Adjudication, type QaItem, type RejectReason, type Review } from './item.ts';

/**
 * Review of items: each reviewer gives one verdict per item; an item needs `requiredReviews`
 * independent verdicts (overlap, so agreement can be measured); verdicts that disagree go to an
 * adjudicator whose decision is final. The status is always derived from the reviews and the
 * adjudication, never set by hand, so it cannot drift from them.
 */

/** accept and edit-accept both keep the item; only the degree of change differs. */
const keeps = (r: Review) => r.verdict !== 'reject';

/**
 * The status the reviews imply:
 * - an adjudication decides (`accepted` / `rejected`);
 * - fewer reviews than required: `pending` (a draft with no review stays `draft`);
 * - enough reviews, all keeping the item: `accepted`; all rejecting: `rejected`; mixed: `adjudicate`.
 */
export function deriveStatus(item: Pick<QaItem, 'status' | 'reviews' | 'requiredReviews' | 'adjudication'>): QaItem['status'] {
  if (item.adjudication) return item.adjudication.decision === 'accept' ? 'accepted' : 'rejected';
  if (item.reviews.length === 0) return item.status === 'draft' ? 'draft' : 'pending';
  if (item.reviews.length < item.requiredReviews) return 'pending';
  const kept = item.reviews.filter(keeps).length;
  return kept === item.reviews.length ? 'accepted' : kept === 0 ? 'rejected' : 'adjudicate';
}

const settle = (item: QaItem): QaItem => {
  const status = deriveStatus(item);
  return status === item.status ? item : { ...item, status };
};

/**
 * Record a reviewer's verdict. A reviewer has one verdict per item: reviewing again replaces
 * the earlier one (a change of mind, not a second vote). A reason given with a keeping verdict is
 * dropped, since reasons explain rejections.
 */
export function addReview(item: QaItem, review: Review): QaItem {
  const clean: Review = review.verdict === 'reject' || review.reason === undefined ? review : dropReason(review);
  const reviews = [...item.reviews.filter((r) => r.reviewer !== review.reviewer), clean];
  return settle({ ...item, reviews });
}

function dropReason(r: Review): Review {
  const { reason: _reason, ...rest } = r;
  return rest;
}

/** Re-derive the status, e.g. after the number of required reviews changed. */
export const refreshStatus = settle;

/**
 * The adjudicator's final decision. It may be given on any item with reviews (an overturn of a
 * unanimous decision is allowed and recorded as such); the reviews stay for agreement statistics.
 */
export function adjudicate(
  item: QaItem,
  decision: 'accept' | 'reject',
  adjudicator: string,
  more: { reason?: RejectReason; comment?: string; at: string },
): QaItem {
  const adjudication: Adjudication = { adjudicator, decision, comment: more.comment ?? '', at: more.at };
  if (decision === 'reject' && more.reason) adjudication.reason = more.reason;
  return settle({ ...item, adjudication });
}

/**
 * Items waiting for this reviewer, in project order: pending items they have not reviewed yet.
 * The author of an item is not asked to review it (reviews are meant to be independent); items
 * to adjudicate are in `adjudicationQueue`.
 */
export function reviewQueue(items: readonly QaItem[], reviewer: string): QaItem[] {
  return items.filter((i) => i.status === 'pending' && i.author !== reviewer && !i.reviews.some((r) => r.reviewer === reviewer));
}

/** Items whose reviews disagree that this person may decide: they neither wrote nor reviewed them. */
export function adjudicationQueue(items: readonly QaItem[], who: string): QaItem[] {
  return items.filter((i) => i.status === 'adjudicate' && adjudicationRefusal(i, who) === null);
}

/** The keys that decide an item awaiting adjudication, as a reviewer is told them. */
export const ADJUDICATION_KEYS_TEXT = 'A to accept it, or R then the reason key to reject it';

/**
 * Why this reviewer's verdict cannot be recorded on the item, or null. A verdict is one of the
 * independent reviews; it cannot decide an item whose reviews already disagree (that is the
 * adjudicator's decision, so a third review would only be a tie-breaking vote nobody asked for),
 * nor change an item an adjudicator decided.
 */
export function verdictRefusal(item: QaItem, reviewer: string): string | null {
  if (!reviewer) return 'Enter your name as reviewer first: verdicts are recorded with it.';
  if (item.author && item.author === reviewer) return `You wrote ${item.id}; another person has to review it.`;
  if (item.status === 'adjudicate') {
    return item.reviews.some((r) => r.reviewer === reviewer)
      ? `${item.id} awaits adjudication: its reviews disagree, and someone who did not review it decides it.`
      : `${item.id} awaits adjudication, not another review: decide it with ${ADJUDICATION_KEYS_TEXT}.`;
  }
  if (item.adjudication)
    return `${item.id} was decided by ${item.adjudication.adjudicator || 'an adjudicator'} (${item.adjudication.decision}); edit it to send it back to review.`;
  return null;
}

/** Why this person cannot adjudicate the item, or null: adjudicators are neither its author nor one of its reviewers. */
export function adjudicationRefusal(item: QaItem, who: string): string | null {
  if (!who) return 'Enter your name first: the decision is recorded with it.';
  if (item.reviews.some((r) => r.reviewer === who)) return `You reviewed ${item.id}; someone who did not should adjudicate it.`;
  if (item.author && item.author === who) return `You wrote ${item.id}; someone else should adjudicate it.`;
  return null;
}

/**
 * Why a rejected item was rejected: the adjudicator's reason if they rejected it, else the
 * reason most reject verdicts gave (ties broken in REJECT_REASONS order); null when no reason
 * was given or the item is not rejected.
 */
export function rejectReason(item: QaItem): RejectReason | null {
  if (item.status !== 'rejected') return null;
  if (item.adjudication?.decision === 'reject' && item.adjudication.reason) return item.adjudication.reason;
  const counts = new Map<RejectReason, number>();
  for (const r of item.reviews) if (r.verdict === 'reject' && r.reason) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
  let best: RejectReason | null = null;
  for (const reason of REJECT_REASONS) if ((counts.get(reason) ?? 0) > (best ? counts.get(best)! : 0)) best = reason;
  return best;
}

export interface RemovalReport {
  /** accepted + rejected. */
  decided: number;
  accepted: number;
  rejected: number;
  /** rejected / decided; 0 when nothing is decided yet (see `decided`). */
  rate: number;
  /** Rejected items per reason (each rejected item counted once); `unspecified` when no reason was given. */
  byReason: Record<RejectReason | 'unspecified', number>;
  /** The same figures per item source, since generated items are the ones expected to be removed (FoMER removed ~12%). */
  bySource: Record<QaItem['source'], { decided: number; rejected: number; rate: number }>;
}

/** How many decided items were removed, and why: the dataset card's "n% of generated questions were removed". */
export function removalReport(items: readonly QaItem[]): RemovalReport {
  const byReason = Object.fromEntries([...REJECT_REASONS, 'unspecified'].map((r) => [r, 0])) as RemovalReport['byReason'];
  const bySource: RemovalReport['bySource'] = { written: zero(), generated: zero(), capnav: zero() };
  let accepted = 0,
    rejected = 0;
  for (const item of items) {
    if (item.status !== 'accepted' && item.status !== 'rejected') continue;
    const src = bySource[item.source];
    src.decided++;
    if (item.status === 'accepted') {
      accepted++;
      continue;
    }
    rejected++;
    src.rejected++;
    byReason[rejectReason(item) ?? 'unspecified']++;
  }
  for (const s of Object.values(bySource)) s.rate = s.decided ? s.rejected / s.decided : 0;
  const decided = accepted + rejected;
  return { decided, accepted, rejected, rate: decided ? rejected / decided : 0, byReason, bySource };
}

function zero() {
  return { decided: 0, rejected: 0, rate: 0 };
}
