import { CAPNAV_AGENTS, type AgentProfile } from './agents.ts';
import type { Project } from './project.ts';
import { mapLabelTables, renameAgent } from './labelVotes.ts';

export const isBuiltIn = (name: string) => (CAPNAV_AGENTS as readonly string[]).includes(name);
const AGENT_NAME = /^[A-Z][A-Z0-9_]*$/;

/** Why a profile edit is refused, or null when it is fine. */
export function profileProblem(project: Pick<Project, 'profiles'>, p: AgentProfile, previousName: string): string | null {
  if (!AGENT_NAME.test(p.name)) return 'Agent names are upper-case letters, digits and _ (they become keys in the traverse files).';
  if (p.name !== previousName && project.profiles.some((q) => q.name === p.name)) return `There is already an agent called ${p.name}.`;
  if (p.name !== previousName && (isBuiltIn(previousName) || p.name === 'ROBOT')) return 'The five CapNav agents keep their names.';
  if (p.shape === 'box' && (p.depthM === null || !(p.depthM > 0))) return 'A box needs a depth.';
  if (!(p.widthM > 0 && p.heightM > 0) || p.maxStepM < 0) return 'Width and height must be positive, the step limit not negative.';
  return null;
}

/** Replace a profile; a renamed custom agent takes its labels along in every scene. */
export function updateProfile(project: Project, previousName: string, next: AgentProfile): Project {
  const profiles = project.profiles.map((p) => (p.name === previousName ? next : p));
  if (next.name === previousName) return { ...project, profiles };
  const scenes = project.scenes.map((s) => mapLabelTables(s, renameAgent(previousName, next.name)));
  return { ...project, profiles, scenes };
}

/** A new custom agent, starting from a copy of `from`, under the first free CUSTOM<n> name. */
export function addProfile(project: Project, from: AgentProfile): { project: Project; name: string } {
  let n = 1;
  while (project.profiles.some((p) => p.name === `CUSTOM${n}`)) n++;
  const name = `CUSTOM${n}`;
  const { extra: _extra, ...rest } = from;
  return { project: { ...project, profiles: [...project.profiles, { ...rest, name, description: `Custom agent based on ${from.name}` }] }, name };
}

/** Remove a custom agent (its labels stay in the scenes until deleted there; the five CapNav agents stay). */
export function removeProfile(project: Project, name: string): Project {
  if (isBuiltIn(name)) return project;
  return { ...project, profiles: project.profiles.filter((p) => p.name !== name) };
}
