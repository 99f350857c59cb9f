import { describe, expect, it } from 'vitest';
import { emptyProject, type Project } from '../../../../src/core/project.ts';
import { syncHallucination } from '../../../../src/core/vqa/hallucination.ts';
import type { QaItem, RejectReason, Review } from '../../../../src/core/vqa/item.ts';
import { addReview, adjudicate, deriveStatus, refreshStatus, rejectReason, removalReport, reviewQueue } from '../../../../src/core/vqa/review.ts';
import { navGraph, navQuestion, ref, sceneOf } from '../../../support/sceneBuilder.ts';

const AT = '2025-03-01T10:00:00Z';
const accept = (reviewer: string): Review => ({ reviewer, verdict: 'accept', comment: '', timeMs: 4000, at: AT });
const editAccept = (reviewer: string): Review => ({ ...accept(reviewer), verdict: 'edit-accept' });
const reject = (reviewer: string, reason?: RejectReason): Review => ({ ...accept(reviewer), verdict: 'reject', ...(reason ? { reason } : {}) });

function item(over: Partial<QaItem> = {}): QaItem {
  return {
    id: 'qa_1',
    sceneId: 'HM3D00001',
    question: 'Is the kitchen door open?',
    answer: { kind: 'yesno', correct: true },
    category: { capability: 'semantic' },
    anchors: { viewpoints: [], marks: [], nodes: [], edges: [] },
    trail: [],
    source: 'generated',
    status: 'pending',
    requiredReviews: 1,
    reviews: [],
    createdAt: AT,
    author: '',
    ...over,
  };
}
const review = (i: QaItem, ...rs: Review[]) => rs.reduce(addReview, i);

describe('the status follows the reviews', () => {
  it('one required review decides at once; a draft without reviews stays a draft', () => {
    expect(addReview(item(), accept('ana')).status).toBe('accepted');
    expect(addReview(item(), editAccept('ana')).status).toBe('accepted');
    expect(addReview(item(), reject('ana', 'trivial')).status).toBe('rejected');
    expect(deriveStatus(item({ status: 'draft' }))).toBe('draft');
    expect(deriveStatus(item({ status: 'accepted' }))).toBe('pending'); // a status without reviews behind it does not stand
  });

  it('with two required reviews: pending after one, then accepted, rejected, or sent to adjudication', () => {
    const two = item({ requiredReviews: 2 });
    expect(review(two, accept('ana')).status).toBe('pending');
    expect(review(two, accept('ana'), editAccept('ben')).status).toBe('accepted');
    expect(review(two, reject('ana', 'ambiguous'), reject('ben', 'trivial')).status).toBe('rejected');
    expect(review(two, accept('ana'), reject('ben', 'wrong-answer')).status).toBe('adjudicate');
  });

  it('a reviewer has one verdict: reviewing again replaces it, and the status follows', () => {
    const two = item({ requiredReviews: 2 });
    const mixed = review(two, accept('ana'), reject('ben', 'ambiguous'));
    const changed = addReview(mixed, accept('ben'));
    expect(changed.reviews.map((r) => [r.reviewer, r.verdict])).toEqual([
      ['ana', 'accept'],
      ['ben', 'accept'],
    ]);
    expect(changed.status).toBe('accepted');
    // the same reviewer twice is still one review of two
    expect(review(two, accept('ana'), reject('ana')).status).toBe('pending');
  });

  it('a reason given with a keeping verdict is dropped: reasons explain rejections', () => {
    expect(addReview(item(), { ...accept('ana'), reason: 'trivial' }).reviews[0]).not.toHaveProperty('reason');
    expect(addReview(item(), reject('ana', 'trivial')).reviews[0]!.reason).toBe('trivial');
  });

  it('raising the overlap sends a decided item back to pending', () => {
    const accepted = review(item(), accept('ana'));
    expect(refreshStatus({ ...accepted, requiredReviews: 2 }).status).toBe('pending');
    expect(refreshStatus(accepted)).toBe(accepted);
  });
});

