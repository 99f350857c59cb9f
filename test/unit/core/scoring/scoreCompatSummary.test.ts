import { describe, expect, it } from 'vitest';
import { recordLine, scoreReference, summariseFolder, toJsonl, toSummaryJson } from '../../../../src/core/scoring/compat/index.ts';
import { pyDumps } from '../../../../src/core/scoring/compat/pyDumps.ts';
import { ask, compatScene, HOUSE, houseTruth, item, RECORD_KEYS, recordKind, resultsFile, scoreFiles } from '../../../support/compatFixtures.ts';

/*
 * scoring.md §2 step 9 and "Exact output": the confusion matrix over every scored record (format
 * errors included), the composite as a plain mean of four means each over its own subset, and
 * the released scorer's files byte for byte — every record kind with its own fields in its own
 * order. The expected text below was written by the released scorer itself for the same folder.
 */

const KL = ask('kitchen', 'living room');
const KB = ask('kitchen', 'upstairs bedroom');

/** One of each outcome on the house, in one runner file. */
const MIXED = [
  item(KL, 'HUMAN', 'yes', ['node_1', 'node_2', 'node_3']), // TP, ids used directly, valid, RTA 1
  item(KB, 'WHEELCHAIR', 'yes', ['node_1', 'node_2', 'node_4', 'node_5']), // FP, valid, RTA 1/3
  item(KB, 'WHEELCHAIR', 'no', ['node_1', 'node_2', 'node_4', 'node_5'], 'Stairs'), // TN, RV 0: the reason was dropped
  item(KB, 'HUMAN', 'no', ['Kitchen', 'Hallway']), // FN, names mapped, ends early
  item(KL, 'HUMAN', 'yes', []), // format error on a feasible task: FN
  item(KB, 'WHEELCHAIR', 'yes', ['node_1']), // format error on an infeasible task: FP
  item('Can [Agent] move from the sofa to the desk?', 'HUMAN', 'yes', ['node_1', 'node_2']), // no name: fails after the guess
  { question: KL, result: { answer: 'no', path: ['node_1'] } }, // no agent: fails before it
  item(KB, 'HUMANOID', 'no', ['kitchn', 'xyzzy']), // TN, a fuzzy match and an unresolved token: no route for RV
];
const mixedFiles = () => [resultsFile(`gemini/${HOUSE}/${HOUSE}_MIXED.json`, HOUSE, MIXED)];
const mixedRun = () => scoreFiles(mixedFiles());

