import type { StudioState, StudioStore } from './store.ts';

/** Change some fields of one part of the state that is not the document (the document changes through edits). */
export const setSession = (store: StudioStore, patch: Partial<StudioState['session']>): void =>
  store.setState((s) => ({ session: { ...s.session, ...patch } }));

export const setEphemeral = (store: StudioStore, patch: Partial<StudioState['ephemeral']>): void =>
  store.setState((s) => ({ ephemeral: { ...s.ephemeral, ...patch } }));

export const setQa = (store: StudioStore, patch: Partial<StudioState['qa']>): void => store.setState((s) => ({ qa: { ...s.qa, ...patch } }));