describe('adjudication', () => {
  const disputed = review(item({ requiredReviews: 2 }), accept('ana'), reject('ben', 'ambiguous'));

  it("the adjudicator's decision is final and the reviews stay for agreement statistics", () => {
    const kept = adjudicate(disputed, 'accept', 'cy', { at: AT, reason: 'trivial' });
    expect(kept.status).toBe('accepted');
    expect(kept.adjudication).toEqual({ adjudicator: 'cy', decision: 'accept', comment: '', at: AT }); // no reason on an accept
    expect(kept.reviews).toHaveLength(2);
    expect(adjudicate(disputed, 'reject', 'cy', { at: AT, reason: 'implausible' }).status).toBe('rejected');
  });

  it('a later review does not override the adjudication', () => {
    const rejected = adjudicate(disputed, 'reject', 'cy', { at: AT });
    expect(addReview(rejected, accept('ben')).status).toBe('rejected');
  });
});

describe('the review queue', () => {
  it('holds pending items the reviewer neither wrote nor reviewed, in project order', () => {
    const items = [
      item({ id: 'qa_1', requiredReviews: 2 }),
      item({ id: 'qa_2', author: 'ana', source: 'written' }),
      review(item({ id: 'qa_3', requiredReviews: 2 }), accept('ana')),
      review(item({ id: 'qa_4', requiredReviews: 2 }), accept('ben')),
      item({ id: 'qa_5', status: 'draft' }),
      review(item({ id: 'qa_6' }), accept('ben')),
    ];
    expect(reviewQueue(items, 'ana').map((i) => i.id)).toEqual(['qa_1', 'qa_4']);
    expect(reviewQueue(items, 'ben').map((i) => i.id)).toEqual(['qa_1', 'qa_2', 'qa_3']);
  });
});

describe('why an item was removed', () => {
  const two = item({ requiredReviews: 2 });
  it('the reason most rejecting reviewers gave; a tie goes to the earlier reason in the list', () => {
    const three = item({ requiredReviews: 3 });
    expect(rejectReason(review(three, reject('a', 'trivial'), reject('b', 'ambiguous'), reject('c', 'ambiguous')))).toBe('ambiguous');
    // hallucinated comes before trivial in REJECT_REASONS
    expect(rejectReason(review(two, reject('a', 'trivial'), reject('b', 'hallucinated')))).toBe('hallucinated');
    expect(rejectReason(review(two, reject('a'), reject('b')))).toBeNull();
  });

  it("the adjudicator's reason wins over the reviewers'; items not rejected have none", () => {
    const disputed = review(two, reject('a', 'trivial'), accept('b'));
    expect(rejectReason(adjudicate(disputed, 'reject', 'cy', { at: AT, reason: 'implausible' }))).toBe('implausible');
    expect(rejectReason(adjudicate(disputed, 'reject', 'cy', { at: AT }))).toBe('trivial');
    expect(rejectReason(disputed)).toBeNull();
    expect(rejectReason(adjudicate(disputed, 'accept', 'cy', { at: AT }))).toBeNull();
  });

  it('the removal report: share of decided items rejected, per reason and per source', () => {
    const items = [
      review(item({ source: 'generated' }), accept('a')),
      review(item({ source: 'generated' }), reject('a', 'hallucinated')),
      review(item({ source: 'generated' }), reject('a', 'hallucinated')),
      review(item({ source: 'generated' }), reject('a')),
      review(item({ source: 'written' }), accept('a')),
      review(item({ source: 'capnav' }), reject('a', 'ambiguous')),
      item({ source: 'generated' }), // pending: not decided
    ];
    const r = removalReport(items);
    expect([r.decided, r.accepted, r.rejected]).toEqual([6, 2, 4]);
    expect(r.rate).toBeCloseTo(4 / 6, 12);
    expect(r.byReason).toEqual({ hallucinated: 2, 'wrong-answer': 0, ambiguous: 1, trivial: 0, 'not-in-taxonomy': 0, implausible: 0, unspecified: 1 });
    expect(r.bySource.generated).toEqual({ decided: 4, rejected: 3, rate: 0.75 });
    expect(r.bySource.written).toEqual({ decided: 1, rejected: 0, rate: 0 });
    expect(r.bySource.capnav).toEqual({ decided: 1, rejected: 1, rate: 1 });
    expect(removalReport([]).rate).toBe(0);
  });
});

