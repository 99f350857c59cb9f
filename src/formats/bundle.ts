import { migrateProject } from '../core/migrate.ts';
import type { Problem } from '../core/problems.ts';
import type { Project } from '../core/project.ts';
import { parseJson, type SourceFile } from './json.ts';

/**
 * Traversa's own bundle: the whole project document — profiles, graphs, questions, and labels
 * with their reasons, provenance and evidence (measured values, suggestion, driven trajectory) —
 * which the CapNav release files cannot carry. Scans are not included (too big; re-link them).
 */
export const BUNDLE_FORMAT = 'traversa-bundle';
export const BUNDLE_VERSION = 1;

export function writeBundle(project: Project, exportedAt = new Date().toISOString()): SourceFile {
  const name = `${project.name.trim().replace(/[^\w.-]+/g, '-') || 'project'}.traversa.json`;
  return { path: name, text: JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt, project }, null, 1) + '\n' };
}

export const looksLikeBundle = (file: SourceFile) => file.text.slice(0, 200).includes(`"${BUNDLE_FORMAT}"`);

export function readBundle(file: SourceFile): { project: Project | null; problems: Problem[] } {
  const parsed = parseJson(file);
  if (!parsed.ok) return { project: null, problems: [parsed.problem] };
  const v = parsed.value as { format?: unknown; version?: unknown; project?: unknown };
  const fail = (message: string): { project: null; problems: Problem[] } => ({
    project: null,
    problems: [{ severity: 'fatal', code: 'bundle.invalid', file: file.path, location: '', message }],
  });
  if (v?.format !== BUNDLE_FORMAT) return fail('not a Traversa bundle (no "format": "traversa-bundle")');
  if (typeof v.version !== 'number' || v.version > BUNDLE_VERSION)
    return fail(`bundle version ${String(v.version)} is newer than this Traversa reads (${BUNDLE_VERSION})`);
  const m = migrateProject(v.project);
  return m.ok ? { project: m.project, problems: [] } : fail(m.message.replace('the stored project', 'the bundle’s project'));
}
