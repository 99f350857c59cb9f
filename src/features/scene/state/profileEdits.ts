import type { AgentProfile } from '../../../core/agents.ts';
import { addProfile, removeProfile, updateProfile } from '../../../core/profileEdit.ts';
import { defineEdit } from '../../../state/edits.ts';

/** The project's agents: custom ones added from a CapNav profile, edited, removed. */
export const PROFILE_EDITS = {
  update: defineEdit('agent.update', 'Edit agent', (p, a: { previousName: string; next: AgentProfile }) => updateProfile(p, a.previousName, a.next)),
  add: defineEdit('agent.add', 'Add agent', (p, a: { from: string }) => addProfile(p, p.profiles.find((x) => x.name === a.from) ?? p.profiles[0]!).project),
  remove: defineEdit('agent.remove', 'Remove agent', (p, a: { name: string }) => removeProfile(p, a.name)),
} as const;
