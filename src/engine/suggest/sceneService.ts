import { ScenePlanner } from '../planner/scene.ts';
import type { SceneGeometry } from './geometry.ts';
import { suggestScene } from './suggest.ts';
import { unpackGeometry } from './transfer.ts';
import type { SuggestReply, SuggestRequest } from './workerMessages.ts';

/**
 * The scene service behind the worker protocol: suggestions (navmeshes and edge probes) and the
 * drive's motion planner on one held scan. The scene worker is a thin shell around it
 * (workers/suggest.worker.ts); the page runs the same service itself when no worker starts.
 * Returns the function that takes each request; replies go to `reply`.
 */
export function createSceneService(reply: (m: SuggestReply) => void): (msg: SuggestRequest) => void {
  const running = new Map<number, AbortController>();
  /** The one scan held, and its planner (with the reference navmesh) once a drive asked for it. */
  let held: { key: number; geom: SceneGeometry; planner: Promise<ScenePlanner> | null } | null = null;

  function scan(msg: { id: number; key: number; geometry?: Parameters<typeof unpackGeometry>[0] }): NonNullable<typeof held> | null {
    if (msg.geometry) {
      void held?.planner?.then((p) => p.dispose());
      held = { key: msg.key, geom: unpackGeometry(msg.geometry), planner: null };
    }
    if (!held || held.key !== msg.key) {
      reply({ type: 'missing', id: msg.id });
      return null;
    }
    return held;
  }

  return (msg) => {
    if (msg.type === 'abort') {
      running.get(msg.id)?.abort();
      return;
    }
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
  };
}
