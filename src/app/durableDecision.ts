import type { StudioStore } from '../state/store.ts';

/**
 * A decision that must be stored before the queue moves on — a traversability label, a review
 * verdict: record it (one undo step), wait for the write, and only when it was stored move on. A
 * refused decision says why; a failed write keeps the queue where it is and says so, so the
 * annotator never leaves an item whose decision was lost.
 */
export interface DurableStep {
  /** Record the decision; returns why it cannot be recorded, or null. */
  record: () => string | null;
  /** What to tell when the write failed. */
  unsaved: string;
  /** Move on (the decision is stored); returns what to tell. */
  advance: () => string;
}

export async function recordThenAdvance(store: StudioStore, flush: () => Promise<void>, tell: (message: string) => void, step: DurableStep): Promise<boolean> {
  const refused = step.record();
  if (refused) { tell(refused); return false; }
  await flush();
  if (store.getState().storage.status === 'error') { tell(step.unsaved); return false; }
  tell(step.advance());
  return true;
}
