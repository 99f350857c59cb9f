import type { AgentProfile } from '../../agents.ts';
import type { ReasonCategory } from '../../rules.ts';
import { deniedAbilities } from '../judges/categories.ts';
import type { FailureMode, ScoredRecord } from './types.ts';

const HALLUCINATED_PATH = new Set(['no-edge', 'wrong-start', 'wrong-end', 'unknown-node']);
const DIMENSIONAL: readonly ReasonCategory[] = ['narrow', 'turning'];

/**
 * CapNav §4.3's failure modes, detected mechanically on a scored record:
 * - path hallucination: the path names a node that does not exist, links nodes without an edge,
 *   or does not start at the start / end at the end (an empty path is missing, not hallucinated);
 * - obstacle hallucination: "no" on a task that is feasible for the agent;
 * - dimension neglect: "yes" through a narrow-passage or turning-space obstacle — a hop of the
 *   path blocked for that reason, or, when no hop of the path is a blocked edge, an infeasible
 *   task whose blocking obstacles include one;
 * - ability hallucination: a "no" whose reason (read by the rule judge's keyword map) blames
 *   stairs, or says the agent cannot open a door or use a lift, when its profile says it can.
 * The paper found these by inspection; these rules are an approximation of its definitions.
 */
export function failureModesOf(rec: ScoredRecord, profile: AgentProfile | undefined): FailureMode[] {
  const modes: FailureMode[] = [];
  if (rec.pathTokens.length && rec.pathErrors.some((e) => HALLUCINATED_PATH.has(e.kind))) modes.push('path-hallucination');
  if (rec.answer === 'no' && rec.gtFeasible === true) modes.push('obstacle-hallucination');
  if (rec.answer === 'yes') {
    let blocked = false,
      dimensional = false;
    for (const h of rec.hops) {
      if (!h.isEdge || h.traversable !== false) continue;
      blocked = true;
      if (h.categories?.some((c) => DIMENSIONAL.includes(c))) dimensional = true;
    }
    const neglected = blocked ? dimensional : rec.gtFeasible === false && rec.obstacleTypes.some((c) => DIMENSIONAL.includes(c));
    if (neglected) modes.push('dimension-neglect');
  }
  if (rec.answer === 'no' && profile && rec.reason.trim()) {
    const denied = deniedAbilities(rec.reason);
    if (
      (denied.includes('stairs') && profile.canUseStairs) ||
      (denied.includes('door') && profile.canOpenDoors) ||
      (denied.includes('lift') && profile.canUseElevator)
    ) {
      modes.push('ability-hallucination');
    }
  }
  return modes;
}
