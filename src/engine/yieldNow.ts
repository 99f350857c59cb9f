/**
 * Give the page (or a worker's message loop) a turn: a MessageChannel round trip, not
 * `setTimeout(0)`, which browsers clamp to 4 ms once timeouts nest and throttle in hidden tabs.
 */
export function yieldNow(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
