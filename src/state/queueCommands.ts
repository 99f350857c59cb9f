import { REASONS, type ReasonCategory } from '../core/rules.ts';
import type { Command } from './commands.ts';
import { nextUnlabelled } from '../core/queue.ts';
import { selectedScene } from './commands.ts';
import { currentItem, sceneQueue } from './queueSelectors.ts';
import type { StudioState, StudioStore } from './store.ts';

const labelling = (s: StudioState) => s.session.view === 'label' && sceneQueue(s).length > 0;

/** Move the queue cursor; the selected question and agent follow it. */
export function moveCursor(store: StudioStore, to: number): void {
  const s = store.getState();
  const items = sceneQueue(s);
  if (!items.length) return;
  const cursor = Math.max(0, Math.min(items.length - 1, to));
  const item = items[cursor]!;
  store.setState((st) => ({
    session: { ...st.session, queueCursor: cursor, questionIndex: item.questionIndex, agent: item.agent, labelDraft: { reason: null, note: '' } },
  }));
}

/** Go to the next item without a label (wrapping); stays put when everything is labelled. */
export function toNextUnlabelled(store: StudioStore): boolean {
  const s = store.getState();
  const scene = selectedScene(s);
  if (!scene) return false;
  const next = nextUnlabelled(scene, sceneQueue(s), s.session.queueCursor);
  if (next < 0) return false;
  moveCursor(store, next);
  return true;
}

const REASON_KEYS: Record<ReasonCategory, string> = { stairs: 'S', step: 'P', narrow: 'W', turning: 'R', door: 'D', lift: 'E', other: 'Q' };

export const queueCommands: Command[] = [
  { id: 'view.label', label: 'Label traversability (the queue)', shortcut: '3', undoable: false, enabled: (s) => !!s.document.project?.scenes.length,
    run: (st) => {
      st.setState((s) => ({ session: { ...s.session, view: 'label', sceneId: s.session.sceneId ?? s.document.project!.scenes[0]!.id } }));
      moveCursor(st, st.getState().session.queueCursor);
    } },
  { id: 'queue.next', label: 'Next segment', shortcut: '.', undoable: false, enabled: labelling, run: (st) => moveCursor(st, st.getState().session.queueCursor + 1) },
  { id: 'queue.previous', label: 'Previous segment', shortcut: ',', undoable: false, enabled: labelling, run: (st) => moveCursor(st, st.getState().session.queueCursor - 1) },
  { id: 'queue.first', label: 'First segment of the queue', shortcut: 'Home', undoable: false, enabled: labelling, run: (st) => moveCursor(st, 0) },
  { id: 'queue.nextUnlabelled', label: 'Next unlabelled segment', shortcut: 'U', undoable: false, enabled: labelling, run: (st) => void toNextUnlabelled(st) },
  { id: 'label.note', label: 'Write a note for this segment', shortcut: '/', undoable: false, enabled: labelling,
    run: (st) => st.setState((s) => ({ ephemeral: { ...s.ephemeral, noteRequest: s.ephemeral.noteRequest + 1 } })) },
  ...REASONS.map((reason): Command => ({
    id: `label.reason.${reason}`, label: `Reason: ${reason}`, shortcut: REASON_KEYS[reason], undoable: false,
    enabled: (s) => labelling(s) && !!currentItem(s),
    run: (st) => st.setState((s) => ({ session: { ...s.session, labelDraft: { ...s.session.labelDraft, reason: s.session.labelDraft.reason === reason ? null : reason } } })),
  })),
];

export { REASON_KEYS };