describe("reviewing CapNav questions keeps the scene's hallucination list", () => {
  const ASK = 'Can [Agent] move from the hall to the living room?';
  const OTHER = 'Can [Agent] move from the kitchen to the hall?';

  function project(hallucinated: string[] = [], items: QaItem[] = []): Project {
    const scene = sceneOf({
      id: 'HM3D00001',
      graph: navGraph(['hall-kitchen', 'kitchen-living']),
      hallucinated,
      questions: [navQuestion(ASK, ref('hall'), ref('living')), navQuestion(OTHER, ref('kitchen'), ref('hall'))],
    });
    const p = emptyProject();
    return { ...p, scenes: [scene], qa: { ...p.qa, items } };
  }
  // A reviewer reworded the item: the list must carry the scene question's text, not the item's.
  const capnavItem = (id = 'qa_1', capnavQuestion = 0) => item({ id, source: 'capnav', capnavQuestion, question: 'Reworded: hall to living room?' });
  const listOf = (p: Project) => p.scenes[0]!.hallucinated;

  it("rejecting the item as hallucinated lists the scene question's exact text, and stores the item", () => {
    const before = project([], [capnavItem()]);
    const after = syncHallucination(before, review(capnavItem(), reject('ana', 'hallucinated')));
    expect(listOf(after)).toEqual([ASK]);
    expect(after.qa.items[0]!.status).toBe('rejected');
    expect(listOf(before)).toEqual([]); // the input project is left alone
  });

  it('accepting the item unlists the question, even when the release itself listed it', () => {
    const after = syncHallucination(project([ASK, OTHER], [capnavItem()]), review(capnavItem(), accept('ana')));
    expect(listOf(after)).toEqual([OTHER]);
  });

  it('a hallucinated rejection changed to another reason unlists the question', () => {
    const rejected = review(capnavItem(), reject('ana', 'hallucinated'));
    const listed = syncHallucination(project([], [capnavItem()]), rejected);
    expect(listOf(listed)).toEqual([ASK]);
    const changed = syncHallucination(listed, addReview(rejected, reject('ana', 'ambiguous')));
    expect(changed.qa.items[0]!.status).toBe('rejected');
    expect(listOf(changed)).toEqual([]);
  });

  it("a rejection for another reason, or a pending item, leaves a release's listing alone", () => {
    expect(listOf(syncHallucination(project([ASK], [capnavItem()]), review(capnavItem(), reject('ana', 'ambiguous'))))).toEqual([ASK]);
    expect(listOf(syncHallucination(project([ASK], [capnavItem()]), capnavItem()))).toEqual([ASK]);
  });

  it('while another item for the same question still says hallucinated, the question stays listed', () => {
    const other = review(capnavItem('qa_2'), reject('ben', 'hallucinated'));
    const p = project([ASK], [capnavItem(), other]);
    expect(listOf(syncHallucination(p, review(capnavItem(), accept('ana'))))).toEqual([ASK]);
    // an item for a different question does not hold it
    const unrelated = review(capnavItem('qa_2', 1), reject('ben', 'hallucinated'));
    expect(listOf(syncHallucination(project([ASK, OTHER], [capnavItem(), unrelated]), review(capnavItem(), accept('ana'))))).toEqual([OTHER]);
  });

  it('items that are not CapNav questions leave the lists alone', () => {
    const p = project([ASK], []);
    const after = syncHallucination(p, review(item({ id: 'qa_9' }), reject('ana', 'hallucinated')));
    expect(after.scenes).toBe(p.scenes);
    expect(after.qa.items.map((i) => i.id)).toEqual(['qa_9']);
  });
});
