import type { Project } from '../project.ts';
import type { QaItem } from '../vqa/item.ts';

/**
 * Generated tasks no reviewer has accepted yet. A generated task joins its scene's questions when
 * it is made (so it can be labelled while it waits), but a release is a benchmark: what a model
 * wrote and nobody checked does not belong in it. A rejected task stays, listed as hallucinated,
 * as CapNav lists its own (core/taskgen/insert.ts).
 */
const UNREVIEWED: ReadonlySet<QaItem['status']> = new Set(['draft', 'pending', 'adjudicate']);

export interface LeftOut {
  sceneId: string;
  question: string;
}

/** The project as a release carries it: each scene without the questions of its unreviewed generated tasks, and which those were. */
export function withoutUnreviewedTasks<P extends Pick<Project, 'scenes' | 'qa'>>(project: P): { project: P; leftOut: LeftOut[] } {
  const byScene = new Map<string, Set<number>>();
  for (const item of project.qa.items) {
    if (item.source !== 'generated' || !UNREVIEWED.has(item.status) || item.capnavQuestion === undefined) continue;
    let indices = byScene.get(item.sceneId);
    if (!indices) byScene.set(item.sceneId, (indices = new Set()));
    indices.add(item.capnavQuestion);
  }
  if (byScene.size === 0) return { project, leftOut: [] };
  const leftOut: LeftOut[] = [];
  const scenes = project.scenes.map((scene) => {
    const indices = byScene.get(scene.id);
    if (!indices) return scene;
    const questions = scene.questions.filter((q, i) => {
      if (!indices.has(i)) return true;
      leftOut.push({ sceneId: scene.id, question: q.text });
      return false;
    });
    return questions.length === scene.questions.length ? scene : { ...scene, questions };
  });
  return { project: { ...project, scenes }, leftOut };
}
