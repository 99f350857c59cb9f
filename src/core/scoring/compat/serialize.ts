import { pyDumps, pyDumpValue, pyJsonFloat, pyQuote } from './pyDumps.ts';
import type { CompatRecord, CompatRecordBase, CompatSummary } from './types.ts';

/**
 * The per-record JSONL: one `json.dumps(record, ensure_ascii=False)` per line, each ending in
 * "\n", built as one string. Each record kind's line is spelled out field by field in the
 * released scorer's key order (a test checks it against a generic dump of the record).
 */
export function toJsonl(records: readonly CompatRecord[]): string {
  let out = '';
  for (const r of records) out += recordLine(r) + '\n';
  return out;
}

/** `json.dumps(record, ensure_ascii=False)`. */
export function recordLine(r: CompatRecord): string {
  const head = baseFields(r);
  if (!r.ok) return `{${head}, "ok": false, "error": ${pyQuote(r.error)}${'derive_method' in r ? ', "derive_method": null' : ''}}`;
  const guessed = `"derive_method": "${r.derive_method}", "src_name": ${pyQuote(r.src_name)}, "tgt_name": ${pyQuote(r.tgt_name)}, "src_id": ${pyQuote(r.src_id)}, "tgt_id": ${pyQuote(r.tgt_id)}`;
  if (r.format_error) {
    return `{${head}, "ok": true, "format_error": true, "format_error_type": "${r.format_error_type}", ${guessed}, "vlm_answer": "fail", `
      + '"vlm_path_names_raw": [], "vlm_path_names_mapped": [], "vlm_path_ids": [], "pv_valid": null, "pv_errors": [], '
      + '"rta_applicable": false, "traversability_score": null, "rv_applicable": false, "rv_score": null, "rv_judge_explanation": null, '
      + `"rv_llm_model": ${pyQuote(r.rv_llm_model)}, "ground_truth_doable": ${r.ground_truth_doable}, "correct_answer": false, "binary_bucket": "${r.binary_bucket}"}`;
  }
  return `{${head}, "ok": true, "format_error": false, "format_error_type": null, "binary_bucket": null, ${guessed}, "vlm_answer": "${r.vlm_answer}", `
    + `"vlm_path_names_raw": ${strings(r.vlm_path_names_raw)}, "vlm_path_names_mapped": ${strings(r.vlm_path_names_mapped)}, "vlm_path_ids": ${strings(r.vlm_path_ids)}, `
    + `"pv_valid": ${r.pv_valid}, "pv_errors": ${strings(r.pv_errors)}, "rta_applicable": ${r.rta_applicable}, `
    + `"traversability_score": ${float(r.traversability_score)}, "rv_applicable": ${r.rv_applicable}, "rv_score": ${float(r.rv_score)}, `
    + `"rv_judge_explanation": ${str(r.rv_judge_explanation)}, "rv_llm_model": ${pyQuote(r.rv_llm_model)}, `
    + `"ground_truth_doable": ${r.ground_truth_doable}, "correct_answer": ${r.correct_answer}}`;
}

function baseFields(r: CompatRecordBase): string {
  return `"qid": ${pyQuote(r.qid)}, "scene": ${pyQuote(r.scene)}, "agent": ${pyDumpValue(r.agent)}, "entry_idx": ${r.entry_idx}, "status": null, `
    + `"question": ${pyDumpValue(r.question)}, "source_file": ${pyQuote(r.source_file)}, "model_setting": ${pyQuote(r.model_setting)}, `
    + `"prompt_file": ${pyDumpValue(r.prompt_file)}, "time_sec": ${pyDumpValue(r.time_sec)}`;
}

function str(s: string | null): string {
  return s === null ? 'null' : pyQuote(s);
}

function float(x: number | null): string {
  return x === null ? 'null' : pyJsonFloat(x);
}

function strings(items: readonly (string | null)[]): string {
  if (items.length === 0) return '[]';
  let out = '[' + str(items[0]!);
  for (let i = 1; i < items.length; i++) out += ', ' + str(items[i]!);
  return out + ']';
}

/** Summary keys whose numbers Python holds as floats (the counters are ints). */
const SUMMARY_FLOATS = new Set([
  'rta_sum', 'rv_sum', 'accuracy', 'pv_validity_rate', 'avg_traversability_score', 'avg_rv_score', 'capnav_score', 'f1', 'pv', 'rta', 'rv',
  'pv_applicable_frac_over_ok', 'rta_applicable_frac_over_ok', 'rv_applicable_frac_over_ok', 'precision', 'recall', 'f1_score',
]);

/** The summary as `json.dumps(summary, indent=2, ensure_ascii=False)` writes it (no final newline). */
export function toSummaryJson(summary: CompatSummary): string {
  return pyDumps(summary, { indent: 2, floatKeys: SUMMARY_FLOATS, ensureAscii: false });
}
