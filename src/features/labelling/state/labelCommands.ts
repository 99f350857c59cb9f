import type { Label } from '../../../core/labels.ts';
import { resolveConflict as resolve, setLabel } from '../../../core/labelEdit.ts';
import { existingLabel, type QueueItem } from '../../../core/queue.ts';
import type { Decision } from '../../../core/labelDecision.ts';
import { applyEdit, sceneEdit } from '../../../state/edits.ts';
import { adjudicate, type LabelAdjudication } from '../../../core/labelVotes.ts';
import type { StudioStore } from '../../../state/store.ts';

export const AUTO_APPROVED_NOTE = 'Auto-approved: able-bodied human';

type Segment = { agent: string; from: string; to: string };

export const LABEL_EDITS = {
  traversable: sceneEdit('label.traversable', 'Label traversable', (s, a: Segment & { label: Label }) => setLabel(s, a.agent, a.from, a.to, a.label)),
  blocked: sceneEdit('label.blocked', 'Label not traversable', (s, a: Segment & { label: Label }) => setLabel(s, a.agent, a.from, a.to, a.label)),
  autoApproveHuman: sceneEdit('label.autoApproveHuman', 'Auto-approve human', (s, a: { segments: Segment[]; timestamp: string; annotator?: string }) =>
    a.segments.reduce(
      (acc, i) =>
        setLabel(acc, i.agent, i.from, i.to, {
          traversable: true,
          note: AUTO_APPROVED_NOTE,
          timestamp: a.timestamp,
          source: 'auto-approved',
          ...(a.annotator ? { annotator: a.annotator } : {}),
        }),
      s,
    ),
  ),
  resolveConflict: sceneEdit('label.resolveConflict', 'Resolve direction conflict', (s, a: { agent: string; a: string; b: string; keep: Label }) =>
    resolve(s, a.agent, a.a, a.b, a.keep),
  ),
  adjudicate: sceneEdit('label.adjudicate', 'Decide a disputed label', (s, a: { agent: string; seg: string; decision: LabelAdjudication }) =>
    adjudicate(s, a.agent, a.seg, a.decision),
  ),
} as const;

/**
 * Decide a disputed segment with one annotator's label (or its opposite judgement): the
 * adjudicator is the annotator of this session, who must have given a name. Returns why it was
 * refused, or null.
 */
export function decideDispute(store: StudioStore, sceneId: string, agent: string, seg: string, label: Label): string | null {
  const by = store.getState().session.annotator.trim();
  if (!by) return 'Give your name (the Annotator field) first: a decision carries who made it.';
  const at = new Date().toISOString();
  applyEdit(store, LABEL_EDITS.adjudicate, { sceneId, agent, seg, decision: { label: { ...label, timestamp: label.timestamp ?? at }, by, at } });
  return null;
}

export type { Decision } from '../../../core/labelDecision.ts';

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
  const edit = d.traversable ? LABEL_EDITS.traversable : LABEL_EDITS.blocked;
  applyEdit(store, edit, { sceneId, agent: item.agent, from: item.from, to: item.to, label }, `${edit.label}: ${item.agent} ${item.from} → ${item.to}`);
}

/**
 * Auto-approve the unrestricted human on every still unlabelled segment of a question, as the
 * original tool did (one undo step). Returns how many were labelled.
 */
export function autoApproveHuman(store: StudioStore, sceneId: string, items: readonly QueueItem[], questionIndex: number): number {
  const scene = store.getState().document.project?.scenes.find((s) => s.id === sceneId);
  if (!scene) return 0;
  // Approved in the annotator's name when there is one (a team project's votes are each someone's).
  const annotator = store.getState().session.annotator.trim();
  const todo = items.filter((i) => i.questionIndex === questionIndex && i.agent === 'HUMAN' && !existingLabel(scene, i, annotator));
  if (!todo.length) return 0;
  // A step of its own, named for what it did, so an undo that takes it back says so.
  const what = `${LABEL_EDITS.autoApproveHuman.label}: ${todo.length} segment${todo.length === 1 ? '' : 's'} of question ${questionIndex + 1}`;
  applyEdit(
    store,
    LABEL_EDITS.autoApproveHuman,
    { sceneId, segments: todo.map(({ agent, from, to }) => ({ agent, from, to })), timestamp: new Date().toISOString(), ...(annotator ? { annotator } : {}) },
    what,
  );
  return todo.length;
}

export function resolveDirectionConflict(store: StudioStore, sceneId: string, agent: string, a: string, b: string, keep: Label): void {
  applyEdit(store, LABEL_EDITS.resolveConflict, { sceneId, agent, a, b, keep: { ...keep, timestamp: new Date().toISOString() } });
}
