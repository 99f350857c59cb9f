import { describe, expect, it } from 'vitest';
import { emptyProject, type Project } from '../../../../src/core/project.ts';
import { capnavQuestionItem } from '../../../../src/core/vqa/capnav.ts';
import { compareLabellings } from '../../../../src/core/labelComparison.ts';
import { createWrittenItem, submitForReview } from '../../../../src/core/vqa/items.ts';
import type { QaItem } from '../../../../src/core/vqa/item.ts';
import { replaceDocument, undo } from '../../../../src/state/history.ts';
import { newItem, selectItem } from '../../../../src/features/qa/state/qaItems.ts';
import { filteredItems, recordAdjudication, recordVerdict, startReview, stepItem } from '../../../../src/features/review/state/qaReview.ts';
import { runCommand } from '../../../../src/state/commands.ts';
import { createStudioStore } from '../../../../src/state/store.ts';
import { commandForKey } from '../../../../src/ui/shortcuts.ts';
import { studioCommands } from '../../../support/commands.ts';
import { blocked, navGraph, navQuestion, ref, sceneOf, traversable } from '../../../support/sceneBuilder.ts';

const Q = 'Can [Agent] move from the hall to the kitchen?';

function project(): Project {
  const scene = sceneOf({ id: 'S', graph: navGraph(['hall-kitchen', 'kitchen-study']), questions: [navQuestion(Q, ref('hall'), ref('kitchen'))] });
  const p = { ...emptyProject('p'), scenes: [scene] };
  const written = (n: number, author: string): QaItem =>
    submitForReview({
      ...createWrittenItem([{ id: `qa_${n - 1}` }], { sceneId: 'S', author, createdAt: 't', question: `Q${n}?`, category: { capability: 'spatial' } }),
    });
  const capnav = capnavQuestionItem(scene, 0, 'qa_3', { createdAt: 't' });
  return { ...p, qa: { ...p.qa, items: [written(1, 'Ana'), written(2, 'Rita'), capnav] } };
}

function session(reviewer: string) {
  const store = createStudioStore();
  replaceDocument(store, project());
  store.setState((s) => ({ session: { ...s.session, annotator: reviewer, view: 'qa' } }));
  return store;
}

const item = (store: ReturnType<typeof session>, id: string) => store.getState().document.project!.qa.items.find((i) => i.id === id)!;

