import type { CompatRecord, CompatSummary } from './types.ts';

/**
 * §2 step 9. Failed records are counted and nothing else. Every mean is a plain mean over its own
 * subset, 0.0 when the subset is empty, with sums accumulated record by record in input order
 * (`rta_sum += score`, not Python 3.12's compensated `sum()`), so the floats match to the bit:
 * - PV over scored records without a format error;
 * - RTA over yes-answers with a valid path; RV over no-answers without a format error;
 * - the confusion matrix over all scored records, format errors included as FN/FP;
 *   precision = TP/(TP+FP), recall = TP/(TP+FN), F1 = 2·P·R/(P+R), each 0.0 on a zero denominator;
 * - capnav_score = (F1 + PV + RTA + RV) / 4, fractions in [0, 1], not rounded, not percentages.
 */
export function summarise(records: readonly CompatRecord[]): CompatSummary {
  let nOk = 0, nCorrect = 0, pvTotal = 0, pvValid = 0, rtaCount = 0, rtaSum = 0, rvCount = 0, rvSum = 0, formatErrors = 0;
  const buckets = { TP: 0, FP: 0, TN: 0, FN: 0 };
  const failReasons: Record<string, number> = {};
  const methods: Record<string, number> = {};
  const formatTypes: Record<string, number> = {};
  const count = (into: Record<string, number>, key: string) => { into[key] = (into[key] ?? 0) + 1; };

  for (const r of records) {
    if (!r.ok) { count(failReasons, r.error ?? 'unknown'); continue; }
    nOk++;
    if (r.derive_method) count(methods, r.derive_method);
    if (r.correct_answer) nCorrect++;
    if (r.binary_bucket) buckets[r.binary_bucket]++;
    if (r.format_error) { formatErrors++; count(formatTypes, r.format_error_type ?? 'unknown'); continue; }
    pvTotal++;
    if (r.pv_valid) pvValid++;
    if (r.rta_applicable) { rtaCount++; rtaSum += r.traversability_score ?? 0; }
    if (r.rv_applicable) { rvCount++; rvSum += r.rv_score ?? 0; }
  }

  const precision = buckets.TP + buckets.FP ? buckets.TP / (buckets.TP + buckets.FP) : 0;
  const recall = buckets.TP + buckets.FN ? buckets.TP / (buckets.TP + buckets.FN) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const pv = pvTotal ? pvValid / pvTotal : 0;
  const rta = rtaCount ? rtaSum / rtaCount : 0;
  const rv = rvCount ? rvSum / rvCount : 0;
  return {
    n_records: records.length,
    n_ok: nOk,
    n_fail: records.length - nOk,
    n_correct: nCorrect,
    pv_total: pvTotal,
    pv_valid: pvValid,
    rta_count: rtaCount,
    rta_sum: rtaSum,
    rv_count: rvCount,
    rv_sum: rvSum,
    format_errors: formatErrors,
    capnav_score: (f1 + pv + rta + rv) / 4,
    capnav_components: { f1, pv, rta, rv },
    binary_classification: { ...buckets, precision, recall, f1 },
    fail_reason_count: failReasons,
    derive_method_count: methods,
    format_error_details: formatTypes,
  };
}
