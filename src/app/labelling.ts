import { existingLabel, itemKey } from '../core/queue.ts';
import { REASON_LABEL } from '../core/rules.ts';
import { selectedScene, type Command } from '../state/commands.ts';
import { autoApproveHuman, labelItem, type Decision } from '../state/labelCommands.ts';
import { leaveItem } from '../state/itemState.ts';
import { toNextUnlabelled } from '../state/queueCommands.ts';
import { currentItem, sceneQueue } from '../state/queueSelectors.ts';
import type { DriveView, StudioState, StudioStore } from '../state/store.ts';
import { suggestionFor, suggestionsStale } from '../state/suggestionSelectors.ts';
import { DRIVE_KEYS } from '../viewport/movementKeys.ts';
import type { DriveController } from './drive.ts';

/**
 * The labelling decisions, at the edge of the app because each one is stored durably before the
 * queue moves on: decide → one undo step → wait for the write → next unlabelled segment.
 */
export function labellingCommands(store: StudioStore, flush: () => Promise<void>, tell: (message: string) => void, drive: DriveController): Command[] {
  async function decide(traversable: boolean | 'suggestion'): Promise<void> {
    const s = store.getState();
    const scene = selectedScene(s), item = currentItem(s);
    if (!scene || !item) return;
    // Only suggestions that still describe the scene are offered or kept as evidence.
    const sug = suggestionFor(s, scene.id, item);
    if (traversable === 'suggestion' && !sug) {
      const stale = suggestionsStale(s, scene.id);
      tell(stale ? `The suggestions are out of date: ${stale}. Recompute them (Suggest labels), or press Y / X.` : 'No suggestion for this segment: compute suggestions (needs the scan), or press Y / X.');
      return;
    }
    const t = traversable === 'suggestion' ? sug!.traversable : traversable;
    const draft = s.session.labelDraft;
    const reason = t ? null : draft.reason ?? (sug && !sug.traversable ? sug.reason : null);
    const note = draft.note.trim() || (traversable === 'suggestion' || (sug && sug.traversable === t && sug.reason === reason) ? sug!.note : '') || (reason ? REASON_LABEL[reason] : '');
    if (!t && !note) { tell('Say why it is not traversable: a reason key (S P W R D E Q) or a note (/).'); return; }
    const drive = s.ephemeral.drive?.itemKey === itemKey(item) ? s.ephemeral.drive : null;
    const evidence: NonNullable<Decision['evidence']> = {
      ...(sug ? { suggestion: { traversable: sug.traversable, reason: sug.reason, note: sug.note } } : {}),
      ...(sug || drive ? { measured: { ...(sug ? numbers(sug.measured) : {}), ...prefixed('drive', drive?.measured ?? {}) } } : {}),
      ...(drive ? { trajectory: drive.trajectory } : {}),
      ...(stopOf(drive) ? { contact: stopOf(drive)! } : {}),
    };
    const decision: Decision = { traversable: t, reason, note, ...(Object.keys(evidence).length ? { evidence } : {}) };
    labelItem(store, scene.id, scene.questions[item.questionIndex]!.text, item, decision);
    // The decision used the drive and the draft: they go with it.
    store.setState(leaveItem);
    await flush();
    if (store.getState().storage.status === 'error') { tell('The label could not be saved; the queue stays here. See the message at the top.'); return; }
    // Told after the queue has moved (moving clears the old item's notice), so it stays in view.
    const saved = `Saved: ${item.agent} ${item.from} → ${item.to} ${t ? 'traversable' : `not traversable (${note})`}.`;
    tell(toNextUnlabelled(store) ? saved : `${saved} Every segment of this scene is labelled for every agent.`);
  }

  const active = (s: StudioState) => !!currentItem(s);
  const label = ['label'] as const;
  return [
    { id: 'label.traversable', label: 'Label the segment traversable', shortcut: 'Y', undoable: true, views: label, enabled: active, run: () => void decide(true) },
    { id: 'label.blocked', label: 'Label the segment not traversable (with the chosen reason)', shortcut: 'X', undoable: true, views: label, enabled: active, run: () => void decide(false) },
    { id: 'label.accept', label: 'Accept the suggestion', shortcut: 'Enter', undoable: true, views: label, enabled: active, run: () => void decide('suggestion') },
    { id: 'drive.auto', label: 'Drive the agent to the next node: the planner finds a motion, or measures what stops it', shortcut: 'G', undoable: false, views: label, enabled: active, run: () => void drive.auto() },
    { id: 'drive.replay', label: 'Play the planned motion again', shortcut: 'Shift+G', undoable: false, views: label, enabled: (s) => active(s) && s.ephemeral.drive?.source === 'planner', run: () => drive.replay() },
    { id: 'drive.spawn', label: 'Place the agent at the segment start (then drive with the arrow keys)', shortcut: 'B', undoable: false, views: label, enabled: active, run: () => drive.spawn() },
  ];
}

/** While labelling, the unrestricted human is approved on each question the queue reaches (a setting). */
export function followAutoApprove(store: StudioStore): () => void {
  return store.subscribe((s, prev) => {
    if (s.session.view !== 'label' || !s.session.autoApproveHuman) return;
    if (s.session.questionIndex === prev.session.questionIndex && s.session.view === prev.session.view && s.session.autoApproveHuman === prev.session.autoApproveHuman) return;
    const scene = selectedScene(s), item = currentItem(s);
    if (!scene || !item) return;
    if (autoApproveHuman(store, scene.id, sceneQueue(s), item.questionIndex) && item.agent === 'HUMAN' && existingLabel(store.getState().document.project!.scenes.find((x) => x.id === scene.id)!, item)) {
      toNextUnlabelled(store);
    }
  });
}

const numbers = (m: Record<string, number | number[]>) => Object.fromEntries(Object.entries(m).filter((e): e is [string, number] => typeof e[1] === 'number'));

const prefixed = (p: string, m: Record<string, number>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [`${p}.${k}`, v]));

/**
 * Arrow keys drive a placed agent (before any camera takes them): ↑/↓ 5 cm, ←/→ 5° (DRIVE_KEYS,
 * which the shortcuts list shows). Not while the shortcuts list is open: it is in front of the app.
 */
export function driveKeys(store: StudioStore, drive: DriveController): () => void {
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
function stopOf(drive: DriveView | null): NonNullable<NonNullable<Decision['evidence']>['contact']> | null {
  if (!drive || drive.reached) return null;
  if (drive.contact) return drive.contact;
  return drive.stoppedAt ? { kind: drive.reason ?? 'other', message: drive.note, point: drive.stoppedAt } : null;
}
