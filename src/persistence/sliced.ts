/**
 * A new task, soon: a message to ourselves (setTimeout(0) is held back ≥ 4 ms once nested, which
 * adds a quarter to a sliced run; a message is not).
 */
export function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(null);
  });
}

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
      await nextTask();
      t0 = performance.now();
    }
  }
}
