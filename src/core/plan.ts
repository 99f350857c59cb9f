import { buildBlockCutTree } from './blockCutTree.ts';
import type { Scene } from './project.ts';
import { isHallucinated } from './project.ts';
import { resolvedWaypoints, unresolvedRefs } from './questions.ts';
import { workList } from './worklist.ts';

export type PlannedQuestion =
  | { index: number; question: string; edges: string[] }
  | { index: number; question: string; hallucinated: true }
  | { index: number; question: string; unresolved: string[] };

/**
 * The labelling plan of a scene: for each question (index = its position in the question file,
 * from 0), the undirected edges the annotator must label, or why it has none to label
 * (hallucinated questions are excluded from the benchmark; unresolved references are listed).
 */
export function planScene(scene: Scene): PlannedQuestion[] {
  const bct = buildBlockCutTree(scene.graph);
  return scene.questions.map((q, index) => {
    if (isHallucinated(scene, q.text)) return { index, question: q.text, hallucinated: true as const };
    const wps = resolvedWaypoints(q);
    if (!wps) return { index, question: q.text, unresolved: unresolvedRefs(q) };
    return { index, question: q.text, edges: workList(scene.graph, wps, bct) };
  });
}
