import { z } from 'zod';
import { AgentProfileSchema, DEFAULT_PROFILES, type AgentProfile } from './agents.ts';
import { NavGraphSchema } from './graph.ts';
import { LabelSchema } from './labels.ts';
import { NavQuestionSchema } from './questions.ts';

/** Version of the stored/exported project document. Bump it and add a migration when the shape changes. */
export const PROJECT_SCHEMA_VERSION = 1;

/** A label-table entry whose key the tool does not understand (e.g. `startDetail:node_12`), kept verbatim. */
export const ForeignEntrySchema = z.object({ agentKey: z.string(), key: z.string(), value: z.unknown() });

export const SceneSchema = z.object({
  /** Scene id as the release names it, e.g. `HM3D00025`. */
  id: z.string().min(1),
  graph: NavGraphSchema,
  questions: z.array(NavQuestionSchema),
  /** agent (canonical name) → directed segment key → label. */
  labels: z.record(z.string(), z.record(z.string(), LabelSchema)),
  /** Exact texts of questions judged hallucinated, in file order (entries may match no question). */
  hallucinated: z.array(z.string()),
  foreignEntries: z.array(ForeignEntrySchema).default([]),
  /** Unmodelled top-level fields of the graph and traverse files, written back unchanged. */
  graphExtra: z.record(z.string(), z.unknown()).optional(),
  traverseExtra: z.record(z.string(), z.unknown()).optional(),
});
export type Scene = z.infer<typeof SceneSchema>;

export const ProjectSchema = z.object({
  schemaVersion: z.literal(PROJECT_SCHEMA_VERSION),
  name: z.string(),
  profiles: z.array(AgentProfileSchema),
  scenes: z.array(SceneSchema),
});
export type Project = z.infer<typeof ProjectSchema>;

export function emptyProject(name = 'Untitled project', profiles: readonly AgentProfile[] = DEFAULT_PROFILES): Project {
  return { schemaVersion: PROJECT_SCHEMA_VERSION, name, profiles: profiles.map((p) => ({ ...p })), scenes: [] };
}

export function isHallucinated(scene: Pick<Scene, 'hallucinated'>, questionText: string): boolean {
  return scene.hallucinated.includes(questionText);
}
