import { yieldNow } from '../engine/yieldNow.ts';

/**
 * Run a generator of steps to its end in slices of about `budgetMs` of main-thread time, letting
 * the page paint and answer input between them (a 1,000-scene project is assembled this way).
 */
export async function sliced<T>(steps: Generator<void, T, void>, budgetMs = 12): Promise<T> {
  let t0 = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - t0 > budgetMs) {
      await yieldNow();
      t0 = performance.now();
    }
  }
}
