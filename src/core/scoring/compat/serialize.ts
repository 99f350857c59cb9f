import { pyDumps, pyQuote } from './pyDumps.ts';
import { pyFloatRepr } from './pyText.ts';
import type { CompatRecord, CompatSummary } from './types.ts';

const SUMMARY_FLOATS = ['capnav_score', 'f1', 'pv', 'rta', 'rv', 'precision', 'recall'];

/** The per-record JSONL: one `json.dumps(record)` per line, each line ending in "\n". */
export function toJsonl(records: readonly CompatRecord[]): string {
  const lines = records.map(recordLine);
  return lines.length ? lines.join('\n') + '\n' : '';
}

/**
 * `json.dumps(record)`: what `pyDumps` would write, spelled out per field because a results
 * folder can hold 100,000 records. Keys in record order; `traversability_score` is the only float.
 */
export function recordLine(r: CompatRecord): string {
  return `{"qid": ${pyQuote(r.qid)}, "scene": ${str(r.scene)}, "agent": ${str(r.agent)}, "ok": ${r.ok}, "error": ${str(r.error)}, `
    + `"format_error": ${r.format_error}, "format_error_type": ${str(r.format_error_type)}, "derive_method": ${str(r.derive_method)}, `
    + `"src_id": ${str(r.src_id)}, "tgt_id": ${str(r.tgt_id)}, "vlm_answer": ${r.vlm_answer}, "vlm_path_ids": ${list(r.vlm_path_ids)}, `
    + `"pv_valid": ${r.pv_valid}, "pv_errors": ${list(r.pv_errors)}, "rta_applicable": ${r.rta_applicable}, `
    + `"traversability_score": ${r.traversability_score === null ? 'null' : pyFloatRepr(r.traversability_score)}, `
    + `"rv_applicable": ${r.rv_applicable}, "rv_score": ${r.rv_score}, "ground_truth_doable": ${r.ground_truth_doable}, `
    + `"correct_answer": ${r.correct_answer}, "binary_bucket": ${str(r.binary_bucket)}}`;
}

function str(s: string | null): string {
  return s === null ? 'null' : pyQuote(s);
}

function list(items: readonly (string | null)[] | null): string {
  if (items === null) return 'null';
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i ? ', ' : '') + str(items[i]!);
  return out + ']';
}

/**
 * The summary as `json.dump(summary, f, indent=2)` writes it (no final newline). `rta_sum`
 * starts as the int 0 and turns float with the first score added, so it prints `0` when no
 * record had an RTA and a float otherwise.
 */
export function toSummaryJson(summary: CompatSummary): string {
  const floats = new Set(summary.rta_count > 0 ? [...SUMMARY_FLOATS, 'rta_sum'] : SUMMARY_FLOATS);
  return pyDumps(summary, { indent: 2, floatKeys: floats });
}
