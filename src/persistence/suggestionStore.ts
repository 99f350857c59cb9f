import { migrateVersioned } from '../core/migrate.ts';
import { z } from 'zod';
import { REASONS } from '../core/rules.ts';
import type { SuggestionsState } from '../state/store.ts';
import type { StoredSuggestions, TraversaDb } from './db.ts';

/**
 * Suggestions kept with the project: one row per scene and scan, read back on reload. They are
 * derived data — never part of the document, so never in undo history or exports — and their basis
 * (scan, graph, profiles) says whether they still describe the scene.
 */

/** Format version of a stored row's `suggestions`. Bump it and add a step below when the shape changes. */
export const SUGGESTIONS_VERSION = 1;

type Ready = Extract<SuggestionsState, { state: 'ready' }>;
export type KeptSuggestions = Pick<Ready, 'computedAt' | 'basis' | 'agents'>;

// Measurements may be unbounded (an opening wider than any probe): any number but NaN.
const measure = z.custom<number>((v) => typeof v === 'number' && !Number.isNaN(v), 'a number');
const BasisSchema = z.object({
  meshKey: z.string().min(1),
  upAxis: z.enum(['y', 'z']),
  unitScale: z.number().positive(),
  graph: z.string(),
  agents: z.string(),
});
const ViewSchema = z.object({
  traversable: z.boolean(),
  reason: z.enum(REASONS).nullable(),
  note: z.string(),
  measured: z.record(z.string(), z.union([measure, z.array(measure)])),
  navmeshRoute: z.boolean().nullable(),
  doubt: z.string().nullable().optional(),
});
const KeptSchema = z.object({ computedAt: z.number(), basis: BasisSchema, agents: z.record(z.string(), z.record(z.string(), ViewSchema)) });

/** One step per format version: steps[n] turns a version-n payload into version n+1. None yet. */
const steps: Record<number, (payload: unknown) => unknown> = {};

/** A stored row as suggestions, migrated to the current format; or why it cannot be read. */
export function readStoredSuggestions(row: StoredSuggestions): { ok: true; value: KeptSuggestions } | { ok: false; reason: string } {
  if (typeof row.version !== 'number') return { ok: false, reason: 'the row has no format version' };
  const m = migrateVersioned(row.suggestions, row.version, SUGGESTIONS_VERSION, steps, KeptSchema, { newer: 'written by a newer Traversa', unit: 'format' });
  if (!m.ok) return { ok: false, reason: m.message };
  if (m.value.basis.meshKey !== row.meshKey) return { ok: false, reason: `filed under scan ${row.meshKey} but computed on ${m.value.basis.meshKey}` };
  return { ok: true, value: m.value };
}

/** Keep a scene's suggestions (replacing those kept for the same scan). */
export async function keepSuggestions(db: TraversaDb, sceneId: string, value: KeptSuggestions): Promise<void> {
  await db.suggestions.put({ sceneId, meshKey: value.basis.meshKey, version: SUGGESTIONS_VERSION, savedAt: Date.now(), suggestions: value });
}

/**
 * The suggestions kept for a scene: those computed on its scan `meshKey` when there are, else the
 * latest kept for any other scan (their basis shows them stale). Rows that cannot be read are set
 * aside — moved to `setAside` with the reason, never deleted — and reported in `setAside`.
 */
export async function loadSuggestions(db: TraversaDb, sceneId: string, meshKey: string | null): Promise<KeptFor> {
  return (await loadSuggestionsOf(db, [{ sceneId, meshKey }])).get(sceneId)!;
}

type KeptFor = { kept: KeptSuggestions | null; setAside: string[] };

/**
 * `loadSuggestions` for many scenes in one read (a project of 1,000 scenes opens with one query,
 * not 1,000 transactions).
 */
export async function loadSuggestionsOf(db: TraversaDb, scenes: readonly { sceneId: string; meshKey: string | null }[]): Promise<Map<string, KeptFor>> {
  const rows =
    scenes.length === 0
      ? []
      : await db.suggestions
          .where('sceneId')
          .anyOf(scenes.map((s) => s.sceneId))
          .toArray();
  const bySceneRows = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = bySceneRows.get(row.sceneId);
    if (list) list.push(row);
    else bySceneRows.set(row.sceneId, [row]);
  }
  const out = new Map<string, KeptFor>();
  for (const { sceneId, meshKey } of scenes) {
    const readable: { meshKey: string; value: KeptSuggestions }[] = [];
    const setAside: string[] = [];
    for (const row of bySceneRows.get(sceneId) ?? []) {
      const r = readStoredSuggestions(row);
      if (r.ok) {
        readable.push({ meshKey: row.meshKey, value: r.value });
        continue;
      }
      await db.transaction('rw', db.setAside, db.suggestions, async () => {
        await db.setAside.add({ table: 'suggestions', reason: r.reason, at: Date.now(), row });
        await db.suggestions.delete([row.sceneId, row.meshKey]);
      });
      setAside.push(`Stored suggestions for ${sceneId} on scan ${row.meshKey} could not be read (${r.reason}); they were set aside unchanged.`);
    }
    const exact = readable.find((r) => r.meshKey === meshKey);
    const latest = readable.sort((a, b) => b.value.computedAt - a.value.computedAt)[0];
    out.set(sceneId, { kept: (exact ?? latest)?.value ?? null, setAside });
  }
  return out;
}
