import { z } from 'zod';
import { AgentProfileSchema, DEFAULT_PROFILES, type AgentProfile } from './agents.ts';
import { NavGraphSchema } from './graph.ts';
import { pathPartProblem } from './pathNames.ts';
import { LabelSchema } from './labels.ts';
import { AdjudicationTableSchema, VoteTableSchema } from './labelVotes.ts';
import { NavQuestionSchema } from './questions.ts';
import { DEFAULT_TAXONOMY, TaxonomySchema } from './vqa/taxonomy.ts';
import { QaItemSchema } from './vqa/item.ts';

/** Version of the stored/exported project document. Bump it and add a migration when the shape changes. */
export const PROJECT_SCHEMA_VERSION = 4;

/** A label-table entry whose key the tool does not understand (e.g. `startDetail:node_12`), kept verbatim. */
export const ForeignEntrySchema = z.object({ agentKey: z.string(), key: z.string(), value: z.unknown() });

/**
 * The scan a scene is built on. The files themselves live in the browser's storage under `key`
 * (too big for the document); the document keeps how to place them. Graph positions are in the
 * mesh's own frame; `upAxis` and `unitScale` map that frame to the viewport's Y-up metres.
 */
export const SceneMeshSchema = z.object({
  key: z.string().min(1),
  mainFile: z.string().min(1),
  files: z.array(z.object({ name: z.string(), bytes: z.number().int().nonnegative() })),
  upAxis: z.enum(['y', 'z']),
  unitScale: z.number().positive(),
});
export type SceneMesh = z.infer<typeof SceneMeshSchema>;

export const SceneSchema = z.object({
  /** Scene id as the release names it, e.g. `HM3D00025`. It becomes part of file names, so it must be safe as one. */
  id: z
    .string()
    .min(1)
    .superRefine((id, ctx) => {
      const problem = pathPartProblem(id);
      if (problem) ctx.addIssue({ code: 'custom', message: `a scene id becomes part of file names; ${JSON.stringify(id)} ${problem}` });
    }),
  graph: NavGraphSchema,
  questions: z.array(NavQuestionSchema),
  /** agent (canonical name) → directed segment key → the label in force (labelVotes.ts). */
  labels: z.record(z.string(), z.record(z.string(), LabelSchema)),
  /** Every annotator's own label, when the scene has been labelled by name (absent: the labels are the votes). */
  votes: VoteTableSchema.optional(),
  /** Adjudicators' decisions on disputed segments. */
  adjudications: AdjudicationTableSchema.optional(),
  /** Exact texts of questions judged hallucinated, in file order (entries may match no question). */
  hallucinated: z.array(z.string()),
  foreignEntries: z.array(ForeignEntrySchema).default([]),
  /** Unmodelled top-level fields of the graph and traverse files, written back unchanged. */
  graphExtra: z.record(z.string(), z.unknown()).optional(),
  traverseExtra: z.record(z.string(), z.unknown()).optional(),
  mesh: SceneMeshSchema.nullable().default(null),
});
export type Scene = z.infer<typeof SceneSchema>;

export const ProjectSchema = z.object({
  schemaVersion: z.literal(PROJECT_SCHEMA_VERSION),
  name: z.string(),
  profiles: z.array(AgentProfileSchema),
  scenes: z.array(SceneSchema),
  /** Question-answer ground truth with reasoning trails, and the taxonomy it is categorised by. */
  qa: z.object({ taxonomy: TaxonomySchema, items: z.array(QaItemSchema) }).default({ taxonomy: DEFAULT_TAXONOMY, items: [] }),
});
export type Project = z.infer<typeof ProjectSchema>;

export function emptyProject(name = 'Untitled project', profiles: readonly AgentProfile[] = DEFAULT_PROFILES): Project {
  return { schemaVersion: PROJECT_SCHEMA_VERSION, name, profiles: profiles.map((p) => ({ ...p })), scenes: [], qa: { taxonomy: DEFAULT_TAXONOMY, items: [] } };
}

export function isHallucinated(scene: Pick<Scene, 'hallucinated'>, questionText: string): boolean {
  return scene.hallucinated.includes(questionText);
}