describe('reviewing items in the studio', () => {
  it('the reviewer’s queue leaves out what they wrote; review starts at its first item', () => {
    const store = session('Rita');
    expect(filteredItems(store.getState(), 'to-review').map((i) => i.id)).toEqual(['qa_1', 'qa_3']);
    expect(startReview(store)).toBe(true);
    expect(store.getState().qa.itemId).toBe('qa_1');
  });

  it('records the verdict with the reviewer, the comment and the time spent, as one undo step', () => {
    const store = session('Rita');
    startReview(store);
    store.setState((s) => ({ qa: { ...s.qa, reviewStartedAt: 1_000, comment: '  clear and grounded ' } }));
    expect(recordVerdict(store, { verdict: 'accept' }, 4_500)).toBeNull();
    const r = item(store, 'qa_1').reviews[0]!;
    expect(r).toMatchObject({ reviewer: 'Rita', verdict: 'accept', comment: 'clear and grounded', timeMs: 3_500 });
    expect(item(store, 'qa_1').status).toBe('accepted');
    expect(store.getState().qa.comment).toBe('');
    expect(store.getState().history.past.map((h) => h.label)).toEqual(['Accept item']);
    undo(store);
    expect(item(store, 'qa_1').status).toBe('pending');
  });

  it('refuses a verdict without a reviewer name, and on an item the reviewer wrote', () => {
    const store = session('');
    selectItem(store, 'qa_1');
    expect(recordVerdict(store, { verdict: 'accept' })).toMatch(/name/);
    store.setState((s) => ({ session: { ...s.session, annotator: 'Ana' } }));
    expect(recordVerdict(store, { verdict: 'accept' })).toMatch(/another person/);
    expect(item(store, 'qa_1').reviews).toEqual([]);
  });

  it('rejecting a CapNav question as hallucinated lists it in the scene in the same undo step; undo unlists it', () => {
    const store = session('Rita');
    selectItem(store, 'qa_3');
    recordVerdict(store, { verdict: 'reject', reason: 'hallucinated' });
    expect(store.getState().document.project!.scenes[0]!.hallucinated).toEqual([Q]);
    expect(store.getState().history.past).toHaveLength(1);
    undo(store);
    expect(store.getState().document.project!.scenes[0]!.hallucinated).toEqual([]);
  });

  it('moves through the reviewer’s queue in project order, skipping what they decided', () => {
    const store = session('Rita');
    startReview(store);
    recordVerdict(store, { verdict: 'accept' });
    expect(stepItem(store, 1)).toBe(true);
    expect(store.getState().qa.itemId).toBe('qa_3');
    expect(stepItem(store, 1)).toBe(false);
    expect(stepItem(store, -1)).toBe(false); // qa_1 is decided; nothing before qa_3 is left
  });

  it('two reviews that disagree go to adjudication, decided by someone who did not review', () => {
    const store = session('Rita');
    const p = store.getState().document.project!;
    replaceDocument(store, { ...p, qa: { ...p.qa, items: p.qa.items.map((i) => ({ ...i, requiredReviews: 2 })) } });
    selectItem(store, 'qa_1');
    recordVerdict(store, { verdict: 'accept' });
    expect(item(store, 'qa_1').status).toBe('pending');
    store.setState((s) => ({ session: { ...s.session, annotator: 'Omar' } }));
    recordVerdict(store, { verdict: 'reject', reason: 'ambiguous' });
    expect(item(store, 'qa_1').status).toBe('adjudicate');
    expect(recordAdjudication(store, 'accept', undefined)).toMatch(/reviewed/);
    store.setState((s) => ({ session: { ...s.session, annotator: 'Lee' } }));
    expect(recordAdjudication(store, 'reject', 'ambiguous')).toBeNull();
    expect(item(store, 'qa_1')).toMatchObject({ status: 'rejected', adjudication: { adjudicator: 'Lee', decision: 'reject', reason: 'ambiguous' } });
  });

  /** Rita accepted qa_1 and Omar rejected it (two reviews needed): it awaits adjudication, open in review mode for `who`. */
  function disagreement(who: string) {
    const store = session('Rita');
    const p = store.getState().document.project!;
    replaceDocument(store, { ...p, qa: { ...p.qa, items: p.qa.items.map((i) => ({ ...i, requiredReviews: 2 })) } });
    selectItem(store, 'qa_1');
    recordVerdict(store, { verdict: 'accept' });
    store.setState((s) => ({ session: { ...s.session, annotator: 'Omar' } }));
    recordVerdict(store, { verdict: 'reject', reason: 'ambiguous' });
    store.setState((s) => ({ session: { ...s.session, annotator: who }, qa: { ...s.qa, mode: 'review' } }));
    selectItem(store, 'qa_1');
    const { commands, told } = studioCommands(store);
    /** Press a key as the app does: the first enabled command bound to it runs. */
    const press = async (key: string) => {
      const c = commandForKey(commands, { key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, target: null }, store.getState());
      if (c) runCommand(store, c);
      await new Promise((r) => setTimeout(r, 0));
      return c?.id;
    };
    return { store, told, press };
  }

  it('A on an item awaiting adjudication decides it (accept), one undo step, and never adds a third review', async () => {
    const { store, press } = disagreement('Lee');
    expect(item(store, 'qa_1').status).toBe('adjudicate');
    const steps = store.getState().history.past.length;
    expect(await press('a')).toBe('qa.adjudicate.accept');
    expect(item(store, 'qa_1').reviews.map((r) => r.reviewer)).toEqual(['Rita', 'Omar']);
    expect(item(store, 'qa_1')).toMatchObject({ status: 'accepted', adjudication: { adjudicator: 'Lee', decision: 'accept' } });
    expect(store.getState().history.past.length).toBe(steps + 1);
    undo(store);
    expect(item(store, 'qa_1').status).toBe('adjudicate');
    expect(item(store, 'qa_1').adjudication).toBeUndefined();
  });

  it('R then a reason key on an item awaiting adjudication decides it (reject, with the reason)', async () => {
    const { store, press } = disagreement('Lee');
    expect(await press('r')).toBe('qa.adjudicate.reject');
    expect(store.getState().qa.rejecting).toBe(true);
    await press('t');
    expect(item(store, 'qa_1').reviews).toHaveLength(2);
    expect(item(store, 'qa_1')).toMatchObject({ status: 'rejected', adjudication: { adjudicator: 'Lee', decision: 'reject', reason: 'trivial' } });
    expect(store.getState().qa.rejecting).toBe(false);
  });

  it('E on an item awaiting adjudication is refused with a message saying how to decide it', async () => {
    const { store, told, press } = disagreement('Lee');
    await press('e');
    expect(store.getState().qa.editingForReview).toBe(false);
    expect(told.at(-1)).toMatch(/A to accept it, or R then the reason key/);
    expect(item(store, 'qa_1').status).toBe('adjudicate');
  });

  it('a reviewer of the item pressing A is refused: no third review, no decision, and told why', async () => {
    const { store, told, press } = disagreement('Rita');
    await press('a');
    expect(item(store, 'qa_1').reviews).toHaveLength(2);
    expect(item(store, 'qa_1').status).toBe('adjudicate');
    expect(told.at(-1)).toMatch(/You reviewed qa_1/);
    // Nor can a verdict be recorded on it by any other path.
    store.setState((s) => ({ session: { ...s.session, annotator: 'Lee' } }));
    expect(recordVerdict(store, { verdict: 'accept' })).toMatch(/awaits adjudication.*A to accept it/);
    expect(item(store, 'qa_1').reviews).toHaveLength(2);
  });

  it('on a pending item A and R are still the reviewer’s own verdict', async () => {
    const store = session('Rita');
    store.setState((s) => ({ qa: { ...s.qa, mode: 'review' } }));
    startReview(store);
    const { commands } = studioCommands(store);
    const c = commandForKey(commands, { key: 'a', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, target: null }, store.getState());
    expect(c?.id).toBe('qa.accept');
  });

  it('a new item is a draft of the selected scene by the current annotator, opened at once', () => {
    const store = session('Ana');
    store.setState((s) => ({ session: { ...s.session, sceneId: 'S' } }));
    const id = newItem(store);
    expect(id).toBe('qa_4');
    expect(item(store, 'qa_4')).toMatchObject({ status: 'draft', author: 'Ana', sceneId: 'S', source: 'written' });
    expect(store.getState().qa.itemId).toBe('qa_4');
  });
});

