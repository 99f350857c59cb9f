import type { Label } from '../core/labels.ts';
import { resolveConflict as resolve, setLabel } from '../core/labelEdit.ts';
import { existingLabel, type QueueItem } from '../core/queue.ts';
import type { ReasonCategory } from '../core/rules.ts';
import { editScene } from './graphCommands.ts';
import type { StudioStore } from './store.ts';

export const AUTO_APPROVED_NOTE = 'Auto-approved: able-bodied human';

export interface Decision {
  traversable: boolean;
  reason: ReasonCategory | null;
  note: string;
  evidence?: Label['evidence'];
}

/** Record one decision on one queue item (one undo step), with its provenance. */
export function labelItem(store: StudioStore, sceneId: string, questionText: string, item: QueueItem, d: Decision): void {
  const { annotator } = store.getState().session;
  const label: Label = {
    traversable: d.traversable,
    note: d.note,
    timestamp: new Date().toISOString(),
    question: questionText,
    source: 'annotator',
    ...(annotator ? { annotator } : {}),
    ...(!d.traversable && d.reason ? { reason: d.reason } : {}),
    ...(d.evidence ? { evidence: d.evidence } : {}),
  };
  editScene(store, d.traversable ? 'Label traversable' : 'Label not traversable', (s) => setLabel(s, item.agent, item.from, item.to, label), sceneId);
}

/**
 * Auto-approve the unrestricted human on every still unlabelled segment of a question, as the
 * original tool did (one undo step). Returns how many were labelled.
 */
export function autoApproveHuman(store: StudioStore, sceneId: string, items: readonly QueueItem[], questionIndex: number): number {
  const scene = store.getState().document.project?.scenes.find((s) => s.id === sceneId);
  if (!scene) return 0;
  const todo = items.filter((i) => i.questionIndex === questionIndex && i.agent === 'HUMAN' && !existingLabel(scene, i));
  if (!todo.length) return 0;
  const timestamp = new Date().toISOString();
  editScene(store, 'Auto-approve human', (s) => todo.reduce((acc, i) => setLabel(acc, i.agent, i.from, i.to, {
    traversable: true, note: AUTO_APPROVED_NOTE, timestamp, source: 'auto-approved',
  }), s), sceneId);
  return todo.length;
}

export function resolveDirectionConflict(store: StudioStore, sceneId: string, agent: string, a: string, b: string, keep: Label): void {
  editScene(store, 'Resolve direction conflict', (s) => resolve(s, agent, a, b, { ...keep, timestamp: new Date().toISOString() }), sceneId);
}
