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
  if (refused) {
    tell(refused);
    return false;
  }
  await flush();
  if (store.getState().storage.status === 'error') {
    tell(step.unsaved);
    return false;
  }
  tell(step.advance());
  return true;
}

/**
 * Decisions taken one at a time, in the order their keys were pressed. A key pressed while the last
 * decision is still being stored waits its turn and applies to the item the queue has moved on to:
 * it never lands on the same item again, nor makes the queue skip one (50 quick presses of Y once
 * stored 2 labels and skipped the rest without a word). When a decision is not taken (refused, or
 * not stored), the presses waiting behind it are not applied, and the notice says how many.
 */
export function oneAtATime(tell: (message: string) => void): { tell: (message: string) => void; run: (decide: () => Promise<boolean>) => void } {
  let chain: Promise<void> = Promise.resolve();
  let waiting = 0,
    dropped = 0,
    stopped = false,
    last = '';
  return {
    tell: (message) => {
      last = message;
      tell(message);
    },
    run: (decide) => {
      waiting++;
      chain = chain.then(async () => {
        waiting--;
        if (stopped) dropped++;
        else if (!(await decide().catch(() => false)) && waiting > 0) stopped = true;
        if (waiting > 0 || !stopped) return;
        if (dropped) tell(`${last} (${dropped} more key press${dropped === 1 ? ' was' : 'es were'} not applied.)`.trim());
        stopped = false;
        dropped = 0;
      });
    },
  };
}
