import type { CompatFileOutcome, CompatSummary } from './types.ts';

/** The summary's path and judge fields: what the released scorer reads from its settings. */
export interface SummarySettings {
  resultRoot: string;
  gtRoot: string;
  rvModel: string;
  perRecordOutput: string;
}

const ratio = (a: number, b: number) => (b ? a / b : 0);

/**
 * §2 step 9, as the released scorer's main loop counts, file by file in reading order:
 * - a file that failed whole adds one to `n_records`, `n_fail` and its reason;
 * - a failed record adds to `n_records`, `n_fail` and its reason, and nothing else;
 * - a scored record to `n_ok`, its derivation method, `n_correct`; a format error to
 *   `format_errors` and its type; the confusion matrix from `binary_bucket` when set, else from
 *   `vlm_answer` and `ground_truth_doable`; PV when it parsed; RTA when it has a
 *   traversability score, RV when it has an RV score (sums record by record, as floats).
 * Every mean and ratio is 0.0 on an empty denominator; capnav_score = (F1 + PV + RTA + RV) / 4.
 * Counting file by file lets a run keep no record: a model folder's counter sees its files in
 * the same order as the pooled one, so its float sums are those of a run on that folder alone.
 */
export class SummaryCounter {
  private nFiles = 0;
  private nRecords = 0; private nOk = 0; private nFail = 0; private nCorrect = 0; private pvTotal = 0; private pvValid = 0;
  private rtaCount = 0; private rtaSum = 0; private rvCount = 0; private rvSum = 0; private formatErrors = 0;
  private tp = 0; private fp = 0; private fn = 0; private tn = 0;
  private readonly failReasons: Record<string, number> = Object.create(null);
  private readonly methods: Record<string, number> = Object.create(null);
  private readonly formatTypes: Record<string, number> = Object.create(null);

  add(file: CompatFileOutcome): void {
    this.nFiles++;
    if (file.failure) { this.nRecords++; this.nFail++; count(this.failReasons, file.failure); return; }
    for (const r of file.records) {
      this.nRecords++;
      if (!r.ok) { this.nFail++; count(this.failReasons, r.error); continue; }
      this.nOk++;
      count(this.methods, r.derive_method);
      if (r.correct_answer) this.nCorrect++;
      if (r.format_error) {
        this.formatErrors++;
        count(this.formatTypes, r.format_error_type);
        if (r.binary_bucket === 'FN') this.fn++; else this.fp++;
        continue;
      }
      const yes = r.vlm_answer === 'yes', gt = r.ground_truth_doable;
      if (gt && yes) this.tp++; else if (!gt && yes) this.fp++; else if (gt && !yes) this.fn++; else this.tn++;
      this.pvTotal++;
      if (r.pv_valid) this.pvValid++;
      if (r.traversability_score !== null) { this.rtaCount++; this.rtaSum += r.traversability_score; }
      if (r.rv_score !== null) { this.rvCount++; this.rvSum += r.rv_score; }
    }
  }

  summary(settings: SummarySettings): CompatSummary {
    const { tp, fp, fn, tn, nOk } = this;
    const precision = ratio(tp, tp + fp);
    const recall = ratio(tp, tp + fn);
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    const pv = ratio(this.pvValid, this.pvTotal);
    const rta = ratio(this.rtaSum, this.rtaCount);
    const rv = ratio(this.rvSum, this.rvCount);
    return {
      n_records: this.nRecords, n_ok: nOk, n_fail: this.nFail, n_correct: this.nCorrect, pv_total: this.pvTotal, pv_valid: this.pvValid,
      rta_count: this.rtaCount, rta_sum: this.rtaSum, rv_count: this.rvCount, rv_sum: this.rvSum, format_errors: this.formatErrors,
      accuracy: ratio(this.nCorrect, nOk),
      pv_validity_rate: pv,
      avg_traversability_score: rta,
      avg_rv_score: rv,
      capnav_score: (f1 + pv + rta + rv) / 4,
      capnav_components: { f1, pv, rta, rv },
      coverage: {
        pv_applicable_frac_over_ok: ratio(this.pvTotal, nOk),
        rta_applicable_frac_over_ok: ratio(this.rtaCount, nOk),
        rv_applicable_frac_over_ok: ratio(this.rvCount, nOk),
      },
      fail_reason_count: { ...this.failReasons },
      derive_method_count: { ...this.methods },
      format_error_details: { ...this.formatTypes },
      binary_classification: { TP: tp, FP: fp, FN: fn, TN: tn, precision, recall, f1_score: f1, accuracy: ratio(tp + tn, tp + tn + fp + fn) },
      result_root: settings.resultRoot,
      gt_root: settings.gtRoot,
      rv_llm_model: settings.rvModel,
      n_input_files_scanned: this.nFiles,
      per_record_output: settings.perRecordOutput,
    };
  }
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}

/** The summary of these file outcomes, in this order. */
export function summarise(files: readonly CompatFileOutcome[], settings: SummarySettings): CompatSummary {
  const counter = new SummaryCounter();
  for (const f of files) counter.add(f);
  return counter.summary(settings);
}
