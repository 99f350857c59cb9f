import { z } from 'zod';
import { PROJECT_SCHEMA_VERSION, ProjectSchema, type Project } from './project.ts';
import { DEFAULT_TAXONOMY } from './vqa/taxonomy.ts';
import { normalizeVotes } from './labelVotes.ts';

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
  // v4: labels are annotators' votes with adjudications (labelVotes.ts); a v3 scene's labels are its votes as they are.
  3: (doc) => ({ ...doc, schemaVersion: 4 }),
};

/**
 * Bring a versioned payload from version `from` to `to` by its steps and validate it: a payload
 * from a newer version is refused, a missing step or a payload the schema rejects is reported with
 * where it is damaged. Shared by everything stored with a format version (projects, kept suggestions).
 */
export function migrateVersioned<T>(
  payload: unknown,
  from: number,
  to: number,
  steps: Record<number, (p: never) => unknown>,
  schema: z.ZodType<T>,
  what: { newer: string; unit: string },
): { ok: true; value: T } | { ok: false; message: string } {
  if (from > to) return { ok: false, message: `${what.newer} (${what.unit} ${from}; this one reads up to ${to})` };
  let current = payload;
  for (let v = from; v < to; v++) {
    const step = steps[v];
    if (!step) return { ok: false, message: `no migration from ${what.unit} ${v}` };
    current = step(current as never);
  }
  const parsed = schema.safeParse(current);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    return { ok: false, message: `damaged at ${first.path.join('.') || 'the top'}: ${first.message}` };
  }
  return { ok: true, value: parsed.data };
}

export function migrateProject(raw: unknown): { ok: true; project: Project } | { ok: false; message: string } {
  const version = z.object({ schemaVersion: z.number() }).safeParse(raw);
  if (!version.success) return { ok: false, message: 'the stored project has no schema version' };
  const m = migrateVersioned(raw, version.data.schemaVersion, PROJECT_SCHEMA_VERSION, steps, ProjectSchema, {
    newer: 'the stored project was written by a newer Traversa',
    unit: 'schema',
  });
  if (!m.ok) return m.message.startsWith('damaged') ? { ok: false, message: `the stored project is ${m.message}` } : m;
  return { ok: true, project: normalizeProject(m.value) };
}

/** A parsed project made consistent: each scene's labels in force recomputed from its votes. */
export function normalizeProject(project: Project): Project {
  let changed = false;
  const scenes = project.scenes.map((s) => {
    const n = normalizeVotes(s);
    changed ||= n !== s;
    return n;
  });
  return changed ? { ...project, scenes } : project;
}