describe('the per-record JSONL, exactly as the released scorer writes it', () => {
  it('writes every line of a mixed run byte for byte as the released scorer did', () => {
    expect(toJsonl(mixedRun().records)).toBe(MIXED_JSONL);
  });

  it('gives each record kind its own keys in the released order', () => {
    const records = mixedRun().records;
    expect(records.map(recordKind)).toEqual([
      'parsed',
      'parsed',
      'parsed',
      'parsed',
      'formatError',
      'formatError',
      'failedAfterGuess',
      'failedBeforeGuess',
      'parsed',
    ]);
    for (const r of records) expect(Object.keys(r)).toEqual(RECORD_KEYS[recordKind(r)]);
  });

  it('writes the values each kind carries: a format error\'s "fail" and FN/FP, a parsed record\'s null bucket', () => {
    const [tp, , tn, , fe, fp, noHit, noAgent, noRoute] = mixedRun().records;
    expect(tp).toMatchObject({
      qid: 'HM3D99999_MIXED:0',
      entry_idx: 0,
      status: null,
      model_setting: 'gemini',
      source_file: `results/gemini/${HOUSE}/${HOUSE}_MIXED.json`,
      prompt_file: `${HOUSE}.txt`,
      time_sec: 1.5,
    });
    expect(tp).toMatchObject({
      vlm_answer: 'yes',
      binary_bucket: null,
      vlm_path_names_mapped: [null, null, null],
      traversability_score: 1,
      rv_score: null,
      rv_judge_explanation: null,
    });
    expect(tn).toMatchObject({ vlm_answer: 'no', rv_score: 0, rv_judge_explanation: 'No reasoning provided by VLM', rv_llm_model: 'none' });
    expect(fe).toMatchObject({
      vlm_answer: 'fail',
      format_error_type: 'cannot_parse_answer_path',
      vlm_path_ids: [],
      pv_valid: null,
      correct_answer: false,
      binary_bucket: 'FN',
    });
    expect(fp).toMatchObject({ format_error_type: 'yes_without_path', binary_bucket: 'FP' });
    expect(noHit).toMatchObject({ ok: false, error: 'no_node_name_hit_in_question', derive_method: null });
    expect(noAgent).toMatchObject({ ok: false, agent: null, error: 'missing_scene_agent_or_question' });
    expect(noRoute).toMatchObject({
      vlm_path_names_mapped: ['Kitchen', null],
      vlm_path_ids: ['node_1', null],
      rv_judge_explanation: 'No valid proposed route for RV',
    });
  });

  it("spells out each kind's line exactly as a generic json.dumps of the record would (ensure_ascii off)", () => {
    const odd = scoreReference(
      [
        resultsFile('m/S/S_X.json', HOUSE, [
          item(KL, 'HUMAN', 'no', ['Kitchen', 'café "A" \\ \u0001\u007f\t \u{1F600}', 'Living room']),
          { question: KL, agent: ['HUMAN', 2, 2.5, { k: null }], result: { answer: 'yes', path: [] } },
        ]),
      ],
      houseTruth,
      { resultRoot: '/data/rés' },
    ).records;
    // In the item's own values (agent, question, prompt_file, time_sec) a number is a float: ints are bigints.
    const floats = new Set(['traversability_score', 'rv_score', 'time_sec', 'agent', 'question', 'prompt_file']);
    for (const r of [...mixedRun().records, ...odd]) expect(recordLine(r)).toBe(pyDumps(r, { floatKeys: floats, ensureAscii: false }));
    expect(recordLine(odd[0]!)).toContain('"vlm_path_names_raw": ["Kitchen", "café \\"A\\" \\\\ \\u0001\u007f\\t \u{1F600}", "Living room"]');
    expect(recordLine(odd[1]!)).toContain('"agent": ["HUMAN", 2, 2.5, {"k": null}]');
    expect(recordLine(odd[1]!)).toContain('"source_file": "/data/rés/m/S/S_X.json", "model_setting": "m"');
  });
});

describe('lines written from what each record holds', () => {
  it("writes a scene's guess from the record even when an earlier run had the same scene, names and question with other ids", () => {
    const q = 'from the kitchen to the hallway';
    const run = (kitchen: string, hallway: string) =>
      scoreReference(
        [resultsFile('m/S/S_A.json', 'S', [item(q, 'HUMAN', 'no', ['x'])])],
        new Map([
          [
            'S',
            compatScene(
              [
                [kitchen, 'Kitchen'],
                [hallway, 'Hallway'],
              ],
              [],
            ),
          ],
        ]),
      );
    expect(toJsonl(run('node_1', 'node_2').records)).toContain('"src_id": "node_1", "tgt_id": "node_2"');
    expect(toJsonl(run('node_7', 'node_8').records)).toContain('"src_id": "node_7", "tgt_id": "node_8"');
  });
});

describe('one summary per model folder', () => {
  it('gives a model folder the summary a run on that folder alone gives: its records, counts, float sums and paths', () => {
    const files = ['m1', 'm2'].flatMap((m) => [
      resultsFile(`${m}/${HOUSE}/${HOUSE}_A.json`, HOUSE, MIXED.slice(m === 'm1' ? 0 : 3)),
      resultsFile(`${m}/${HOUSE}/${HOUSE}_B.json`, HOUSE, MIXED.slice(1, m === 'm1' ? 4 : 9)),
      { path: `${m}/${HOUSE}/bad.json`, text: '[]' },
    ]);
    const pooled = scoreReference(files, houseTruth, { resultRoot: '/r', gtRoot: '/g' });
    for (const m of ['m1', 'm2']) {
      const alone = scoreReference(
        files.filter((f) => f.path.startsWith(`${m}/`)).map((f) => ({ ...f, path: f.path.slice(m.length + 1) })),
        houseTruth,
        { resultRoot: `/r/${m}`, gtRoot: '/g' },
      );
      expect(toSummaryJson(summariseFolder(pooled, m, { resultRoot: '/r', gtRoot: '/g' }))).toBe(toSummaryJson(alone.summary));
      // Its records are the pooled run's records of that folder, line for line.
      expect(toJsonl(pooled.records.filter((r) => r.model_setting === m))).toBe(toJsonl(alone.records));
    }
    expect(pooled.summary.n_records).toBe(9 + 3 + 1 + (6 + 8 + 1));
  });
});

