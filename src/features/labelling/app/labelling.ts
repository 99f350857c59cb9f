import type { Label } from '../../../core/labels.ts';
import { existingLabel, itemKey } from '../../../core/queue.ts';
import { labelDecision, type Decision } from '../../../core/labelDecision.ts';
import { selectedScene, type Command } from '../../../state/commands.ts';
import { autoApproveHuman, LABEL_EDITS, labelItem } from '../state/labelCommands.ts';
import { leaveItem } from '../../../state/itemState.ts';
import { moveCursor, toNextUnlabelled } from '../state/queueCommands.ts';
import { currentItem, sceneQueue } from '../state/queueSelectors.ts';
import type { DriveView, StudioState, StudioStore } from '../../../state/store.ts';
import { suggestionFor, suggestionsStale } from '../../suggestions/state/suggestionSelectors.ts';
import { DRIVE_KEYS } from '../../../viewport/movementKeys.ts';
import type { DriveController } from '../../drive/app/drive.ts';
import { oneAtATime, recordThenAdvance } from '../../../services/durableDecision.ts';

/**
 * The labelling decisions, at the edge of the app because each one is stored durably before the
 * queue moves on: decide → one undo step → wait for the write → next unlabelled segment.
 */
/** What the labelling keys ask of the drive (DriveController). */
export type DriveActions = Pick<DriveController, 'auto' | 'spawn' | 'replay' | 'step'>;

export function labellingCommands(store: StudioStore, flush: () => Promise<void>, told: (message: string) => void, drive: DriveActions): Command[] {
  // A key pressed while the last label is being stored waits its turn (durableDecision.ts).
  const { tell, run: inTurn } = oneAtATime(told);
  async function decide(pressed: boolean | 'suggestion'): Promise<boolean> {
    const s = store.getState();
    const scene = selectedScene(s),
      item = currentItem(s);
    if (!scene || !item) return false;
    // Only suggestions that still describe the scene are offered or kept as evidence.
    const sug = suggestionFor(s, scene.id, item);
    if (pressed === 'suggestion' && !sug) {
      const stale = suggestionsStale(s, scene.id);
      tell(
        stale
          ? `The suggestions are out of date: ${stale}. Recompute them (Suggest labels), or press Y / X.`
          : 'No suggestion for this segment: compute suggestions (needs the scan), or press Y / X.',
      );
      return false;
    }
    // Every label carries who made it: a name first (a synced project's is the signed-in user's).
    if (!s.session.annotator.trim()) {
      tell('Give your name first (Annotator, above the queue): every label carries who made it.');
      if (typeof document !== 'undefined') document.querySelector<HTMLInputElement>('[data-testid=annotator]')?.focus();
      return false;
    }
    const drive = s.ephemeral.drive?.itemKey === itemKey(item) ? s.ephemeral.drive : null;
    const made = labelDecision({
      pressed,
      draft: s.session.labelDraft,
      ...(sug ? { suggestion: sug } : {}),
      ...(drive ? { drive: { reached: drive.reached, measured: drive.measured, trajectory: drive.trajectory, stop: stopOf(drive) } } : {}),
    });
    if ('missing' in made) {
      tell(made.missing);
      return false;
    }
    const d = made.decision;
    const before = existingLabel(scene, item, s.session.annotator);
    return recordThenAdvance(store, flush, tell, {
      record: () => {
        labelItem(store, scene.id, scene.questions[item.questionIndex]!.text, item, d);
        // The decision used the drive and the draft: they go with it.
        store.setState(leaveItem);
        return null;
      },
      unsaved: 'The label could not be saved; the queue stays here. See the message at the top.',
      advance: () => {
        const saved = `Saved: ${item.agent} ${item.from} → ${item.to} ${d.traversable ? 'traversable' : `not traversable (${d.note})`}.`;
        // Told after the queue has moved (moving clears the old item's notice), so it stays in view.
        const steps = store.getState().history.past.length;
        if (toNextUnlabelled(store)) return [saved, before ? changeText(before, d) : '', autoApproved(store, steps)].filter(Boolean).join(' ');
        // Everything is labelled: review mode walks the labelled segments one by one, so the next
        // decision lands on the next segment, never again on this one.
        return `${saved} ${before ? changeText(before, d) : ''} ${reviewStep(store)}`.replace(/\s+/g, ' ').trim();
      },
    });
  }

  const active = (s: StudioState) => !!currentItem(s);
  const label = ['label'] as const;
  return [
    {
      id: 'label.traversable',
      label: 'Label the segment traversable',
      shortcut: 'Y',
      undoable: true,
      views: label,
      enabled: active,
      run: () => inTurn(() => decide(true)),
    },
    {
      id: 'label.blocked',
      label: 'Label the segment not traversable (with the chosen reason)',
      shortcut: 'X',
      undoable: true,
      views: label,
      enabled: active,
      run: () => inTurn(() => decide(false)),
    },
    {
      id: 'label.accept',
      label: 'Accept the suggestion',
      shortcut: 'Enter',
      undoable: true,
      views: label,
      enabled: active,
      run: () => inTurn(() => decide('suggestion')),
    },
    {
      id: 'drive.auto',
      label: 'Drive the agent to the next node: the planner finds a motion, or measures what stops it',
      shortcut: 'G',
      undoable: false,
      views: label,
      enabled: active,
      run: () => void drive.auto(),
    },
    {
      id: 'drive.replay',
      label: 'Play the planned motion again',
      shortcut: 'Shift+G',
      undoable: false,
      views: label,
      enabled: (s) => active(s) && s.ephemeral.drive?.source === 'planner',
      run: () => drive.replay(),
    },
    {
      id: 'drive.spawn',
      label: 'Place the agent at the segment start (then drive with the arrow keys)',
      shortcut: 'B',
      undoable: false,
      views: label,
      enabled: active,
      run: () => drive.spawn(),
    },
  ];
}

