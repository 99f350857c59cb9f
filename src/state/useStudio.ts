// The one file that binds the vanilla store to React.
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { StudioState, StudioStore } from './store.ts';

export const StudioContext = createContext<StudioStore | null>(null);

export function useStudioStore(): StudioStore {
  const store = useContext(StudioContext);
  if (!store) throw new Error('StudioContext is missing');
  return store;
}

export function useStudio<T>(selector: (s: StudioState) => T): T {
  return useStore(useStudioStore(), selector);
}

/** For selectors that build a new array or object each call: re-render only when its items change. */
export function useStudioShallow<T>(selector: (s: StudioState) => T): T {
  return useStore(useStudioStore(), useShallow(selector));
}