describe('step 9: confusion matrix and composite', () => {
  it('puts a format error in FN when the task is feasible and in FP when not; a parsed record by its answer and truth', () => {
    expect(mixedRun().summary.binary_classification).toMatchObject({ TP: 1, FP: 2, FN: 2, TN: 2 });
  });

  it('averages each component over its own subset and the composite as the plain mean of the four', () => {
    const { summary } = mixedRun();
    expect(summary).toMatchObject({
      n_records: 9,
      n_ok: 7,
      n_fail: 2,
      n_correct: 3,
      pv_total: 5,
      pv_valid: 3,
      rta_count: 2,
      rv_count: 3,
      rv_sum: 0,
      format_errors: 2,
    });
    const { f1, pv, rta, rv } = summary.capnav_components;
    expect(summary.capnav_score).toBe((f1 + pv + rta + rv) / 4);
    expect([f1, pv, rta, rv]).toEqual([0.3333333333333333, 0.6, 0.6666666666666666, 0]);
  });

  it("writes the summary exactly as the released scorer's json.dumps(indent=2, ensure_ascii=False) did", () => {
    expect(toSummaryJson(mixedRun().summary)).toBe(MIXED_SUMMARY);
  });

  it('reports zeros as floats when there is nothing to score, with its paths and judge', () => {
    const json = toSummaryJson(scoreReference([], houseTruth, { resultRoot: '/r', gtRoot: '/g', rvModel: 'rule judge (offline)' }).summary);
    for (const line of [
      '"rta_sum": 0.0,',
      '"rv_sum": 0.0,',
      '"accuracy": 0.0,',
      '"capnav_score": 0.0,',
      '"fail_reason_count": {},',
      '"f1_score": 0.0,',
      '"result_root": "/r",',
      '"gt_root": "/g",',
      '"rv_llm_model": "rule judge (offline)",',
      '"n_input_files_scanned": 0,',
      '"per_record_output": "/r/scored_per_record.jsonl"',
    ]) {
      expect(json).toContain(line);
    }
  });

  it('keeps failed records out of every metric: they only count in n_fail and fail_reason_count', () => {
    const { summary } = scoreFiles([resultsFile(`m/${HOUSE}/x.json`, HOUSE, [item('no names here', 'HUMAN', 'yes', ['node_1', 'node_2'])])]);
    expect(summary).toMatchObject({ n_records: 1, n_fail: 1, pv_total: 0, rta_count: 0, rv_count: 0, capnav_score: 0, derive_method_count: {} });
  });

  it('writes the summary fields in the released order', () => {
    expect(Object.keys(mixedRun().summary)).toEqual(
      (
        'n_records n_ok n_fail n_correct pv_total pv_valid rta_count rta_sum rv_count rv_sum format_errors accuracy pv_validity_rate ' +
        'avg_traversability_score avg_rv_score capnav_score capnav_components coverage fail_reason_count derive_method_count format_error_details binary_classification ' +
        'result_root gt_root rv_llm_model n_input_files_scanned per_record_output'
      ).split(' '),
    );
    expect(Object.keys(mixedRun().summary.binary_classification)).toEqual(['TP', 'FP', 'FN', 'TN', 'precision', 'recall', 'f1_score', 'accuracy']);
  });
});

