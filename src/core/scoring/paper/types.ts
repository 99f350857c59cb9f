import type { PathError } from '../../pathValidity.ts';
import type { Problem } from '../../problems.ts';
import type { ReasonCategory } from '../../rules.ts';
import type { BootstrapSettings } from '../bootstrap.ts';
import type { Judge, JudgeInfo } from '../judges/types.ts';

/**
 * One model prediction for one (scene, question, agent), as the prediction readers
 * (src/formats/predictions) deliver it. Values are kept as written; interpreting them (answer,
 * path tokens) is the scorer's job so that every reading decision shows up per record.
 */
export interface Prediction {
  /** Unique within a run: `<file>#<location>`. */
  id: string;
  /** File it came from, relative to the results folder. */
  file: string;
  /** Where in the file: a JSON pointer (`/result/3`) or `line 12`. */
  location: string;
  /** The model setting (CapNav: the results sub-folder, e.g. `gemini-2.5-pro_64f`). */
  model: string;
  scene: string;
  /** The question text as the model output repeats it (`[Agent]` or the agent's name). */
  question: string;
  /** Position of the question in the scene's QA file (from 0), when the source gives it. */
  questionIndex?: number | null;
  agent: string;
  /** The answer as written; booleans become "true"/"false". */
  answer: string;
  /** Path tokens as written: node ids, names, or `id — name`. */
  path: string[];
  reason: string;
}

export const FAILURE_MODES = ['path-hallucination', 'obstacle-hallucination', 'dimension-neglect', 'ability-hallucination'] as const;
/** CapNav §4.3's failure-mode taxonomy, detected per record (see failureModes.ts for the rules). */
export type FailureMode = (typeof FAILURE_MODES)[number];

export type Outcome = 'TP' | 'FP' | 'TN' | 'FN';

/** Why a record is not in the metrics. */
export type RecordStatus = 'scored' | 'unmatched' | 'excluded-hallucinated' | 'excluded-unresolved';

export interface Hop {
  /** Resolved node ids of the two tokens (null when a token names no node). */
  from: string | null;
  to: string | null;
  /** The two nodes share an edge. */
  isEdge: boolean;
  /** The agent's label for this hop (walked direction, else reverse); null when not an edge; false when unlabelled. */
  traversable: boolean | null;
  note?: string;
  /** Obstacle category of a not-traversable hop (label's reason, else the rule mapping of its note). */
  categories?: ReasonCategory[];
}

/**
 * One prediction and everything the scorer decided about it. Per-record values are fractions
 * (`rta` = 0.75 for 3 of 4 traversable hops, `rv` 0 or 1); metric sets are percentages.
 */
export interface ScoredRecord {
  id: string;
  file: string;
  location: string;
  model: string;
  scene: string;
  questionIndex: number | null;
  question: string;
  agent: string;
  matched: boolean;
  parseable: boolean;
  answer: 'yes' | 'no' | null;
  answerRaw: string;
  pathTokens: string[];
  pathIds: (string | null)[];
  reason: string;
  src: string | null;
  tgt: string | null;
  gtFeasible: boolean | null;
  pathValid: boolean | null;
  pathErrors: PathError[];
  hops: Hop[];
  rta: number | null;
  rv: number | null;
  judge?: { correct: boolean; judge: string; explanation?: string; cached?: boolean; error?: string };
  outcome: Outcome | null;
  obstacleTypes: ReasonCategory[];
  failureModes: FailureMode[];
  /** Added: whether and why the record counts. */
  status: RecordStatus;
  /** Added: for unmatched and excluded records, why. */
  note?: string;
  /** Added: why RV is 0 without asking the judge (`no-route`, `no-reason`). */
  rvRule?: 'no-route' | 'no-reason';
}

/** Scored records whose shortest route on the graph has `hops` hops (the last bucket: that many or more; `not connected`: none). */
export interface PathLengthBucket {
  label: string;
  /** The bucket's shortest length in hops; null for `not connected`. */
  hops: number | null;
  metrics: MetricSet;
}

export const METRICS = ['f1', 'precision', 'recall', 'pv', 'rta', 'rv', 'capnav'] as const;
export type MetricName = (typeof METRICS)[number];

