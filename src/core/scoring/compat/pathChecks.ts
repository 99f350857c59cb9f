import type { SceneIndex } from './sceneIndex.ts';

/**
 * §2 step 6 (`pv_strict`), errors in this order: an empty path gives only `empty_path`; else
 * `unresolved_node_in_path` (once, if any token is unresolved), `path_start_not_src` (the first
 * token's id, unresolved included, is not the source), `path_end_not_tgt`,
 * `not_simple_path_repeated_nodes` (among the resolved ids), then `missing_edge:<u>-><v>` for
 * each pair of ADJACENT tokens that both resolved and that no graph edge joins (a pair with an
 * unresolved token is passed over, never bridged).
 */
export function pathErrors(ids: readonly (string | null)[], src: string, tgt: string, scene: SceneIndex): string[] {
  if (ids.length === 0) return ['empty_path'];
  const errors: string[] = [];
  if (ids.includes(null)) errors.push('unresolved_node_in_path');
  if (ids[0] !== src) errors.push('path_start_not_src');
  if (ids[ids.length - 1] !== tgt) errors.push('path_end_not_tgt');
  if (repeats(ids)) errors.push('not_simple_path_repeated_nodes');
  for (let i = 0; i + 1 < ids.length; i++) {
    const u = ids[i],
      v = ids[i + 1];
    if (u === null || v === null || u === undefined || v === undefined) continue;
    if (!scene.hasEdge(u, v)) errors.push(`missing_edge:${u}->${v}`);
  }
  return errors;
}

/** Whether a resolved id comes twice (`len(clean) != len(set(clean))`); paths are short, so no set is built. */
function repeats(ids: readonly (string | null)[]): boolean {
  for (let i = 1; i < ids.length; i++) {
    const id = ids[i];
    if (id === null) continue;
    for (let j = 0; j < i; j++) if (ids[j] === id) return true;
  }
  return false;
}

export function resolvedIds(ids: readonly (string | null)[]): string[] {
  return ids.filter((id): id is string => id !== null);
}

/** §2 step 7: traversable consecutive pairs / pairs, a Python float; null for fewer than two nodes. */
export function traversabilityScore(ids: readonly string[], scene: SceneIndex, agentKey: string | null): number | null {
  if (ids.length < 2) return null;
  let ok = 0;
  for (let i = 0; i + 1 < ids.length; i++) if (scene.traversable(agentKey, ids[i]!, ids[i + 1]!)) ok++;
  return ok / (ids.length - 1);
}
