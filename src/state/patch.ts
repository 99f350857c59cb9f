import type { StudioState, StudioStore } from './store.ts';

/** The parts of the state changed field by field (the document changes through edits; the undo history through history.ts). */
type Patchable = {
  [K in Exclude<keyof StudioState, 'document' | 'history'>]: StudioState[K] extends object | null ? (null extends StudioState[K] ? never : K) : never;
}[Exclude<keyof StudioState, 'document' | 'history'>];

/** Change some fields of one part of the state: `patchState(store, 'tour', { phase: 'idle' })`. */
export function patchState<K extends Patchable>(store: StudioStore, key: K, patch: Partial<StudioState[K]>): void {
  store.setState((s) => ({ [key]: { ...s[key], ...patch } }) as Partial<StudioState>);
}

export const setSession = (store: StudioStore, patch: Partial<StudioState['session']>): void => patchState(store, 'session', patch);
export const setEphemeral = (store: StudioStore, patch: Partial<StudioState['ephemeral']>): void => patchState(store, 'ephemeral', patch);
export const setQa = (store: StudioStore, patch: Partial<StudioState['qa']>): void => patchState(store, 'qa', patch);
