import { useEffect, useReducer } from 'react';
import { checkScene } from '../../../core/checks.ts';
import type { Scene } from '../../../core/project.ts';

const counts = new WeakMap<Scene, number>();

/**
 * How many errors (fatal or not, warnings aside) a scene of the open project has, for the scene
 * list. Kept per scene object: the document is immutable and an edit replaces only the scenes it
 * changes (the others stay the same objects), so after a label only that scene is checked again,
 * not every scene of the project — at 1,000 scenes the whole pass cost ~165 ms per keypress.
 */
export function sceneErrorCount(scene: Scene): number {
  let n = counts.get(scene);
  if (n === undefined) counts.set(scene, (n = checkScene(scene).filter((f) => f.severity !== 'warning').length));
  return n;
}

/** Main-thread time spent counting in the current task; reset when the task ends. */
let spent = 0;
let resetting = false;
const BUDGET_MS = 8;
const waiting = new Map<Scene, Set<() => void>>();
let scheduled = false;

/** Count the waiting scenes in slices of the budget, between which the page paints. */
function drain(): void {
  scheduled = false;
  const t0 = performance.now();
  for (const [scene, listeners] of waiting) {
    if (performance.now() - t0 > BUDGET_MS) {
      schedule();
      return;
    }
    waiting.delete(scene);
    sceneErrorCount(scene);
    for (const l of listeners) l();
  }
}
function schedule(): void {
  if (!scheduled) {
    scheduled = true;
    setTimeout(drain, 0);
  }
}

/**
 * A scene's error count for its row in the list: counted at once while this task's budget lasts
 * (an edit re-counts one scene), otherwise in the background (a 1,000-scene project opening shows
 * its list first and the counts as they come), so the page is never held for long. null: not yet.
 */
export function useSceneErrorCount(scene: Scene): number | null {
  const [, counted] = useReducer((x: number) => x + 1, 0);
  let n = counts.get(scene);
  if (n === undefined && spent < BUDGET_MS) {
    if (!resetting) {
      resetting = true;
      setTimeout(() => {
        spent = 0;
        resetting = false;
      }, 0);
    }
    const t0 = performance.now();
    n = sceneErrorCount(scene);
    spent += performance.now() - t0;
  }
  const known = n !== undefined;
  useEffect(() => {
    if (known) return;
    let listeners = waiting.get(scene);
    if (!listeners) waiting.set(scene, (listeners = new Set()));
    listeners.add(counted);
    schedule();
    return () => {
      listeners.delete(counted);
      if (!listeners.size) waiting.delete(scene);
    };
  }, [scene, known]);
  return n ?? null;
}
