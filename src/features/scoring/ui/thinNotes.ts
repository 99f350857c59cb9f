import { isolatedNodes } from '../../../core/checks.ts';
import type { Project, Scene } from '../../../core/project.ts';
import type { ThinNote, ThinRecord } from '../../../core/scoring/paper/thin.ts';

const isolatedCache = new WeakMap<Scene['graph'], Set<string>>();
function isolatedOf(scene: Scene): Set<string> {
  let s = isolatedCache.get(scene.graph);
  if (!s) isolatedCache.set(scene.graph, (s = isolatedNodes(scene.graph)));
  return s;
}

/** Why a record is worth a look when a figure rests on it: an end of its question that no edge reaches. */
export function whyRecord(project: Project | null, r: ThinRecord): string | null {
  const scene = project?.scenes.find((s) => s.id === r.scene);
  const q = r.questionIndex === null ? undefined : scene?.questions[r.questionIndex];
  if (!scene || !q) return null;
  const iso = isolatedOf(scene);
  const name = (id: string) => {
    const n = scene.graph.nodes.find((x) => x.id === id);
    return n?.name && n.name !== id ? `“${n.name}” (${id})` : id;
  };
  const ends = (
    [
      ['start', q.start.nodeId],
      ['end', q.end.nodeId],
    ] as const
  ).filter(([, id]) => id !== null && iso.has(id));
  if (!ends.length) return null;
  return `its ${ends.map(([w, id]) => `${w} node ${name(id!)}`).join(' and ')} ${ends.length > 1 ? 'have' : 'has'} no edges, so the task is infeasible for every agent and a “no” has no route to judge (RV 0)`;
}

export const METRIC_LABEL: Record<ThinNote['metric'], string> = { f1: 'Feas-F1', pv: 'PV', rta: 'RTA', rv: 'RV' };
