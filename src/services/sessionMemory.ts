import { setSession } from '../state/patch.ts';
import type { StudioState, StudioStore } from '../state/store.ts';

const KEY = 'traversa.session';
/** The parts of the session worth restoring after a reload or a crash: where the annotator was. */
const KEPT = ['view', 'sceneId', 'agent', 'queueCursor', 'annotator', 'autoApproveHuman', 'camera'] as const;
type Kept = Pick<StudioState['session'], (typeof KEPT)[number]>;

/** Restore the remembered session (if it still fits the project), then keep remembering it. */
export function rememberSession(store: StudioStore): () => void {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<Kept> | null;
    const scenes = store.getState().document.project?.scenes ?? [];
    if (saved && (saved.sceneId === undefined || saved.sceneId === null || scenes.some((s) => s.id === saved.sceneId))) {
      const patch = Object.fromEntries(KEPT.filter((k) => saved[k] !== undefined).map((k) => [k, saved[k]]));
      setSession(store, patch);
    }
  } catch {
    // A damaged memory of the session is not worth telling anyone about: start fresh.
  }
  return store.subscribe((s, prev) => {
    if (KEPT.every((k) => s.session[k] === prev.session[k])) return;
    try {
      localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(KEPT.map((k) => [k, s.session[k]]))));
    } catch {
      /* storage full or blocked: the session is not precious */
    }
  });
}
