// Computes the suggestions of a scene off the page's thread: the navmeshes and edge probes of
// engine/suggest on a copy of the scan (BVH included) sent by app/suggestions.ts.
import { suggestScene } from '../engine/suggest/suggest.ts';
import { unpackGeometry } from '../engine/suggest/transfer.ts';
import type { SuggestRequest, SuggestReply } from '../engine/suggest/workerMessages.ts';

const running = new Map<number, AbortController>();
const reply = (m: SuggestReply) => (self as unknown as { postMessage: (m: SuggestReply) => void }).postMessage(m);

self.addEventListener('message', (event: MessageEvent<SuggestRequest>) => {
  const msg = event.data;
  if (msg.type === 'abort') { running.get(msg.id)?.abort(); return; }
  const abort = new AbortController();
  running.set(msg.id, abort);
  void (async () => {
    try {
      const result = await suggestScene(unpackGeometry(msg.geometry), msg.graph, msg.profiles, {
        signal: abort.signal,
        onProgress: (p) => reply({ type: 'progress', id: msg.id, fraction: p.fraction, message: p.message }),
      });
      reply({ type: 'done', id: msg.id, result });
    } catch (e) {
      reply({ type: 'failed', id: msg.id, message: e instanceof Error ? e.message : String(e), aborted: abort.signal.aborted });
    } finally {
      running.delete(msg.id);
    }
  })();
});
reply({ type: 'ready' });