/** Written by the released scorer for MIXED over the house (CPython 3.11), pasted as it is. */
const MIXED_JSONL = [
  '{"qid": "HM3D99999_MIXED:0", "scene": "HM3D99999", "agent": "HUMAN", "entry_idx": 0, "status": null, "question": "Can [Agent] move from the kitchen to the living room?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": true, "format_error": false, "format_error_type": null, "binary_bucket": null, "derive_method": "from_to_partition", "src_name": "Kitchen", "tgt_name": "Living room", "src_id": "node_1", "tgt_id": "node_3", "vlm_answer": "yes", "vlm_path_names_raw": ["node_1", "node_2", "node_3"], "vlm_path_names_mapped": [null, null, null], "vlm_path_ids": ["node_1", "node_2", "node_3"], "pv_valid": true, "pv_errors": [], "rta_applicable": true, "traversability_score": 1.0, "rv_applicable": false, "rv_score": null, "rv_judge_explanation": null, "rv_llm_model": "none", "ground_truth_doable": true, "correct_answer": true}',
  '{"qid": "HM3D99999_MIXED:1", "scene": "HM3D99999", "agent": "WHEELCHAIR", "entry_idx": 1, "status": null, "question": "Can [Agent] move from the kitchen to the upstairs bedroom?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": true, "format_error": false, "format_error_type": null, "binary_bucket": null, "derive_method": "from_to_partition", "src_name": "Kitchen", "tgt_name": "Upstairs bedroom", "src_id": "node_1", "tgt_id": "node_5", "vlm_answer": "yes", "vlm_path_names_raw": ["node_1", "node_2", "node_4", "node_5"], "vlm_path_names_mapped": [null, null, null, null], "vlm_path_ids": ["node_1", "node_2", "node_4", "node_5"], "pv_valid": true, "pv_errors": [], "rta_applicable": true, "traversability_score": 0.3333333333333333, "rv_applicable": false, "rv_score": null, "rv_judge_explanation": null, "rv_llm_model": "none", "ground_truth_doable": false, "correct_answer": false}',
  '{"qid": "HM3D99999_MIXED:2", "scene": "HM3D99999", "agent": "WHEELCHAIR", "entry_idx": 2, "status": null, "question": "Can [Agent] move from the kitchen to the upstairs bedroom?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": true, "format_error": false, "format_error_type": null, "binary_bucket": null, "derive_method": "from_to_partition", "src_name": "Kitchen", "tgt_name": "Upstairs bedroom", "src_id": "node_1", "tgt_id": "node_5", "vlm_answer": "no", "vlm_path_names_raw": ["node_1", "node_2", "node_4", "node_5"], "vlm_path_names_mapped": [null, null, null, null], "vlm_path_ids": ["node_1", "node_2", "node_4", "node_5"], "pv_valid": true, "pv_errors": [], "rta_applicable": false, "traversability_score": null, "rv_applicable": true, "rv_score": 0.0, "rv_judge_explanation": "No reasoning provided by VLM", "rv_llm_model": "none", "ground_truth_doable": false, "correct_answer": true}',
  '{"qid": "HM3D99999_MIXED:3", "scene": "HM3D99999", "agent": "HUMAN", "entry_idx": 3, "status": null, "question": "Can [Agent] move from the kitchen to the upstairs bedroom?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": true, "format_error": false, "format_error_type": null, "binary_bucket": null, "derive_method": "from_to_partition", "src_name": "Kitchen", "tgt_name": "Upstairs bedroom", "src_id": "node_1", "tgt_id": "node_5", "vlm_answer": "no", "vlm_path_names_raw": ["Kitchen", "Hallway"], "vlm_path_names_mapped": ["Kitchen", "Hallway"], "vlm_path_ids": ["node_1", "node_2"], "pv_valid": false, "pv_errors": ["path_end_not_tgt"], "rta_applicable": false, "traversability_score": null, "rv_applicable": true, "rv_score": 0.0, "rv_judge_explanation": "No reasoning provided by VLM", "rv_llm_model": "none", "ground_truth_doable": true, "correct_answer": false}',
  '{"qid": "HM3D99999_MIXED:4", "scene": "HM3D99999", "agent": "HUMAN", "entry_idx": 4, "status": null, "question": "Can [Agent] move from the kitchen to the living room?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": true, "format_error": true, "format_error_type": "cannot_parse_answer_path", "derive_method": "from_to_partition", "src_name": "Kitchen", "tgt_name": "Living room", "src_id": "node_1", "tgt_id": "node_3", "vlm_answer": "fail", "vlm_path_names_raw": [], "vlm_path_names_mapped": [], "vlm_path_ids": [], "pv_valid": null, "pv_errors": [], "rta_applicable": false, "traversability_score": null, "rv_applicable": false, "rv_score": null, "rv_judge_explanation": null, "rv_llm_model": "none", "ground_truth_doable": true, "correct_answer": false, "binary_bucket": "FN"}',
  '{"qid": "HM3D99999_MIXED:5", "scene": "HM3D99999", "agent": "WHEELCHAIR", "entry_idx": 5, "status": null, "question": "Can [Agent] move from the kitchen to the upstairs bedroom?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": true, "format_error": true, "format_error_type": "yes_without_path", "derive_method": "from_to_partition", "src_name": "Kitchen", "tgt_name": "Upstairs bedroom", "src_id": "node_1", "tgt_id": "node_5", "vlm_answer": "fail", "vlm_path_names_raw": [], "vlm_path_names_mapped": [], "vlm_path_ids": [], "pv_valid": null, "pv_errors": [], "rta_applicable": false, "traversability_score": null, "rv_applicable": false, "rv_score": null, "rv_judge_explanation": null, "rv_llm_model": "none", "ground_truth_doable": false, "correct_answer": false, "binary_bucket": "FP"}',
  '{"qid": "HM3D99999_MIXED:6", "scene": "HM3D99999", "agent": "HUMAN", "entry_idx": 6, "status": null, "question": "Can [Agent] move from the sofa to the desk?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": false, "error": "no_node_name_hit_in_question", "derive_method": null}',
  '{"qid": "HM3D99999_MIXED:7", "scene": "HM3D99999", "agent": null, "entry_idx": 7, "status": null, "question": "Can [Agent] move from the kitchen to the living room?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": false, "error": "missing_scene_agent_or_question"}',
  '{"qid": "HM3D99999_MIXED:8", "scene": "HM3D99999", "agent": "HUMANOID", "entry_idx": 8, "status": null, "question": "Can [Agent] move from the kitchen to the upstairs bedroom?", "source_file": "results/gemini/HM3D99999/HM3D99999_MIXED.json", "model_setting": "gemini", "prompt_file": "HM3D99999.txt", "time_sec": 1.5, "ok": true, "format_error": false, "format_error_type": null, "binary_bucket": null, "derive_method": "from_to_partition", "src_name": "Kitchen", "tgt_name": "Upstairs bedroom", "src_id": "node_1", "tgt_id": "node_5", "vlm_answer": "no", "vlm_path_names_raw": ["kitchn", "xyzzy"], "vlm_path_names_mapped": ["Kitchen", null], "vlm_path_ids": ["node_1", null], "pv_valid": false, "pv_errors": ["unresolved_node_in_path", "path_end_not_tgt"], "rta_applicable": false, "traversability_score": null, "rv_applicable": true, "rv_score": 0.0, "rv_judge_explanation": "No valid proposed route for RV", "rv_llm_model": "none", "ground_truth_doable": false, "correct_answer": true}',
]
  .map((l) => `${l}\n`)
  .join('');

