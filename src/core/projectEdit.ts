import type { Project, Scene } from './project.ts';

/** Scene ids become release file names (`<id>-graph.json`): letters, digits, `-` and `_` only. */
export const SCENE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export function newScene(id: string): Scene {
  return { id, graph: { nodes: [], edges: [] }, questions: [], labels: {}, hallucinated: [], foreignEntries: [], mesh: null };
}

/** The first free id of the form `SCENE001`, `SCENE002`, … */
export function freeSceneId(project: Pick<Project, 'scenes'>, prefix = 'SCENE'): string {
  const used = new Set(project.scenes.map((s) => s.id));
  for (let i = 1; ; i++) {
    const id = `${prefix}${String(i).padStart(3, '0')}`;
    if (!used.has(id)) return id;
  }
}

export function addScene(project: Project, id = freeSceneId(project)): { project: Project; id: string } {
  if (!SCENE_ID.test(id) || project.scenes.some((s) => s.id === id)) throw new Error(`scene id "${id}" is not usable`);
  return { project: { ...project, scenes: [...project.scenes, newScene(id)] }, id };
}

/** The project without scene `id` (its graph, questions and labels go with it); the same project when there is none. */
export function removeScene(project: Project, id: string): Project {
  return project.scenes.some((s) => s.id === id) ? { ...project, scenes: project.scenes.filter((s) => s.id !== id) } : project;
}