describe('traversability labels made twice', () => {
  it('compares two labellings scene by scene with Cohen’s kappa, and names scenes only the other has', () => {
    const scene = (labels: Project['scenes'][number]['labels'], id = 'S') => sceneOf({ id, graph: navGraph(['a-b', 'b-c', 'c-d', 'd-e']), labels });
    const ours = { scenes: [scene({ WHEELCHAIR: { 'a|b': traversable(), 'b|c': traversable(), 'c|d': blocked(), 'd|e': blocked() } })] };
    const theirs = { scenes: [scene({ WHEELCHAIR: { 'b|a': traversable(), 'b|c': blocked(), 'c|d': blocked(), 'd|e': blocked() } }), scene({}, 'OTHER')] };
    const c = compareLabellings(ours, theirs, 'second annotator');
    // 4 segments, 3 agree: po = 3/4; ours yes 2/4, theirs yes 1/4 → pe = 2/4·1/4 + 2/4·3/4 = 1/2; κ = (3/4 − 1/2)/(1/2) = 0.5
    expect(c.overall.overall.compared).toBe(4);
    expect(c.overall.overall.cohen.kappa).toBeCloseTo(0.5, 10);
    expect(c.scenes[0]!.agreement.perAgent[0]!.disagreements.map((d) => d.edge)).toEqual(['b|c']);
    expect(c.unmatched).toEqual(['OTHER']);
  });
});
