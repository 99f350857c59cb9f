import type { LabelDraft, StudioStore } from '../../../state/store.ts';
import { setSession } from '../../../state/patch.ts';

/** The annotator writes the current item's reason or note: marked theirs (`by`), so undo keeps it, unlike a draft a drive proposed. */
export const editDraft = (store: StudioStore, patch: Partial<LabelDraft>): void =>
  store.setState((s) => ({ session: { ...s.session, labelDraft: { ...s.session.labelDraft, ...patch, by: 'annotator' } } }));

export const setAutoApproveHuman = (store: StudioStore, autoApproveHuman: boolean): void => setSession(store, { autoApproveHuman });
