import type { Label } from '../labels.ts';
import type { Project, Scene } from '../project.ts';
import type { QaItem } from '../vqa/item.ts';

/**
 * Generated tasks no reviewer has accepted yet. A generated task joins its scene's questions when
 * it is made (marked as waiting, and kept out of the label queue until accepted), but a release is a benchmark: what a model
 * wrote and nobody checked does not belong in it. A rejected task stays, listed as hallucinated,
 * as CapNav lists its own (core/taskgen/insert.ts). Labels made while such a task was being labelled
 * stay (each judges a segment of the graph, whatever question it was met in), without the task's
 * text as the question they were made for: the release would otherwise carry the unchecked text
 * and, read back, warn that those labels name a question not in its question file.
 */
const UNREVIEWED: ReadonlySet<QaItem['status']> = new Set(['draft', 'pending', 'adjudicate']);

/**
 * The scene's questions that are generated tasks no reviewer has accepted (or rejected) yet, by
 * index, with their item: they are marked wherever they are shown and kept out of the label queue
 * until accepted — labels spent on a task a reviewer later rejects are wasted.
 */
export function unreviewedTasks(items: readonly QaItem[], sceneId: string): Map<number, QaItem> {
  const out = new Map<number, QaItem>();
  for (const item of items) {
    if (item.sceneId === sceneId && item.source === 'generated' && UNREVIEWED.has(item.status) && item.capnavQuestion !== undefined)
      out.set(item.capnavQuestion, item);
  }
  return out;
}

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
    if (questions.length === scene.questions.length) return scene;
    const kept = new Set(questions.map((q) => q.text));
    const gone = new Set(scene.questions.filter((q) => !kept.has(q.text)).map((q) => q.text));
    return { ...scene, questions, labels: withoutQuestions(scene.labels, gone) };
  });
  return { project: { ...project, scenes }, leftOut };
}

/** The labels, those made for one of `texts` without that question (the table itself when none is). */
function withoutQuestions(labels: Scene['labels'], texts: ReadonlySet<string>): Scene['labels'] {
  const named = (l: Label) => l.question !== undefined && texts.has(l.question);
  if (!Object.values(labels).some((byKey) => Object.values(byKey).some(named))) return labels;
  return Object.fromEntries(
    Object.entries(labels).map(([agent, byKey]) => [
      agent,
      Object.fromEntries(
        Object.entries(byKey).map(([key, l]) => {
          if (!named(l)) return [key, l];
          const { question: _made, ...rest } = l;
          return [key, rest];
        }),
      ),
    ]),
  );
}
