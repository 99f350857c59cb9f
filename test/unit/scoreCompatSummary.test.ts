import { describe, expect, it } from 'vitest';
import { scoreReference, toSummaryJson } from '../../src/core/scoring/compat/index.ts';
import { ask, houseTruth, item, scoreItems } from '../support/compatFixtures.ts';

/*
 * scoring.md §2 step 9 and the outputs: the confusion matrix over every scored record (format
 * errors included), the composite as a plain mean of four means each over its own subset, and
 * the exact field names and serialisation of the released scorer. Expected JSON was written by
 * Python's json.dump(summary, f, indent=2) from the same numbers.
 */

const KITCHEN_TO_LIVING = ask('kitchen', 'living room');
const KITCHEN_TO_BEDROOM = ask('kitchen', 'upstairs bedroom');

/** One of each outcome on the house. */
const mixedRun = () => scoreItems([
  item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', ['node_1', 'node_2', 'node_3']), // TP, valid, RTA 1
  item(KITCHEN_TO_BEDROOM, 'WHEELCHAIR', 'yes', ['node_1', 'node_2', 'node_4', 'node_5']), // FP, valid, RTA 1/3
  item(KITCHEN_TO_BEDROOM, 'WHEELCHAIR', 'no', ['node_1', 'node_2', 'node_4', 'node_5'], 'Stairs'), // TN, valid, RV 0
  item(KITCHEN_TO_BEDROOM, 'HUMAN', 'no', ['node_1', 'node_2']), // FN, invalid (ends early), RV 0
  item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', []), // format error on a feasible task: FN
  item(KITCHEN_TO_BEDROOM, 'WHEELCHAIR', 'yes', ['node_1']), // format error on an infeasible task: FP
  item('Can [Agent] move from the sofa to the desk?', 'HUMAN', 'yes', ['node_1', 'node_2']), // no name: fails
]);

describe('step 9: confusion matrix and composite', () => {
  it('puts a format error in FN when the task is feasible and in FP when not, and marks it incorrect', () => {
    const { records } = mixedRun();
    expect(records.map((r) => r.binary_bucket)).toEqual(['TP', 'FP', 'TN', 'FN', 'FN', 'FP', null]);
    expect(records.map((r) => r.correct_answer)).toEqual([true, false, true, false, false, false, null]);
  });

  it('averages each component over its own subset and the composite as the plain mean of the four', () => {
    const { summary } = mixedRun();
    expect(summary).toMatchObject({
      n_records: 7, n_ok: 6, n_fail: 1, n_correct: 2, pv_total: 4, pv_valid: 3, rta_count: 2, rv_count: 2, rv_sum: 0, format_errors: 2,
      binary_classification: { TP: 1, FP: 2, TN: 1, FN: 2 },
    });
    const { f1, pv, rta, rv } = summary.capnav_components;
    expect(summary.capnav_score).toBe((f1 + pv + rta + rv) / 4);
    expect([f1, pv, rta, rv]).toEqual([0.3333333333333333, 0.75, 0.6666666666666666, 0]);
  });

  it('writes the summary exactly as the released scorer\'s json.dump does', () => {
    expect(toSummaryJson(mixedRun().summary)).toBe(MIXED_SUMMARY);
  });

  it('reports zeros, as floats where Python holds floats, when there is nothing to score', () => {
    const json = toSummaryJson(scoreReference([], houseTruth).summary);
    expect(json).toContain('"rta_sum": 0,');
    expect(json).toContain('"capnav_score": 0.0,');
    expect(json).toContain('"fail_reason_count": {},');
  });

  it('keeps failed records out of every metric: they only count in n_fail and fail_reason_count', () => {
    const { summary } = scoreItems([item('no names here', 'HUMAN', 'yes', ['node_1', 'node_2'])]);
    expect(summary).toMatchObject({ n_records: 1, n_fail: 1, pv_total: 0, rta_count: 0, rv_count: 0, capnav_score: 0, derive_method_count: {} });
  });
});

describe('the outputs carry the released scorer\'s field names', () => {
  it('writes every record with the same fields in the same order, failed or not', () => {
    const fields = 'qid scene agent ok error format_error format_error_type derive_method src_id tgt_id vlm_answer vlm_path_ids pv_valid pv_errors rta_applicable traversability_score rv_applicable rv_score ground_truth_doable correct_answer binary_bucket'.split(' ');
    for (const r of mixedRun().records) expect(Object.keys(r)).toEqual(fields);
  });

  it('writes the summary fields in the released order, with no per-agent breakdown', () => {
    expect(Object.keys(mixedRun().summary)).toEqual('n_records n_ok n_fail n_correct pv_total pv_valid rta_count rta_sum rv_count rv_sum format_errors capnav_score capnav_components binary_classification fail_reason_count derive_method_count format_error_details'.split(' '));
  });
});

const MIXED_SUMMARY = `{
  "n_records": 7,
  "n_ok": 6,
  "n_fail": 1,
  "n_correct": 2,
  "pv_total": 4,
  "pv_valid": 3,
  "rta_count": 2,
  "rta_sum": 1.3333333333333333,
  "rv_count": 2,
  "rv_sum": 0,
  "format_errors": 2,
  "capnav_score": 0.4375,
  "capnav_components": {
    "f1": 0.3333333333333333,
    "pv": 0.75,
    "rta": 0.6666666666666666,
    "rv": 0.0
  },
  "binary_classification": {
    "TP": 1,
    "FP": 2,
    "TN": 1,
    "FN": 2,
    "precision": 0.3333333333333333,
    "recall": 0.3333333333333333,
    "f1": 0.3333333333333333
  },
  "fail_reason_count": {
    "no_node_name_hit_in_question": 1
  },
  "derive_method_count": {
    "from_to": 6
  },
  "format_error_details": {
    "cannot_parse_answer_path": 1,
    "yes_without_path": 1
  }
}`;
