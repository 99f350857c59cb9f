import type { PyValue } from './pyValue.ts';

/**
 * Inputs and outputs of the reference-compatible scorer. Field names, their order and their
 * values are the released Python scorer's (docs/scoring.md §2, "Exact output"), so its JSONL and
 * summary can be diffed against ours record by record.
 */

/** One `*.json` file under the results root: path relative to the root (`/`-separated) and its text. */
export interface CompatInputFile {
  path: string;
  text: string;
}

/** One traverse-file entry, reduced to what the scorer reads (Python truthiness already applied). */
export interface CompatLabel {
  traversable: boolean;
  /** The annotator's note when it is a string (unstripped), else null (the scorer then writes its own). */
  note: string | null;
  /** The entry was `{}`: falsy in Python, so the note lookup (`a|b or b|a`) passes over it. */
  empty?: boolean;
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
 * Decides whether a non-empty reason matches the ground-truth notes: 1 or 0. The released scorer
 * rebuilds the answer line without the reason, so a reason reaches the judge only when a path
 * item smuggles one in (`"x | Reason: …"`); an empty reason scores 0 without asking the judge.
 */
export type CompatJudge = (reason: string, notes: readonly string[]) => 0 | 1;

/** The strings the released scorer takes from its settings: paths and the judge's model name. */
export interface CompatSettings {
  /** `str(RESULT_ROOT)`: input paths are joined to it (`source_file`, `model_setting`). Default `results`. */
  resultRoot?: string;
  /** `str(GT_ROOT)`. Default `ground_truth`. */
  gtRoot?: string;
  /** `rv_llm_model` of every parsed record and the summary. Default `none`. */
  rvModel?: string;
  /** `per_record_output`. Default `<resultRoot>/scored_per_record.jsonl`. */
  perRecordOutput?: string;
}

export interface CompatOptions extends CompatSettings {
  /** Defaults to a judge that returns 0. */
  judge?: CompatJudge;
}

export type FormatErrorType = 'empty_output' | 'cannot_parse_answer_path' | 'yes_without_path';
export type DeriveMethod = 'from_to_partition' | 'degraded_closest' | 'fallback_first_last';
export type BinaryBucket = 'TP' | 'FP' | 'TN' | 'FN';
/** Why a whole file counted as one failed record (it writes no record). */
export type FileFailReason = 'invalid_json' | 'missing_scene' | 'missing_result' | 'result_not_list' | 'empty_result_items_or_missing_fields';
/**
 * Why an item failed. `unknown_scene` is ours: the released scorer stops with FileNotFoundError
 * on a scene whose graph or traverse file is missing.
 */
export type RecordFailReason = 'missing_scene_agent_or_question' | 'empty_question' | 'no_node_name_hit_in_question' | 'no_hits_after_from' | 'unknown_scene';

/** The ten fields every record starts with, in this order. */
export interface CompatRecordBase {
  /** `<result file name without .json>:<index of the item in result>`. */
  qid: string;
  scene: string;
  /** The item's values as they were, null when missing. */
  agent: PyValue;
  entry_idx: number;
  status: null;
  question: PyValue;
  /** `str(RESULT_ROOT / <path>)`. */
  source_file: string;
  /** Name of the folder two levels above the file (`results/<model_setting>/<SCENE>/x.json`). */
  model_setting: string;
  prompt_file: PyValue;
  time_sec: PyValue;
}

/** A structural failure: left out of every metric. `derive_method` (always null) is there when the endpoint guess ran. */
export interface CompatFailedRecord extends CompatRecordBase {
  ok: false;
  error: RecordFailReason;
  derive_method?: null;
}

/** Endpoint-guess fields shared by the two scored kinds. */
interface Guessed {
  derive_method: DeriveMethod;
  src_name: string;
  tgt_name: string;
  src_id: string;
  tgt_id: string;
}

/** The answer line did not parse: a wrong answer, FN when feasible and FP when not. */
export interface CompatFormatErrorRecord extends CompatRecordBase, Guessed {
  ok: true;
  format_error: true;
  format_error_type: FormatErrorType;
  vlm_answer: 'fail';
  vlm_path_names_raw: [];
  vlm_path_names_mapped: [];
  vlm_path_ids: [];
  pv_valid: null;
  pv_errors: [];
  rta_applicable: false;
  traversability_score: null;
  rv_applicable: false;
  rv_score: null;
  rv_judge_explanation: null;
  rv_llm_model: string;
  ground_truth_doable: boolean;
  correct_answer: false;
  binary_bucket: 'FN' | 'FP';
}

/** A parsed answer; `binary_bucket` is null, the summary classifies it from `vlm_answer` and `ground_truth_doable`. */
export interface CompatParsedRecord extends CompatRecordBase, Guessed {
  ok: true;
  format_error: false;
  format_error_type: null;
  binary_bucket: null;
  vlm_answer: 'yes' | 'no';
  vlm_path_names_raw: string[];
  /** The node name each token was matched to; all null when the tokens were used as ids directly. */
  vlm_path_names_mapped: (string | null)[];
  /** Null per unresolved token. */
  vlm_path_ids: (string | null)[];
  pv_valid: boolean;
  pv_errors: string[];
  rta_applicable: boolean;
  /** A Python float when applicable. */
  traversability_score: number | null;
  rv_applicable: boolean;
  /** 0.0 or 1.0 (Python floats) for a "no". */
  rv_score: number | null;
  rv_judge_explanation: string | null;
  rv_llm_model: string;
  ground_truth_doable: boolean;
  correct_answer: boolean;
}

export type CompatRecord = CompatFailedRecord | CompatFormatErrorRecord | CompatParsedRecord;

export interface CompatSummary {
  n_records: number;
  n_ok: number;
  n_fail: number;
  n_correct: number;
  pv_total: number;
  pv_valid: number;
  rta_count: number;
  /** A Python float. */
  rta_sum: number;
  rv_count: number;
  /** A Python float. */
  rv_sum: number;
  format_errors: number;
  accuracy: number;
  pv_validity_rate: number;
  avg_traversability_score: number;
  avg_rv_score: number;
  capnav_score: number;
  capnav_components: { f1: number; pv: number; rta: number; rv: number };
  coverage: { pv_applicable_frac_over_ok: number; rta_applicable_frac_over_ok: number; rv_applicable_frac_over_ok: number };
  /** Failure reason → count, in order of first occurrence. */
  fail_reason_count: Record<string, number>;
  /** Derivation method → count over scored records, in order of first occurrence. */
  derive_method_count: Record<string, number>;
  /** Format error type → count, in order of first occurrence. */
  format_error_details: Record<string, number>;
  binary_classification: { TP: number; FP: number; FN: number; TN: number; precision: number; recall: number; f1_score: number; accuracy: number };
  result_root: string;
  gt_root: string;
  rv_llm_model: string;
  n_input_files_scanned: number;
  per_record_output: string;
}

/** One input file's outcome, in the order the scorer read them. */
export interface CompatFileOutcome {
  path: string;
  /** Set when the file counted as one failed record and wrote none. */
  failure: FileFailReason | null;
  records: CompatRecord[];
}

export interface CompatResult {
  /** Every record, in output order. */
  records: CompatRecord[];
  summary: CompatSummary;
  files: CompatFileOutcome[];
  /** Prediction files that did not parse (each one failed `invalid_json` file), with the parser's reason. */
  unreadable: { path: string; message: string }[];
}
