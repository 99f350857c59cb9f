import type { Project } from '../project.ts';
import { groundTruth } from '../scoring/paper/groundTruth.ts';
import { scorePrediction } from '../scoring/paper/record.ts';
import { DEFAULT_WEIGHTS, type Outcome, type Prediction, type RecordStatus, type Weights } from '../scoring/paper/types.ts';
import { judgeByCategories } from '../scoring/judges/rule.ts';

/**
 * A task-level reward for RL (issue 27 §4; CapNav §5 plans "RL-based tuning with task-level rewards
 * under embodiment constraints"): one model answer scored exactly as the benchmark scores its record
 * (core/scoring/paper/record.ts, the offline rule judge for the reason), and the per-record terms
 * folded into one number with the composite's weights.
 */
export interface Reward {
  /** `scored`, or why the benchmark would not score it (unmatched, a hallucinated or unresolved question): no reward then. */
  status: RecordStatus;
  note?: string;
  outcome: Outcome | null;
  /** 1 when the yes/no answer is the ground truth's (TP or TN), else 0. */
  feasibility: 0 | 1 | null;
  /** 1 when the route is a valid path from the start to the end on the graph. */
  pathValid: 0 | 1 | null;
  /** Route-to-answer: the share of the route's hops traversable for the agent (a "yes" with a valid route only). */
  rta: number | null;
  /** Reason validity by the offline rule judge (a "no" only). */
  rv: number | null;
  /**
   * The weighted mean of the terms that apply to this record — feasibility and path validity always,
   * RTA for a "yes" on a valid route, RV for a "no" — with the composite's weights (F1's weight on
   * feasibility); null when the record is not scored.
   */
  reward: number | null;
}

/** The answer a policy gave, in the runner's JSON answer shape (plus where it belongs). */
export interface PolicyAnswer {
  scene: string;
  question: string;
  questionIndex?: number | null;
  agent: string;
  answer: string;
  path: readonly string[];
  reason: string;
}

export function rewardOf(project: Project, a: PolicyAnswer | Prediction, weights: Weights = DEFAULT_WEIGHTS): Reward {
  const pred: Prediction =
    'id' in a ? a : { id: 'answer', file: '', location: '', model: 'policy', ...a, questionIndex: a.questionIndex ?? null, path: [...a.path] };
  const { record, pending } = scorePrediction(groundTruth(project), pred, true);
  if (pending) record.rv = judgeByCategories(pending.request).correct ? 1 : 0;
  if (record.status !== 'scored')
    return {
      status: record.status,
      ...(record.note ? { note: record.note } : {}),
      outcome: null,
      feasibility: null,
      pathValid: null,
      rta: null,
      rv: null,
      reward: null,
    };
  const feasibility = record.outcome === 'TP' || record.outcome === 'TN' ? 1 : 0;
  const pathValid = record.pathValid ? 1 : 0;
  const terms: [number, number][] = [
    [weights.f1, feasibility],
    [weights.pv, pathValid],
  ];
  if (record.rta !== null) terms.push([weights.rta, record.rta]);
  if (record.rv !== null) terms.push([weights.rv, record.rv]);
  const total = terms.reduce((s, [w]) => s + w, 0);
  return {
    status: 'scored',
    outcome: record.outcome,
    feasibility,
    pathValid,
    rta: record.rta,
    rv: record.rv,
    reward: total > 0 ? terms.reduce((s, [w, v]) => s + w * v, 0) / total : 0,
  };
}
