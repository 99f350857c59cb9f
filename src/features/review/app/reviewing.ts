import { REJECT_REASONS, type RejectReason } from '../../../core/vqa/item.ts';
import { ADJUDICATION_KEYS_TEXT } from '../../../core/vqa/review.ts';
import type { Command } from '../../../state/commands.ts';
import { openItem, selectItem } from '../../qa/state/qaItems.ts';
import { nextToAdjudicate, recordAdjudication, recordVerdict, REJECT_KEYS, startReview, stepItem, type Verdict } from '../state/qaReview.ts';
import type { StudioState, StudioStore } from '../../../state/store.ts';
import { oneAtATime, recordThenAdvance } from '../../../services/durableDecision.ts';
import { setQa as setQaOf } from '../../../state/patch.ts';

/**
 * The review decisions, at the edge of the app: each verdict is one undo step, stored durably
 * before the queue moves on (as labels are).
 */
export function reviewingCommands(store: StudioStore, flush: () => Promise<void>, told: (message: string) => void): Command[] {
  // A key pressed while the last verdict is being stored waits its turn (durableDecision.ts).
  const { tell, run: inTurn } = oneAtATime(told);
  async function decide(v: Verdict): Promise<boolean> {
    const id = store.getState().qa.itemId;
    const what = v.verdict === 'reject' ? `rejected (${v.reason})` : v.verdict === 'accept' ? 'accepted' : 'accepted with edits';
    return recordThenAdvance(store, flush, tell, {
      record: () => recordVerdict(store, v),
      unsaved: 'The verdict could not be saved; the queue stays here. See the message at the top.',
      advance: () => {
        if (stepItem(store, 1) || stepItem(store, -1)) return `Saved: ${id} ${what}.`;
        selectItem(store, null);
        return `Saved: ${id} ${what}. Nothing left in your review queue.`;
      },
    });
  }

  /**
   * The adjudicator's decision on an item whose reviews disagree: one undo step, stored before
   * moving on to the next item awaiting adjudication.
   */
  async function adjudicate(decision: 'accept' | 'reject', reason?: RejectReason): Promise<boolean> {
    const id = store.getState().qa.itemId;
    const what = decision === 'reject' ? `rejected (${reason})` : 'accepted';
    return recordThenAdvance(store, flush, tell, {
      record: () => recordAdjudication(store, decision, reason),
      unsaved: 'The decision could not be saved; the item stays open. See the message at the top.',
      advance: () => (nextToAdjudicate(store) ? `Adjudicated: ${id} ${what}.` : `Adjudicated: ${id} ${what}. Nothing else awaits your adjudication.`),
    });
  }

  const inQa = (s: StudioState) => s.session.view === 'qa';
  const reviewing = (s: StudioState) => inQa(s) && s.qa.mode === 'review' && !!openItem(s);
  // An item whose reviews disagree is decided by an adjudicator: A and R decide it, never add a review.
  const awaiting = (s: StudioState) => reviewing(s) && openItem(s)!.status === 'adjudicate';
  const choosing = (s: StudioState) => reviewing(s) && !s.qa.rejecting && !s.qa.editingForReview;
  const deciding = (s: StudioState) => choosing(s) && !awaiting(s);
  const adjudicating = (s: StudioState) => choosing(s) && awaiting(s);
  const setQa = (patch: Partial<StudioState['qa']>) => setQaOf(store, patch);
  const qa = ['qa'] as const;
  return [
    {
      id: 'view.qa',
      label: 'Question-answer items: write and review',
      shortcut: '5',
      undoable: false,
      enabled: (s) => !!s.document.project,
      run: () => store.setState((s) => ({ session: { ...s.session, view: 'qa' } })),
    },
    {
      id: 'qa.review',
      label: 'Review the items waiting for you, one after another',
      undoable: false,
      views: qa,
      enabled: inQa,
      run: () => {
        if (!startReview(store)) tell('Nothing waits for your review (items you wrote or already reviewed are not in your queue).');
      },
    },
    {
      id: 'qa.write',
      label: 'Back to writing items',
      undoable: false,
      views: qa,
      enabled: inQa,
      run: () => setQa({ mode: 'edit', rejecting: false, editingForReview: false }),
    },
    {
      id: 'qa.accept',
      label: 'Accept the item',
      shortcut: 'A',
      undoable: true,
      views: qa,
      enabled: deciding,
      run: () => inTurn(() => decide({ verdict: 'accept' })),
    },
    {
      id: 'qa.edit',
      label: 'Edit the item, then accept it with the edits',
      shortcut: 'E',
      undoable: false,
      views: qa,
      enabled: choosing,
      run: () => {
        if (awaiting(store.getState())) tell(`The reviews of this item disagree: it is decided, not edited. Press ${ADJUDICATION_KEYS_TEXT}.`);
        else setQa({ editingForReview: true });
      },
    },
    {
      id: 'qa.acceptEdits',
      label: 'Accept the item with your edits',
      shortcut: 'Mod+Enter',
      undoable: true,
      views: qa,
      inFields: true,
      enabled: (s) => reviewing(s) && s.qa.editingForReview,
      run: () => inTurn(() => decide({ verdict: 'edit-accept' })),
    },
    {
      id: 'qa.reject',
      label: 'Reject the item (then the reason key)',
      shortcut: 'R',
      undoable: false,
      views: qa,
      enabled: deciding,
      run: () => setQa({ rejecting: true }),
    },
    {
      id: 'qa.adjudicate.accept',
      label: 'Adjudicate (the reviews disagree): decide to accept the item',
      shortcut: 'A',
      undoable: true,
      views: qa,
      enabled: adjudicating,
      run: () => inTurn(() => adjudicate('accept')),
    },
    {
      id: 'qa.adjudicate.reject',
      label: 'Adjudicate (the reviews disagree): decide to reject the item (then the reason key)',
      shortcut: 'R',
      undoable: false,
      views: qa,
      enabled: adjudicating,
      run: () => setQa({ rejecting: true }),
    },
    ...REJECT_REASONS.map((reason): Command => ({
      id: `qa.reject.${reason}`,
      label: `Reject: ${reason.replace(/-/g, ' ')}`,
      shortcut: REJECT_KEYS[reason],
      undoable: true,
      views: qa,
      enabled: (s) => reviewing(s) && s.qa.rejecting,
      run: () => inTurn(() => (awaiting(store.getState()) ? adjudicate('reject', reason) : decide({ verdict: 'reject', reason }))),
    })),
    // Also from inside a field: Escape leaves the item editor (what was typed is kept) and the keys go back to the queue.
    {
      id: 'qa.cancel',
      label: 'Cancel the rejection or the edit',
      shortcut: 'Escape',
      undoable: false,
      views: qa,
      inFields: true,
      enabled: (s) => reviewing(s) && (s.qa.rejecting || s.qa.editingForReview),
      run: () => setQa({ rejecting: false, editingForReview: false }),
    },
    {
      id: 'qa.comment',
      label: 'Write a comment on the item (recorded with the verdict)',
      shortcut: '/',
      undoable: false,
      views: qa,
      enabled: reviewing,
      run: () => store.setState((s) => ({ ephemeral: { ...s.ephemeral, commentRequest: s.ephemeral.commentRequest + 1 } })),
    },
    {
      id: 'qa.next',
      label: 'Next item',
      shortcut: '.',
      undoable: false,
      views: qa,
      enabled: inQa,
      run: () => {
        if (!stepItem(store, 1)) tell('This is the last item of the list.');
      },
    },
    {
      id: 'qa.previous',
      label: 'Previous item',
      shortcut: ',',
      undoable: false,
      views: qa,
      enabled: inQa,
      run: () => {
        if (!stepItem(store, -1)) tell('This is the first item of the list.');
      },
    },
  ];
}
