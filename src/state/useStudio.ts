// The one file that binds the vanilla store to React.
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
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
