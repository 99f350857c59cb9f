import { REASONS, type ReasonCategory } from '../../../core/rules.ts';
import type { Command } from '../../../state/commands.ts';
import { itemKey, nextUnlabelled, type QueueItem } from '../../../core/queue.ts';
import { selectedScene, toggleHallucinated } from '../../../state/commands.ts';
import { leaveItem } from '../../../state/itemState.ts';
import { currentItem, sceneQueue } from './queueSelectors.ts';
import type { StudioState, StudioStore } from '../../../state/store.ts';

const labelling = (s: StudioState) => sceneQueue(s).length > 0;

/**
 * Move the queue cursor; the selected question and agent follow it, and so does the slice (back to
 * the segment's floor). When the item changes, what belonged to the old one — its drive, draft and
 * notice — is left behind in the same update. `before`: the item shown before the change (given
 * when the queue itself just changed under the cursor).
 */
export function moveCursor(store: StudioStore, to: number, before: QueueItem | undefined = currentItem(store.getState())): void {
  const s = store.getState();
  const items = sceneQueue(s);
  if (!items.length) return;
  const cursor = Math.max(0, Math.min(items.length - 1, to));
  const item = items[cursor]!;
  const moved = !before || itemKey(before) !== itemKey(item);
  const staleDrive = s.ephemeral.drive !== null && s.ephemeral.drive.itemKey !== itemKey(item);
  store.setState((st) => {
    const left = moved || staleDrive ? leaveItem(st) : st;
    return {
      session: { ...(moved ? left.session : st.session), queueCursor: cursor, questionIndex: item.questionIndex, agent: item.agent, sliceFollowsItem: true },
      ephemeral: moved || staleDrive ? left.ephemeral : st.ephemeral,
    };
  });
}

/** Go to the next item without a label (wrapping); stays put when everything is labelled. */
export function toNextUnlabelled(store: StudioStore): boolean {
  const s = store.getState();
  const scene = selectedScene(s);
  if (!scene) return false;
  const next = nextUnlabelled(scene, sceneQueue(s), s.session.queueCursor, s.session.annotator);
  if (next < 0) return false;
  moveCursor(store, next);
  return true;
}

const tell = (store: StudioStore, notice: string) => store.setState((s) => ({ ephemeral: { ...s.ephemeral, notice } }));

/**
 * The queue's next (or previous) question, for the same agent, from its first segment. Questions
 * that are not in the queue (hallucinated, unresolved) are skipped. Stays at the ends.
 */
export function stepQueueQuestion(store: StudioStore, delta: 1 | -1): boolean {
  const s = store.getState();
  const items = sceneQueue(s),
    item = currentItem(s);
  if (!item) return false;
  const questions = [...new Set(items.map((i) => i.questionIndex))];
  const next = questions[questions.indexOf(item.questionIndex) + delta];
  if (next === undefined) {
    tell(store, delta > 0 ? 'This is the last question of the queue.' : 'This is the first question of the queue.');
    return false;
  }
  const sameAgent = items.findIndex((i) => i.questionIndex === next && i.agent === item.agent);
  moveCursor(store, sameAgent >= 0 ? sameAgent : items.findIndex((i) => i.questionIndex === next));
  return true;
}

/** The same question and segment for the queue's next agent (wrapping through the agents). */
export function switchQueueAgent(store: StudioStore): boolean {
  const s = store.getState();
  const items = sceneQueue(s),
    item = currentItem(s);
  if (!item) return false;
  const agents = [...new Set(items.filter((i) => i.questionIndex === item.questionIndex).map((i) => i.agent))];
  if (agents.length < 2) return false;
  const agent = agents[(agents.indexOf(item.agent) + 1) % agents.length]!;
  const same = items.findIndex((i) => i.questionIndex === item.questionIndex && i.agent === agent && i.from === item.from && i.to === item.to);
  moveCursor(store, same >= 0 ? same : items.findIndex((i) => i.questionIndex === item.questionIndex && i.agent === agent));
  return true;
}

