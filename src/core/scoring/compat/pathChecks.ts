import type { SceneIndex } from './sceneIndex.ts';

/**
 * §2 step 6, errors in this order, as strings:
 * `empty_path`; `unresolved_tokens` (once, if any token is unresolved); `start_mismatch` (first
 * token's id ≠ src, an unresolved first token included); `end_mismatch`; `repeated_nodes`;
 * `missing_edge:<u>-><v>` for each consecutive pair of the RESOLVED ids (unresolved tokens are
 * skipped over) that no graph edge joins. An empty path reports only `empty_path`.
 */
export function pathErrors(ids: readonly (string | null)[], src: string, tgt: string, scene: SceneIndex): string[] {
  if (ids.length === 0) return ['empty_path'];
  const errors: string[] = [];
  if (ids.includes(null)) errors.push('unresolved_tokens');
  if (ids[0] !== src) errors.push('start_mismatch');
  if (ids[ids.length - 1] !== tgt) errors.push('end_mismatch');
  const resolved = resolvedIds(ids);
  if (new Set(resolved).size !== resolved.length) errors.push('repeated_nodes');
  for (let i = 0; i + 1 < resolved.length; i++) {
    const u = resolved[i]!, v = resolved[i + 1]!;
    if (!scene.hasEdge(u, v)) errors.push(`missing_edge:${u}->${v}`);
  }
  return errors;
}

export function resolvedIds(ids: readonly (string | null)[]): string[] {
  return ids.filter((id): id is string => id !== null);
}

/** §2 step 7: traversable consecutive pairs / pairs, a Python float. Only called on valid paths (≥ 2 nodes). */
export function traversabilityScore(ids: readonly string[], agent: string, scene: SceneIndex): number {
  let ok = 0;
  for (let i = 0; i + 1 < ids.length; i++) if (scene.traversable(agent, ids[i]!, ids[i + 1]!)) ok++;
  return ok / (ids.length - 1);
}

/**
 * §2 step 8: the notes of the non-traversable consecutive pairs of resolved ids, first
 * occurrence kept (`dict.fromkeys`). A missing or empty note becomes
 * `Edge <u>-><v> not traversable for <AGENT>`, with the agent as the prediction names it
 * (`HUMANOID`, not `ROBOT`).
 */
export function failureNotes(ids: readonly string[], agent: string, scene: SceneIndex): string[] {
  const notes = new Set<string>();
  for (let i = 0; i + 1 < ids.length; i++) {
    const u = ids[i]!, v = ids[i + 1]!;
    const label = scene.label(agent, u, v);
    if (label?.traversable) continue;
    notes.add(label?.note || `Edge ${u}->${v} not traversable for ${agent}`);
  }
  return [...notes];
}
