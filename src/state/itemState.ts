import { EMPTY_DRAFT, type LabelDraft, type StudioState } from './store.ts';

/**
 * What belongs to the current queue item only: the drive (footprint, trajectory, readouts), the
 * label draft and the notice. They are left behind in the state layer — by the commands that move
 * the queue and by undo/redo — never by the views, so no panel can show a drive of another item.
 */

/** A draft a drive proposed (it goes with the drive), as opposed to one the annotator wrote. */
export const draftFromDrive = (d: LabelDraft): boolean => d.by !== 'annotator' && (d.reason !== null || d.note !== '');

/** The queue moved to another item: its drive, draft and notice go. */
export function leaveItem(s: StudioState): Pick<StudioState, 'session' | 'ephemeral'> {
  return { session: { ...s.session, labelDraft: EMPTY_DRAFT }, ephemeral: { ...s.ephemeral, drive: null, notice: null } };
}

/**
 * Undo or redo changed the document under the item: the drive (measured on the document as it was)
 * and its notice go, and the draft too when the drive proposed it; a draft the annotator wrote stays.
 */
export function leaveHistoryStep(s: StudioState): Pick<StudioState, 'session' | 'ephemeral'> {
  return {
    session: draftFromDrive(s.session.labelDraft) ? { ...s.session, labelDraft: EMPTY_DRAFT } : s.session,
    ephemeral: { ...s.ephemeral, drive: null, notice: null },
  };
}