/** The same run's scored_summary.json. */
const MIXED_SUMMARY = `{
  "n_records": 9,
  "n_ok": 7,
  "n_fail": 2,
  "n_correct": 3,
  "pv_total": 5,
  "pv_valid": 3,
  "rta_count": 2,
  "rta_sum": 1.3333333333333333,
  "rv_count": 3,
  "rv_sum": 0.0,
  "format_errors": 2,
  "accuracy": 0.42857142857142855,
  "pv_validity_rate": 0.6,
  "avg_traversability_score": 0.6666666666666666,
  "avg_rv_score": 0.0,
  "capnav_score": 0.4,
  "capnav_components": {
    "f1": 0.3333333333333333,
    "pv": 0.6,
    "rta": 0.6666666666666666,
    "rv": 0.0
  },
  "coverage": {
    "pv_applicable_frac_over_ok": 0.7142857142857143,
    "rta_applicable_frac_over_ok": 0.2857142857142857,
    "rv_applicable_frac_over_ok": 0.42857142857142855
  },
  "fail_reason_count": {
    "no_node_name_hit_in_question": 1,
    "missing_scene_agent_or_question": 1
  },
  "derive_method_count": {
    "from_to_partition": 7
  },
  "format_error_details": {
    "cannot_parse_answer_path": 1,
    "yes_without_path": 1
  },
  "binary_classification": {
    "TP": 1,
    "FP": 2,
    "FN": 2,
    "TN": 2,
    "precision": 0.3333333333333333,
    "recall": 0.3333333333333333,
    "f1_score": 0.3333333333333333,
    "accuracy": 0.42857142857142855
  },
  "result_root": "results",
  "gt_root": "ground_truth",
  "rv_llm_model": "none",
  "n_input_files_scanned": 1,
  "per_record_output": "results/scored_per_record.jsonl"
}`;
