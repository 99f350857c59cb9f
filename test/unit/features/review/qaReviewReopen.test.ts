import { describe, expect, it } from 'vitest';
import { emptyProject, type Project } from '../../../../src/core/project.ts';
import { capnavQuestionItem } from '../../../../src/core/vqa/capnav.ts';
import type { QaItem, Review } from '../../../../src/core/vqa/item.ts';
import { setQuestion, setRequiredReviews, setOptionText } from '../../../../src/core/vqa/items.ts';
import { lastRound, reopenAfterEdit } from '../../../../src/core/vqa/reopen.ts';
import { addReview, adjudicate, reviewQueue } from '../../../../src/core/vqa/review.ts';
import { applyEdit } from '../../../../src/state/edits.ts';
import { replaceDocument, undo } from '../../../../src/state/history.ts';
import { ITEM_EDITS } from '../../../../src/features/qa/state/qaItemEdits.ts';
import { selectItem } from '../../../../src/features/qa/state/qaItems.ts';
import { recordVerdict } from '../../../../src/features/review/state/qaReview.ts';
import { createStudioStore } from '../../../../src/state/store.ts';
import { navGraph, navQuestion, ref, sceneOf } from '../../../support/sceneBuilder.ts';

const AT = '2025-03-01T10:00:00Z';
const accept = (reviewer: string): Review => ({ reviewer, verdict: 'accept', comment: '', timeMs: 4000, at: AT });
const reject = (reviewer: string): Review => ({ reviewer, verdict: 'reject', reason: 'ambiguous', comment: '', timeMs: 4000, at: AT });