const REASON_KEYS: Record<ReasonCategory, string> = { stairs: 'S', step: 'P', narrow: 'W', turning: 'R', door: 'D', lift: 'E', other: 'Q' };

/** Choose (or, pressed again, clear) the reason of the draft: the annotator's own choice. */
export function toggleDraftReason(store: StudioStore, reason: ReasonCategory): void {
  store.setState((s) => ({
    session: { ...s.session, labelDraft: { ...s.session.labelDraft, reason: s.session.labelDraft.reason === reason ? null : reason, by: 'annotator' } },
  }));
}

export const queueCommands: Command[] = [
  {
    id: 'view.label',
    label: 'Label traversability (the queue)',
    shortcut: '3',
    undoable: false,
    enabled: (s) => !!s.document.project?.scenes.length,
    run: (st) => {
      st.setState((s) => ({ session: { ...s.session, view: 'label', sceneId: s.session.sceneId ?? s.document.project!.scenes[0]!.id } }));
      moveCursor(st, st.getState().session.queueCursor);
    },
  },
  {
    id: 'queue.next',
    label: 'Next segment',
    shortcut: '.',
    undoable: false,
    views: ['label'],
    enabled: labelling,
    run: (st) => moveCursor(st, st.getState().session.queueCursor + 1),
  },
  {
    id: 'queue.previous',
    label: 'Previous segment',
    shortcut: ',',
    undoable: false,
    views: ['label'],
    enabled: labelling,
    run: (st) => moveCursor(st, st.getState().session.queueCursor - 1),
  },
  {
    id: 'queue.first',
    label: 'First segment of the queue',
    shortcut: 'Home',
    undoable: false,
    views: ['label'],
    enabled: labelling,
    run: (st) => moveCursor(st, 0),
  },
  {
    id: 'queue.nextUnlabelled',
    label: 'Next unlabelled segment',
    shortcut: 'U',
    undoable: false,
    views: ['label'],
    enabled: labelling,
    run: (st) => void toNextUnlabelled(st),
  },
  {
    id: 'queue.nextQuestion',
    label: 'Next question of the queue (same agent)',
    shortcut: ']',
    undoable: false,
    views: ['label'],
    enabled: labelling,
    run: (st) => void stepQueueQuestion(st, 1),
  },
  {
    id: 'queue.previousQuestion',
    label: 'Previous question of the queue (same agent)',
    shortcut: '[',
    undoable: false,
    views: ['label'],
    enabled: labelling,
    run: (st) => void stepQueueQuestion(st, -1),
  },
  {
    id: 'queue.nextAgent',
    label: 'Next agent on this segment',
    shortcut: 'A',
    undoable: false,
    views: ['label'],
    enabled: labelling,
    run: (st) => void switchQueueAgent(st),
  },
  {
    id: 'queue.toggleHallucinated',
    label: 'Mark the question hallucinated / not (it leaves the queue)',
    shortcut: 'H',
    undoable: true,
    views: ['label'],
    enabled: (s) => !!currentItem(s),
    run: (st) => {
      const s = st.getState(),
        before = currentItem(s)!;
      toggleHallucinated(st, s.session.sceneId!, before.questionIndex);
      // The queue changed under the cursor: it now shows another item (or the same one, after undo).
      moveCursor(st, st.getState().session.queueCursor, before);
    },
  },
  {
    id: 'label.note',
    label: 'Write a note for this segment',
    shortcut: '/',
    undoable: false,
    views: ['label'],
    enabled: labelling,
    run: (st) => st.setState((s) => ({ ephemeral: { ...s.ephemeral, noteRequest: s.ephemeral.noteRequest + 1 } })),
  },
  ...REASONS.map((reason): Command => ({
    id: `label.reason.${reason}`,
    label: `Reason: ${reason}`,
    shortcut: REASON_KEYS[reason],
    undoable: false,
    views: ['label'],
    enabled: (s) => labelling(s) && !!currentItem(s),
    run: (st) => toggleDraftReason(st, reason),
  })),
];

export { REASON_KEYS };
