import { z } from 'zod';

/** The five agents of the CapNav benchmark, by their canonical (profile-file) names. */
export const CAPNAV_AGENTS = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'] as const;
export type CapNavAgent = (typeof CAPNAV_AGENTS)[number];

/** An agent's name: one of the five, or a custom profile's name. */
export type AgentName = string;

/**
 * Traverse files store the humanoid robot as `ROBOT`; profiles and model outputs call it
 * `HUMANOID`. They are the same agent: inside Traversa it is always `HUMANOID`.
 */
const ALIASES: Record<string, AgentName> = { ROBOT: 'HUMANOID' };

export function canonicalAgent(name: string): AgentName {
  const upper = name.trim().toUpperCase();
  return ALIASES[upper] ?? upper;
}

/** The key the CapNav traverse file uses for an agent. */
export function traverseKeyOf(agent: AgentName): string {
  return agent === 'HUMANOID' ? 'ROBOT' : agent;
}

export const AgentProfileSchema = z.object({
  name: z.string().min(1),
  shape: z.enum(['cylinder', 'box']),
  heightM: z.number().positive(),
  /** Diameter for cylinders, side-to-side width for boxes. */
  widthM: z.number().positive(),
  /** Front-to-back depth for boxes; null for cylinders. */
  depthM: z.number().positive().nullable(),
  /** Highest single step, sill or threshold the agent can cross. */
  maxStepM: z.number().nonnegative(),
  canUseStairs: z.boolean(),
  canUseElevator: z.boolean(),
  canOpenDoors: z.boolean(),
  /** Diameter of the free circle the agent needs to turn around; null when not a constraint. */
  turningSpaceM: z.number().positive().nullable().default(null),
  description: z.string().default(''),
  /** Fields of the source file that Traversa does not model, written back unchanged. */
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type AgentProfile = z.infer<typeof AgentProfileSchema>;

/** The CapNav release's profiles (agent_profile.json): the benchmark's truth for the five agents. */
export const DEFAULT_PROFILES: readonly AgentProfile[] = [
  {
    name: 'HUMAN',
    shape: 'cylinder',
    heightM: 1.7,
    widthM: 0.6,
    depthM: null,
    maxStepM: 0.3,
    canUseStairs: true,
    canUseElevator: true,
    canOpenDoors: true,
    turningSpaceM: null,
    description: 'An able-bodied young adult capable of walking, crouching, and stepping over small obstacles up to 0.3 m high.',
  },
  {
    name: 'WHEELCHAIR',
    shape: 'box',
    heightM: 1.2,
    widthM: 0.7,
    depthM: 1.0,
    maxStepM: 0.013,
    canUseStairs: false,
    canUseElevator: true,
    canOpenDoors: true,
    turningSpaceM: null,
    description: 'A manual wheelchair user with limited vertical climbing ability',
  },
  {
    name: 'HUMANOID',
    shape: 'box',
    heightM: 1.5,
    widthM: 0.9,
    depthM: 0.9,
    maxStepM: 0.4,
    canUseStairs: false,
    canUseElevator: true,
    canOpenDoors: true,
    turningSpaceM: null,
    description:
      'Boston Dynamics Atlas humanoid robot approximately the size of a human, capable of obstacle crossing up to 0.4 m, for a single obstacle. However, it cannot go up stairs. ',
  },
  {
    name: 'QUADRUPEDAL',
    shape: 'box',
    heightM: 0.7,
    widthM: 0.5,
    depthM: 1.1,
    maxStepM: 0.3,
    canUseStairs: true,
    canUseElevator: false,
    canOpenDoors: false,
    turningSpaceM: null,
    description: 'Boston Dynamics Atlas quadrupedal robot approximately the size of a dog, capable of moderate obstacle crossing up to 0.3 m.',
  },
  {
    name: 'SWEEPER',
    shape: 'cylinder',
    heightM: 0.15,
    widthM: 0.4,
    depthM: null,
    maxStepM: 0.02,
    canUseStairs: false,
    canUseElevator: false,
    canOpenDoors: false,
    turningSpaceM: null,
    description: 'An autonomous floor sweeping robot with a low cylindrical body and limited ability to cross thresholds up to 0.02 m.',
  },
];

/** The agents the profiles name, in display order (a CapNav agent without a profile left out). */
export function profiledAgents(profiles: readonly AgentProfile[]): AgentName[] {
  const named = new Set(profiles.map((p) => p.name));
  return agentOrder(profiles).filter((a) => named.has(a));
}

/** Agents in display order: the five CapNav agents first, then custom profiles in their order. */
export function agentOrder(profiles: readonly AgentProfile[], alsoSeen: Iterable<AgentName> = []): AgentName[] {
  const names: AgentName[] = [...CAPNAV_AGENTS];
  for (const n of [...profiles.map((p) => p.name), ...alsoSeen]) if (!names.includes(n)) names.push(n);
  return names;
}
