import { profiledAgents, type AgentName } from '../agents.ts';
import type { Project } from '../project.ts';

/** A scene with questions but no label at all for some agents. */
export interface UnlabelledScene {
  sceneId: string;
  agents: AgentName[];
}

/**
 * Scenes whose ground truth cannot be scored against yet: they ask questions, but some agents
 * have not one label there. Every segment without a label counts as not traversable (as CapNav
 * counts it), so for those agents every route is "not doable" and the scores — the Oracle's
 * included — say nothing about the models. (The bundled sample house opens this way, ready to
 * label.) A scene labelled in part is not listed: a release may leave segments no question needs.
 */
export function unlabelledScenes(project: Pick<Project, 'scenes' | 'profiles'>): UnlabelledScene[] {
  const agents = profiledAgents(project.profiles);
  const out: UnlabelledScene[] = [];
  for (const scene of project.scenes) {
    if (scene.questions.length === 0) continue;
    const missing = agents.filter((a) => !hasAny(scene.labels[a]));
    if (missing.length) out.push({ sceneId: scene.id, agents: missing });
  }
  return out;
}

/** How the studio and the command line name one: "HOUSE has no labels for WHEELCHAIR, SWEEPER". */
export function unlabelledText(u: UnlabelledScene): string {
  return `${u.sceneId} has no labels for ${u.agents.join(', ')}`;
}

function hasAny(table: Record<string, unknown> | undefined): boolean {
  if (!table) return false;
  for (const _ in table) return true;
  return false;
}