/** Metrics of a set of records, as percentages (0–100); null when undefined (empty denominator). */
export interface MetricSet {
  f1: number | null;
  precision: number | null;
  recall: number | null;
  pv: number | null;
  rta: number | null;
  rv: number | null;
  /** λ-weighted sum of F1, PV, RTA, RV; a component that is undefined is left out and the weights renormalised. */
  capnav: number | null;
  /** `unjudged`: records whose reason the judge was asked about and could not judge (RV unknown). */
  n: { records: number; parseable: number; rta: number; rv: number; unjudged: number };
  /**
   * Set when some records' RV is unknown (the judge failed on them): then `rv` and `capnav` are
   * withheld (null) — averaging over the judged records alone, or over three metrics, would raise
   * the score — and these are the values they would take were every unjudged reason wrong (`low`)
   * or right (`high`).
   */
  incomplete?: { rv: [low: number, high: number]; capnav: [low: number, high: number] | null };
  /** Bootstrap 95 % (or `level`) percentile intervals, when resampling was asked for. */
  ci?: Partial<Record<MetricName, [number, number]>>;
}

export interface Weights {
  f1: number;
  pv: number;
  rta: number;
  rv: number;
}
export const DEFAULT_WEIGHTS: Weights = { f1: 0.25, pv: 0.25, rta: 0.25, rv: 0.25 };

export type Averaging = 'micro' | 'macro';

export interface PaperOptions {
  weights?: Weights;
  /** null: RV is not computed (the composite renormalises over F1, PV, RTA). */
  judge?: Judge | null;
  /** Which aggregate `headline` is: all records pooled (micro) or the mean over agents (macro). */
  averaging?: Averaging;
  bootstrap?: Partial<BootstrapSettings>;
  /** Judge requests in flight at once (HTTP judges). */
  judgeConcurrency?: number;
}

export interface ObstacleAccuracy {
  /** Infeasible tasks whose work list has this obstacle type for the agent. */
  n: number;
  /** Of those, answered "no" with a reason the judge accepted (CapNav Fig. 5). */
  correct: number;
  accuracy: number | null;
  /** Added: of those, answered "no" at all (feasibility alone). */
  answeredNo: number;
}

export interface PaperReport {
  settings: { weights: Weights; judge: JudgeInfo; averaging: Averaging; bootstrap: BootstrapSettings };
  overall: MetricSet;
  perAgent: Record<string, MetricSet>;
  macro: MetricSet;
  /** Added: `overall` or `macro`, as `settings.averaging` chooses. */
  headline: MetricSet;
  confusion: { tp: number; fp: number; tn: number; fn: number };
  byObstacle: Record<ReasonCategory, ObstacleAccuracy>;
  /** Added: the metrics by the task's length (hops of the shortest route on the graph), shortest first. */
  byPathLength: PathLengthBucket[];
  failureModes: Record<FailureMode, number>;
  /** Added: tasks predicted more than once (all their predictions are scored), and from which files. */
  duplicates: DuplicateSummary;
  /**
   * Added: records the judge could not judge, and why (error text → how many). When `count` > 0
   * the headline RV and composite are withheld (MetricSet.incomplete).
   */
  unjudged: { count: number; why: Record<string, number> };
  /** Added: counts of every error type over scored records (unparseable answers, path error kinds, judge failures…). */
  errorCounts: Record<string, number>;
  unmatched: ScoredRecord[];
  excludedHallucinated: number;
  /** Added: predictions on questions whose start or end names no node (no ground truth to score against). */
  excludedUnresolved: number;
  /** Added: the excluded records themselves, for traceability. */
  excluded: ScoredRecord[];
  problems: Problem[];
  records: ScoredRecord[];
}

/**
 * Tasks — (scene, question, agent) of one model — predicted more than once. Every prediction is
 * scored, as the released scorer scores every item it reads, so such a task counts once per
 * prediction in every metric. `sources` says which files the repeats came from: two files that
 * both hold the model's predictions (a results folder and a baseline of the same name) show up as
 * one group naming both.
 */
export interface DuplicateSummary {
  /** Tasks with more than one scored prediction. */
  tasks: number;
  /** Predictions beyond the first of each such task (what the metrics count extra). */
  extra: number;
  /** Per set of files the repeated predictions came from (sorted), how many tasks. Most tasks first. */
  sources: { files: string[]; tasks: number }[];
}
