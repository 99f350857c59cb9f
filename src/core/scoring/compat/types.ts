/**
 * Inputs and outputs of the reference-compatible scorer. Field names are the released Python
 * scorer's, so its JSONL and summary can be diffed against ours record by record.
 */

/** One `*.json` file under the results root: path relative to the root (`/`-separated) and its text. */
export interface CompatInputFile {
  path: string;
  text: string;
}

/** One traverse-file entry, reduced to what the scorer reads (Python truthiness already applied). */
export interface CompatLabel {
  traversable: boolean;
  /** The annotator's note, or null when it is missing or empty (the scorer then writes its own). */
  note: string | null;
}

/** What the released scorer knows of one scene: the graph and the traverse table, nothing else. */
export interface CompatSceneTruth {
  /** In file order: duplicate names resolve by this order. */
  nodes: readonly { id: string; name: string }[];
  edges: readonly { from: string; to: string }[];
  /** Agent key as written in the traverse file (`ROBOT`, not `HUMANOID`) → `a|b` → label. */
  traverse: Readonly<Record<string, Readonly<Record<string, CompatLabel>>>>;
}

/** Scene id → truth. The QA files play no part: the scorer guesses endpoints from the question text. */
export type CompatGroundTruth = ReadonlyMap<string, CompatSceneTruth>;

/**
 * Decides whether a reason matches the ground-truth notes: 1 or 0. In reference mode the reason
 * is always "" (the released scorer drops it), so a sensible judge returns 0.
 */
export type CompatJudge = (reason: string, notes: readonly string[]) => 0 | 1;

export interface CompatOptions {
  /** Defaults to a judge that returns 0, which is what the rule judge answers to an empty reason. */
  judge?: CompatJudge;
}

export type FormatErrorType = 'cannot_parse_answer_path' | 'yes_without_path';
export type DeriveMethod = 'from_to' | 'from_to_nearest' | 'first_last';
export type BinaryBucket = 'TP' | 'FP' | 'TN' | 'FN';
export type FailReason =
  | 'invalid_json' | 'not_a_dict' | 'missing_scene' | 'result_not_list'
  | 'unknown_scene' | 'no_node_name_hit_in_question';

export interface CompatRecord {
  /** `<scene>::<question>::<agent>`; for a file that failed as a whole, the file's path. */
  qid: string;
  scene: string | null;
  agent: string | null;
  ok: boolean;
  error: FailReason | null;
  format_error: boolean;
  format_error_type: FormatErrorType | null;
  derive_method: DeriveMethod | null;
  src_id: string | null;
  tgt_id: string | null;
  /** The re-parsed answer: true for (A) True; null for failed records and format errors. */
  vlm_answer: boolean | null;
  /** One entry per path token: its node id, or null when unresolved. Null for failed records and format errors. */
  vlm_path_ids: (string | null)[] | null;
  pv_valid: boolean | null;
  pv_errors: string[];
  rta_applicable: boolean;
  /** A Python float when applicable. */
  traversability_score: number | null;
  rv_applicable: boolean;
  rv_score: 0 | 1 | null;
  ground_truth_doable: boolean | null;
  correct_answer: boolean | null;
  binary_bucket: BinaryBucket | null;
}

export interface CompatSummary {
  n_records: number;
  n_ok: number;
  n_fail: number;
  n_correct: number;
  pv_total: number;
  pv_valid: number;
  rta_count: number;
  /** A Python float once anything was added, the int 0 before. */
  rta_sum: number;
  rv_count: number;
  rv_sum: number;
  format_errors: number;
  capnav_score: number;
  capnav_components: { f1: number; pv: number; rta: number; rv: number };
  binary_classification: { TP: number; FP: number; TN: number; FN: number; precision: number; recall: number; f1: number };
  /** Failure reason → count, in order of first occurrence (a Python Counter). */
  fail_reason_count: Record<string, number>;
  /** Derivation method → count over records that were scored, in order of first occurrence. */
  derive_method_count: Record<string, number>;
  /** Format error type → count, in order of first occurrence. */
  format_error_details: Record<string, number>;
}

export interface CompatResult {
  records: CompatRecord[];
  summary: CompatSummary;
  /** Prediction files that did not parse (each one failed `invalid_json` record), with the parser's reason. */
  unreadable: { path: string; message: string }[];
}
