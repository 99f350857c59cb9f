import type { Label } from './labels.ts';
import { REASON_LABEL, type ReasonCategory } from './rules.ts';

/**
 * What a label decision records, from what the annotator pressed and what they were shown: the
 * verdict, the reason and note (the draft first, else the suggestion's when the annotator agrees
 * with it, else the reason's name), and the evidence the decision rested on — the suggestion
 * shown, the measurements (the drive's prefixed `drive.`), the driven trajectory and what stopped it.
 */
export interface Decision {
  traversable: boolean;
  reason: ReasonCategory | null;
  note: string;
  evidence?: Label['evidence'];
}

export interface DecisionInput {
  /** Y, X, or Enter (take the suggestion). */
  pressed: boolean | 'suggestion';
  /** The reason and note the annotator (or a drive) drafted. */
  draft: { reason: ReasonCategory | null; note: string };
  /** The suggestion shown for the segment, when there is a current one. */
  suggestion?: { traversable: boolean; reason: ReasonCategory | null; note: string; measured: Record<string, number | number[]> };
  /** The drive of the segment, when there is one. */
  drive?: {
    reached: boolean;
    measured: Record<string, number>;
    trajectory: [number, number, number][];
    /** What stopped it: the collider's contact (by hand), or the planner's measured stop. */
    stop: { kind: string; message: string; point: [number, number, number]; heightM?: number } | null;
  };
}

/** The decision, or why none can be made yet (what the annotator must still say). */
export function labelDecision(input: DecisionInput): { decision: Decision } | { missing: string } {
  const { pressed, draft, suggestion: sug, drive } = input;
  if (pressed === 'suggestion' && !sug) return { missing: 'No suggestion for this segment.' };
  const traversable = pressed === 'suggestion' ? sug!.traversable : pressed;
  const reason = traversable ? null : (draft.reason ?? (sug && !sug.traversable ? sug.reason : null));
  // The suggestion's words are kept when the annotator takes it, or decides as it does.
  const agrees = pressed === 'suggestion' || (sug !== undefined && sug.traversable === traversable && sug.reason === reason);
  const note = draft.note.trim() || (agrees ? sug!.note : '') || (reason ? REASON_LABEL[reason] : '');
  if (!traversable && !note) return { missing: 'Say why it is not traversable: a reason key (S P W R D E Q) or a note (/).' };
  const stop = drive && !drive.reached ? drive.stop : null;
  const evidence: NonNullable<Decision['evidence']> = {
    ...(sug ? { suggestion: { traversable: sug.traversable, reason: sug.reason, note: sug.note } } : {}),
    ...(sug || drive ? { measured: { ...(sug ? numbers(sug.measured) : {}), ...prefixed('drive', drive?.measured ?? {}) } } : {}),
    ...(drive ? { trajectory: drive.trajectory } : {}),
    ...(stop ? { contact: stop } : {}),
  };
  return { decision: { traversable, reason, note, ...(Object.keys(evidence).length ? { evidence } : {}) } };
}

const numbers = (m: Record<string, number | number[]>) => Object.fromEntries(Object.entries(m).filter((e): e is [string, number] => typeof e[1] === 'number'));
const prefixed = (p: string, m: Record<string, number>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [`${p}.${k}`, v]));