function item(over: Partial<QaItem> = {}): QaItem {
  return {
    id: 'qa_1',
    sceneId: 'S',
    question: 'Which room is upstairs?',
    answer: {
      kind: 'mcq',
      options: [
        { key: 'A', text: 'Kitchen' },
        { key: 'B', text: 'Bedroom 1' },
      ],
      correct: 'B',
    },
    category: { capability: 'spatial' },
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

describe('an edit of what reviewers judged sends the item back to review', () => {
  it('an accepted item whose question changes is pending again; the verdict and the accepted text are kept as history', () => {
    const accepted = addReview(item(), accept('Rita'));
    expect(accepted.status).toBe('accepted');
    const edited = reopenAfterEdit(accepted, setQuestion(accepted, 'Which room is on the upper floor?'));
    expect(edited).toMatchObject({ status: 'pending', reviews: [], question: 'Which room is on the upper floor?' });
    expect(lastRound(edited)).toMatchObject({
      status: 'accepted',
      reviews: [{ reviewer: 'Rita', verdict: 'accept' }],
      content: { question: 'Which room is upstairs?' },
    });
    // Rita's verdict is no longer in force: the item is in her queue again.
    expect(reviewQueue([edited], 'Rita').map((i) => i.id)).toEqual(['qa_1']);
  });

  it('an option’s text counts as much as the question', () => {
    const accepted = addReview(item(), accept('Rita'));
    const edited = reopenAfterEdit(accepted, setOptionText(accepted, 'B', 'Bedroom 2'));
    expect(edited.status).toBe('pending');
    expect(lastRound(edited)!.content.answer).toEqual(accepted.answer);
  });

  it('an adjudicated item: the adjudication goes into the history with the reviews', () => {
    const two = item({ requiredReviews: 2 });
    const decided = adjudicate(addReview(addReview(two, accept('Rita')), reject('Omar')), 'accept', 'Lee', { at: AT });
    expect(decided.status).toBe('accepted');
    const edited = reopenAfterEdit(decided, setQuestion(decided, 'Which room is on floor 2?'));
    expect(edited.status).toBe('pending');
    expect(edited.adjudication).toBeUndefined();
    expect(lastRound(edited)).toMatchObject({
      status: 'accepted',
      adjudication: { adjudicator: 'Lee' },
      reviews: [{ reviewer: 'Rita' }, { reviewer: 'Omar' }],
    });
  });

  it('a second edit adds no round: the history holds what was reviewed, not every keystroke', () => {
    const accepted = addReview(item(), accept('Rita'));
    const once = reopenAfterEdit(accepted, setQuestion(accepted, 'Q2?'));
    const twice = reopenAfterEdit(once, setQuestion(once, 'Q3?'));
    expect(twice.reviewHistory).toHaveLength(1);
    expect(lastRound(twice)!.content.question).toBe('Which room is upstairs?');
  });

  it('is left alone: items without verdicts, and changes that are not content (reviews needed, a new object with the same content)', () => {
    const draft = item({ status: 'draft' });
    const d2 = setQuestion(draft, 'Q?');
    expect(reopenAfterEdit(draft, d2)).toBe(d2);
    const accepted = addReview(item(), accept('Rita'));
    const more = setRequiredReviews(accepted, 2);
    expect(reopenAfterEdit(accepted, more)).toBe(more);
    const copy = { ...accepted, anchors: { ...accepted.anchors } };
    expect(reopenAfterEdit(accepted, copy)).toBe(copy);
  });
});

const Q = 'Can [Agent] move from the hall to the kitchen?';

function session(): ReturnType<typeof createStudioStore> {
  const scene = sceneOf({ id: 'S', graph: navGraph(['hall-kitchen']), questions: [navQuestion(Q, ref('hall'), ref('kitchen'))] });
  const p: Project = { ...emptyProject('p'), scenes: [scene] };
  const capnav = capnavQuestionItem(scene, 0, 'qa_2', { createdAt: 't' });
  const store = createStudioStore();
  replaceDocument(store, { ...p, qa: { ...p.qa, items: [item(), capnav] } });
  store.setState((s) => ({ session: { ...s.session, annotator: 'Rita', view: 'qa' } }));
  return store;
}
const get = (store: ReturnType<typeof session>, id: string) => store.getState().document.project!.qa.items.find((i) => i.id === id)!;

describe('editing a reviewed item in the studio', () => {
  it('editing an accepted item’s question: pending again in the same undo step; one undo restores both the text and “accepted”', () => {
    const store = session();
    selectItem(store, 'qa_1');
    recordVerdict(store, { verdict: 'accept' });
    expect(get(store, 'qa_1').status).toBe('accepted');
    const steps = store.getState().history.past.length;
    applyEdit(store, ITEM_EDITS.question, { itemId: 'qa_1', text: 'Which room is on the upper floor?' });
    expect(get(store, 'qa_1')).toMatchObject({ status: 'pending', reviews: [], question: 'Which room is on the upper floor?' });
    expect(store.getState().history.past.length).toBe(steps + 1);
    undo(store);
    expect(get(store, 'qa_1')).toMatchObject({ status: 'accepted', question: 'Which room is upstairs?', reviews: [{ reviewer: 'Rita', verdict: 'accept' }] });
    expect(get(store, 'qa_1').reviewHistory ?? []).toEqual([]);
  });

  it('a trail step added to an accepted item sends it back too; the number of reviews needed does not', () => {
    const store = session();
    selectItem(store, 'qa_1');
    recordVerdict(store, { verdict: 'accept' });
    applyEdit(store, ITEM_EDITS.requiredReviews, { itemId: 'qa_1', n: 1 });
    expect(get(store, 'qa_1').status).toBe('accepted');
    applyEdit(store, ITEM_EDITS.addStep, { itemId: 'qa_1', after: -1 });
    expect(get(store, 'qa_1').status).toBe('pending');
  });

  it('a CapNav question rejected as hallucinated and then reworded is unlisted until it is decided again; undo lists it again', () => {
    const store = session();
    selectItem(store, 'qa_2');
    recordVerdict(store, { verdict: 'reject', reason: 'hallucinated' });
    const listed = () => store.getState().document.project!.scenes[0]!.hallucinated;
    expect(listed()).toEqual([Q]);
    applyEdit(store, ITEM_EDITS.question, { itemId: 'qa_2', text: 'Can [Agent] go from the hall into the kitchen?' });
    expect(get(store, 'qa_2').status).toBe('pending');
    expect(listed()).toEqual([]);
    undo(store);
    expect(listed()).toEqual([Q]);
    expect(get(store, 'qa_2').status).toBe('rejected');
  });
});
