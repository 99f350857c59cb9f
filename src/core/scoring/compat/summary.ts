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
  private readonly s: CounterState = emptyState();

  add(file: CompatFileOutcome): void {
    const s = this.s;
    s.files++;
    if (file.failure) {
      s.records++;
      s.fail++;
      count(s.failReasons, file.failure);
      return;
    }
    for (const r of file.records) {
      s.records++;
      if (!r.ok) {
        s.fail++;
        count(s.failReasons, r.error);
        continue;
      }
      s.ok++;
      count(s.methods, r.derive_method);
      if (r.correct_answer) s.correct++;
      if (r.format_error) {
        s.formatErrors++;
        count(s.formatTypes, r.format_error_type);
        if (r.binary_bucket === 'FN') s.fn++;
        else s.fp++;
        continue;
      }
      const yes = r.vlm_answer === 'yes',
        gt = r.ground_truth_doable;
      if (gt && yes) s.tp++;
      else if (!gt && yes) s.fp++;
      else if (gt && !yes) s.fn++;
      else s.tn++;
      s.pvTotal++;
      if (r.pv_valid) s.pvValid++;
      if (r.traversability_score !== null) {
        s.rtaCount++;
        s.rtaSum += r.traversability_score;
      }
      if (r.rv_score !== null) {
        s.rvCount++;
        s.rvSum += r.rv_score;
      }
    }
  }

  summary(settings: SummarySettings): CompatSummary {
    const s = this.s;
    const { tp, fp, fn, tn, ok: nOk } = s;
    const { rtaSum, rtaCount, rvSum, rvCount } = s;
    const precision = ratio(tp, tp + fp);
    const recall = ratio(tp, tp + fn);
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    const pv = ratio(s.pvValid, s.pvTotal);
    const rta = ratio(rtaSum, rtaCount);
    const rv = ratio(rvSum, rvCount);
    return {
      n_records: s.records,
      n_ok: nOk,
      n_fail: s.fail,
      n_correct: s.correct,
      pv_total: s.pvTotal,
      pv_valid: s.pvValid,
      rta_count: rtaCount,
      rta_sum: rtaSum,
      rv_count: rvCount,
      rv_sum: rvSum,
      format_errors: s.formatErrors,
      accuracy: ratio(s.correct, nOk),
      pv_validity_rate: pv,
      avg_traversability_score: rta,
      avg_rv_score: rv,
      capnav_score: (f1 + pv + rta + rv) / 4,
      capnav_components: { f1, pv, rta, rv },
      coverage: {
        pv_applicable_frac_over_ok: ratio(s.pvTotal, nOk),
        rta_applicable_frac_over_ok: ratio(rtaCount, nOk),
        rv_applicable_frac_over_ok: ratio(rvCount, nOk),
      },
      fail_reason_count: Object.fromEntries(s.failReasons),
      derive_method_count: Object.fromEntries(s.methods),
      format_error_details: Object.fromEntries(s.formatTypes),
      binary_classification: { TP: tp, FP: fp, FN: fn, TN: tn, precision, recall, f1_score: f1, accuracy: ratio(tp + tn, tp + tn + fp + fn) },
      result_root: settings.resultRoot,
      gt_root: settings.gtRoot,
      rv_llm_model: settings.rvModel,
      n_input_files_scanned: s.files,
      per_record_output: settings.perRecordOutput,
    };
  }
}

/** A counter's data: counts, sums (record by record, in reading order, as the released scorer's `+=`), named counts in order of first occurrence. */
interface CounterState {
  files: number;
  records: number;
  ok: number;
  fail: number;
  correct: number;
  pvTotal: number;
  pvValid: number;
  formatErrors: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  rtaCount: number;
  rtaSum: number;
  rvCount: number;
  rvSum: number;
  failReasons: Map<string, number>;
  methods: Map<string, number>;
  formatTypes: Map<string, number>;
}

function emptyState(): CounterState {
  return {
    files: 0,
    records: 0,
    ok: 0,
    fail: 0,
    correct: 0,
    pvTotal: 0,
    pvValid: 0,
    formatErrors: 0,
    tp: 0,
    fp: 0,
    fn: 0,
    tn: 0,
    rtaCount: 0,
    rtaSum: 0,
    rvCount: 0,
    rvSum: 0,
    failReasons: new Map(),
    methods: new Map(),
    formatTypes: new Map(),
  };
}

function count(into: Map<string, number>, key: string): void {
  into.set(key, (into.get(key) ?? 0) + 1);
}

/** The summary of these file outcomes, in this order. */
export function summarise(files: readonly CompatFileOutcome[], settings: SummarySettings): CompatSummary {
  const counter = new SummaryCounter();
  for (const f of files) counter.add(f);
  return counter.summary(settings);
}