/** Moving on reached a question whose human segments were auto-approved: say so (it is its own undo step). */
function autoApproved(store: StudioStore, stepsBefore: number): string {
  const past = store.getState().history.past;
  const step = past.length > stepsBefore ? past[past.length - 1] : undefined;
  const name = LABEL_EDITS.autoApproveHuman.label;
  return step?.label.startsWith(`${name}:`)
    ? `${step.label.replace(name, 'Then auto-approved HUMAN on')} (a separate undo step: Ctrl+Z takes it back first).`
    : '';
}

/** What a decision on an already labelled segment changed. */
function changeText(before: Label, d: Decision): string {
  const was = `${before.traversable ? 'traversable' : 'not traversable'}${before.note ? ` (${before.note})` : ''}`;
  if (before.traversable === d.traversable && before.note === d.note) return `Unchanged: it was ${was} already.`;
  return before.traversable === d.traversable ? `Note changed: it was ${was}.` : `Changed: it was ${was}.`;
}

/** Review mode (every segment labelled): on to the next segment of the queue, and where that is. */
function reviewStep(store: StudioStore): string {
  const s = store.getState();
  const total = sceneQueue(s).length,
    at = s.session.queueCursor;
  if (at >= total - 1) return `Review: every segment is labelled, and that was the last of the queue (${total} of ${total}); Home goes back to the first.`;
  moveCursor(store, at + 1);
  return `Review: every segment is labelled; on to segment ${at + 2} of ${total}.`;
}

/** In the label view, another scene (J / K) brings its queue's first segment: question, agent and slice follow it. */
export function followSceneInQueue(store: StudioStore): () => void {
  return store.subscribe((s, prev) => {
    if (s.session.view === 'label' && prev.session.view === 'label' && s.session.sceneId !== prev.session.sceneId) moveCursor(store, 0, undefined);
  });
}

/** While labelling, the unrestricted human is approved on each question the queue reaches (a setting). */
export function followAutoApprove(store: StudioStore): () => void {
  return store.subscribe((s, prev) => {
    if (s.session.view !== 'label' || !s.session.autoApproveHuman) return;
    if (
      s.session.questionIndex === prev.session.questionIndex &&
      s.session.view === prev.session.view &&
      s.session.autoApproveHuman === prev.session.autoApproveHuman
    )
      return;
    const scene = selectedScene(s),
      item = currentItem(s);
    if (!scene || !item) return;
    const n = autoApproveHuman(store, scene.id, sceneQueue(s), item.questionIndex);
    if (!n) return;
    if (
      item.agent === 'HUMAN' &&
      existingLabel(
        store.getState().document.project!.scenes.find((x) => x.id === scene.id)!,
        item,
        store.getState().session.annotator,
      )
    ) {
      toNextUnlabelled(store);
    }
    // Visible, and its own undo step: Ctrl+Z takes back the approval (and says so), not the annotator's label.
    store.setState((st) => ({
      ephemeral: {
        ...st.ephemeral,
        notice: `Auto-approved HUMAN on ${n} segment${n === 1 ? '' : 's'} of question ${item.questionIndex + 1} (the able-bodied human; a separate undo step — Ctrl+Z takes it back).`,
      },
    }));
  });
}

/**
 * Arrow keys drive a placed agent (before any camera takes them): ↑/↓ 5 cm, ←/→ 5° (DRIVE_KEYS,
 * which the shortcuts list shows). Not while the shortcuts list is open: it is in front of the app.
 */
export function driveKeys(store: StudioStore, drive: DriveActions): () => void {
  const onKey = (e: KeyboardEvent) => {
    const s = store.getState();
    if (!s.ephemeral.drive || s.session.view !== 'label' || s.ephemeral.helpOpen) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
    const m = DRIVE_KEYS[e.key];
    if (!m) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    drive.step(m.forwardM, m.turnRad);
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}

/** What stopped a drive, as evidence: the collider's contact when driven by hand, the planner's measured stop otherwise. */
function stopOf(drive: DriveView): NonNullable<NonNullable<Decision['evidence']>['contact']> | null {
  if (drive.reached) return null;
  if (drive.contact) return drive.contact;
  return drive.stoppedAt ? { kind: drive.reason ?? 'other', message: drive.note, point: drive.stoppedAt } : null;
}
