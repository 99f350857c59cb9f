import { z } from 'zod';
import { PROJECT_SCHEMA_VERSION, ProjectSchema, type Project } from './project.ts';
import { DEFAULT_TAXONOMY } from './vqa/taxonomy.ts';

/**
 * Bring a stored or imported project document to the current schema and validate it.
 * Each schema version adds one step here; a document from the future is refused rather than
 * damaged.
 */
/** One step per schema version: steps[n] turns a version-n document into version n+1. */
const steps: Record<number, (doc: Record<string, unknown>) => Record<string, unknown>> = {
  // v2: scenes can carry a mesh binding; existing scenes have none.
  1: (doc) => ({ ...doc, schemaVersion: 2, scenes: (doc.scenes as Record<string, unknown>[] | undefined)?.map((s) => ({ mesh: null, ...s })) }),
  // v3: question-answer items with reasoning trails; existing projects have none.
  2: (doc) => ({ ...doc, schemaVersion: 3, qa: doc.qa ?? { taxonomy: DEFAULT_TAXONOMY, items: [] } }),
};

export function migrateProject(raw: unknown): { ok: true; project: Project } | { ok: false; message: string } {
  const version = z.object({ schemaVersion: z.number() }).safeParse(raw);
  if (!version.success) return { ok: false, message: 'the stored project has no schema version' };
  if (version.data.schemaVersion > PROJECT_SCHEMA_VERSION) {
    return { ok: false, message: `the stored project was written by a newer Traversa (schema ${version.data.schemaVersion}; this one reads up to ${PROJECT_SCHEMA_VERSION})` };
  }
  let doc = raw as Record<string, unknown>;
  for (let v = version.data.schemaVersion; v < PROJECT_SCHEMA_VERSION; v++) {
    const step = steps[v];
    if (!step) return { ok: false, message: `no migration from schema ${v}` };
    doc = step(doc);
  }
  const parsed = ProjectSchema.safeParse(doc);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    return { ok: false, message: `the stored project is damaged at ${first.path.join('.') || 'the top'}: ${first.message}` };
  }
  return { ok: true, project: parsed.data };
}
