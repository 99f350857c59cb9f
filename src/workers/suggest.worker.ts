// The scene worker: suggestions (navmeshes and edge probes of engine/suggest) and the drive's motion
// planner (engine/planner), off the page's thread, on a copy of the scan (BVH included) sent once per scan.
import { ScenePlanner } from '../engine/planner/scene.ts';
import { suggestScene } from '../engine/suggest/suggest.ts';
import type { SceneGeometry } from '../engine/suggest/geometry.ts';
import { unpackGeometry } from '../engine/suggest/transfer.ts';
import type { SuggestReply, SuggestRequest } from '../engine/suggest/workerMessages.ts';

const running = new Map<number, AbortController>();
const reply = (m: SuggestReply) => (self as unknown as { postMessage: (m: SuggestReply) => void }).postMessage(m);

/** The one scan held, and its planner (with the reference navmesh) once a drive asked for it. */
let held: { key: number; geom: SceneGeometry; planner: Promise<ScenePlanner> | null } | null = null;

function scan(msg: { id: number; key: number; geometry?: Parameters<typeof unpackGeometry>[0] }): NonNullable<typeof held> | null {
  if (msg.geometry) {
    void held?.planner?.then((p) => p.dispose());
    held = { key: msg.key, geom: unpackGeometry(msg.geometry), planner: null };
  }
  if (!held || held.key !== msg.key) { reply({ type: 'missing', id: msg.id }); return null; }
  return held;
}

self.addEventListener('message', (event: MessageEvent<SuggestRequest>) => {
  const msg = event.data;
  if (msg.type === 'abort') { running.get(msg.id)?.abort(); return; }
  const abort = new AbortController();
  running.set(msg.id, abort);
  void (async () => {
    try {
      const h = scan(msg);
      if (!h) return;
      if (msg.type === 'drive') {
        h.planner ??= ScenePlanner.create(h.geom);
        const planner = await h.planner;
        reply({ type: 'drive', id: msg.id, decision: planner.decide(msg.profile, msg.a, msg.b) });
        return;
      }
      const result = await suggestScene(h.geom, msg.graph, msg.profiles, {
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
