import type { Project } from '../../../core/project.ts';

/**
 * Why the open project cannot give training tasks yet, in the words the Training view shows (null
 * when it can): tasks need scenes, a graph with two nodes to go between, and labels (a missing
 * label counts as not traversable, so an unlabelled project would give nothing but "no").
 */
export function notReady(project: Project | null): { missing: 'project' | 'scenes' | 'graph' | 'labels'; text: string } | null {
  if (!project) return { missing: 'project', text: 'Open a project first: the project list (Shift+P), Import folder…, or the sample house.' };
  if (!project.scenes.length)
    return { missing: 'scenes', text: 'The project has no scenes yet: import a CapNav release (Import folder…) or add a scene and draw its graph.' };
  if (!project.scenes.some((s) => s.graph.nodes.length >= 2))
    return { missing: 'graph', text: 'No scene has two nodes to go between: draw the navigation graph first (2 Scene).' };
  if (!project.scenes.some((s) => Object.values(s.labels).some((table) => Object.keys(table ?? {}).length > 0)))
    return {
      missing: 'labels',
      text: 'No segment is labelled yet, so every task would be a “no” (a missing label counts as not traversable). Label some segments first (3 Label), or import a release with its traverse files.',
    };
  return null;
}

/** The agents among `agents` that have no label in any scene: all their tasks would be "no" for want of labels. */
export function unlabelledAgents(project: Project, agents: readonly string[]): string[] {
  return agents.filter((a) => !project.scenes.some((s) => Object.keys(s.labels[a] ?? {}).length > 0));
}
