/**
 * Work written as a generator of steps (`yield` between steps) can run at once, here, or in slices
 * on a page (persistence/sliced.ts) — the same code either way.
 */
export function completed<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
