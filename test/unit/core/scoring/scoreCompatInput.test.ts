import { describe, expect, it } from 'vitest';
import { comparePaths, releasedScorerReads, type CompatRecord } from '../../../../src/core/scoring/compat/index.ts';
import { ask, HOUSE, item, resultsFile, scoreFiles, scoreItems } from '../../../support/compatFixtures.ts';

/*
 * scoring.md §2 steps 1–2 in reference-compatible mode: which files and items become records,
 * how an answer is read, and the answer line the released scorer rebuilds and parses back.
 * The house: Kitchen — Hallway — Living room; Hallway — Stair landing — Upstairs bedroom — Master bedroom bathroom.
 * (With TRAVERSA_RELEASED_SCORER set, every result here is also checked against the released scorer.)
 */

const KITCHEN_TO_LIVING = ask('kitchen', 'living room');
const one = (answer: unknown, path: unknown, agent = 'HUMAN'): CompatRecord => scoreItems([item(KITCHEN_TO_LIVING, agent, answer, path)]).records[0]!;
const PATH = ['node_1', 'node_2', 'node_3'];
const answerOf = (r: CompatRecord) => (r.ok ? r.vlm_answer : null);
const file = (path: string, body: unknown) => ({ path, text: typeof body === 'string' ? body : JSON.stringify(body) });

describe('step 1: files and items', () => {
  it('reads every *.json but its own outputs, names starting with "_" and roll-ups ending _results/_failed/_summary.json', () => {
    const read = ['m/S/S_HUMAN.json', 'x.json', 'a/.json', 'm/S/S_HUMAN.v2.json', 'm/S/results.json'];
    const skipped = [
      'm/S/S_HUMAN.JSON',
      'm/S/S_HUMAN.jsonl',
      'm/scored_summary.json',
      'scored_per_record.jsonl',
      'm/_index.json',
      'm/all_results.json',
      'm/S/x_failed.json',
      'run_summary.json',
    ];
    expect(read.filter(releasedScorerReads)).toEqual(read);
    expect(skipped.filter(releasedScorerReads)).toEqual([]);
  });

  it('reads files in the order sorted() gives Paths: by component, each by code point', () => {
    const paths = ['run/a.json', 'run/B.json', 'run-2/x.json', 'run/a/b.json', 'run/é.json'];
    // "run" < "run-2" as components, although "run/" > "run-" as strings; "B" < "a" < "a.json" by code point.
    expect([...paths].sort(comparePaths)).toEqual(['run/B.json', 'run/a/b.json', 'run/a.json', 'run/é.json', 'run-2/x.json']);
    const files = paths.map((path, i) => resultsFile(path, HOUSE, [item(KITCHEN_TO_LIVING, `AGENT${i}`, 'no', PATH)]));
    expect(scoreFiles(files).records.map((r) => r.agent)).toEqual(['AGENT1', 'AGENT3', 'AGENT0', 'AGENT4', 'AGENT2']);
  });

  it('counts a file that fails whole once, under its reason, and writes no record for it', () => {
    const r = scoreFiles([
      file('a/list.json', '[{"scene": "HM3D99999"}]'),
      file('a/bad.json', '{"scene": '),
      file('a/no_scene.json', { result: [item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', PATH)] }),
      file('a/scene_empty.json', { scene: '', result: [] }),
      file('a/scene_number.json', { scene: 7, result: [] }),
      file('a/result_missing.json', { scene: HOUSE }),
      file('a/result_null.json', { scene: HOUSE, result: null }),
      file('a/result_text.json', { scene: HOUSE, result: 'Answer: (A) True | Path: node_1 -> node_3' }),
      file('a/result_empty.json', { scene: HOUSE, result: [] }),
      file('a/result_no_objects.json', { scene: HOUSE, result: ['yes', 3, null, [PATH]] }),
    ]);
    expect(r.records).toEqual([]);
    expect(r.files.map((f) => [f.path, f.failure])).toEqual([
      ['a/bad.json', 'invalid_json'],
      ['a/list.json', 'invalid_json'],
      ['a/no_scene.json', 'missing_scene'],
      ['a/result_empty.json', 'empty_result_items_or_missing_fields'],
      ['a/result_missing.json', 'missing_result'],
      ['a/result_no_objects.json', 'empty_result_items_or_missing_fields'],
      ['a/result_null.json', 'missing_result'],
      ['a/result_text.json', 'result_not_list'],
      ['a/scene_empty.json', 'missing_scene'],
      ['a/scene_number.json', 'missing_scene'],
    ]);
    expect(r.summary).toMatchObject({
      n_records: 10,
      n_ok: 0,
      n_fail: 10,
      n_input_files_scanned: 10,
      fail_reason_count: { invalid_json: 2, missing_scene: 3, empty_result_items_or_missing_fields: 2, missing_result: 2, result_not_list: 1 },
    });
  });

  it('counts a file json.loads rejects — a byte-order mark too — but reads NaN, which Python accepts', () => {
    const good = JSON.stringify({ scene: HOUSE, result: [item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', PATH)] });
    const r = scoreFiles([
      file('bom.json', '\ufeff' + good),
      file('cut.json', good.slice(0, 40)),
      file('empty.json', ''),
      file('nan.json', good.replace('{', '{"time_sec": NaN, ')),
    ]);
    expect(r.files.map((f) => [f.path, f.failure])).toEqual([
      ['bom.json', 'invalid_json'],
      ['cut.json', 'invalid_json'],
      ['empty.json', 'invalid_json'],
      ['nan.json', null],
    ]);
    expect(r.unreadable.map((u) => u.path)).toEqual(['bom.json', 'cut.json', 'empty.json']);
    expect(r.records[0]).toMatchObject({ qid: 'nan:0', time_sec: NaN, ok: true });
  });

  it('skips items that are not objects without a record, but they keep their index in the qid', () => {
    const r = scoreFiles([resultsFile('m/HM3D99999/HM3D99999_HUMAN.json', HOUSE, ['yes', 3, null, [PATH], item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', PATH)])]);
    expect(r.records.map((x) => [x.qid, x.entry_idx])).toEqual([['HM3D99999_HUMAN:4', 4]]);
    expect(r.summary).toMatchObject({ n_records: 1, n_ok: 1, n_fail: 0 });
  });

  it('fails an item without agent or question (missing, null, "", 0) as missing_scene_agent_or_question', () => {
    const r = scoreItems([
      { question: KITCHEN_TO_LIVING, result: { answer: 'no', path: PATH } },
      { question: KITCHEN_TO_LIVING, agent: '', result: { answer: 'no', path: PATH } },
      { agent: 'HUMAN', question: null, result: { answer: 'no', path: PATH } },
      { agent: 'HUMAN', question: 0, result: { answer: 'no', path: PATH } },
    ]);
    expect(r.records.map((x) => [x.agent, x.question, x.ok ? null : x.error, 'derive_method' in x])).toEqual([
      [null, KITCHEN_TO_LIVING, 'missing_scene_agent_or_question', false],
      ['', KITCHEN_TO_LIVING, 'missing_scene_agent_or_question', false],
      ['HUMAN', null, 'missing_scene_agent_or_question', false],
      ['HUMAN', 0n, 'missing_scene_agent_or_question', false],
    ]);
  });

  it('fails an item whose scene the ground truth does not know (unknown_scene: the released scorer stops there), and keeps it out of every metric', () => {
    const r = scoreItems([item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', PATH)], { scene: 'MP3D99999' });
    expect(r.records[0]).toMatchObject({ ok: false, error: 'unknown_scene' });
    expect(r.summary).toMatchObject({ n_ok: 0, pv_total: 0, capnav_score: 0 });
  });
});

describe('step 2: the answer is yes iff str(answer or "").strip().lower() is yes, true, a or (a)', () => {
  it('reads yes, True, JSON true, A and (A) — with any Python whitespace around — as yes', () => {
    for (const answer of ['yes', ' YES ', 'True', true, 'a', 'A', '(A)', '(a)', '\u00a0(a)\u2003', 'yes\u0085']) {
      expect(answerOf(one(answer, PATH)), JSON.stringify(answer)).toBe('yes');
    }
  });

  it('reads everything else as no: garbage, y, (B), JSON false and null, numbers, lists, a BOM-prefixed yes', () => {
    for (const answer of ['no', 'No.', 'false', false, '(B)', 'b', 'y', 'yes.', 'maybe', '', null, 1, ['yes'], '\ufeffyes']) {
      expect(answerOf(one(answer, PATH)), JSON.stringify(answer)).toBe('no');
    }
  });

  it('reads answer and path only from the item\'s "result" object: a flat item, or a result that is not an object, is a no without path', () => {
    expect(one(undefined, PATH)).toMatchObject({ vlm_answer: 'no' });
    const flat = scoreItems([{ question: KITCHEN_TO_LIVING, agent: 'HUMAN', answer: 'yes', path: PATH }]).records[0]!;
    expect(flat).toMatchObject({ format_error: true, format_error_type: 'cannot_parse_answer_path', vlm_answer: 'fail' });
  });
});

describe('step 2: the answer line "Answer: (A) True | Path: p1 -> p2" is rebuilt and parsed back', () => {
  it('makes an empty path unparseable — cannot_parse_answer_path — for a no as much as for a yes; only a list counts as a path', () => {
    for (const path of [[], null, undefined, 7, '', 'node_1 -> node_3', { node_1: 1 }]) {
      for (const answer of ['yes', 'no']) {
        expect(one(answer, path), `${answer} ${JSON.stringify(path)}`).toMatchObject({
          ok: true,
          format_error: true,
          format_error_type: 'cannot_parse_answer_path',
          vlm_answer: 'fail',
        });
      }
    }
  });

  it('makes a yes with fewer than two path entries yes_without_path', () => {
    expect(one('yes', ['node_1'])).toMatchObject({ format_error_type: 'yes_without_path', vlm_answer: 'fail', vlm_path_ids: [] });
    // A no with one entry parses: it is judged on its path instead.
    expect(one('no', ['node_1'])).toMatchObject({ format_error: false, vlm_path_ids: ['node_1'] });
  });

  it('keeps "|" in the path but cuts it at "| Fail:" or "| Reason:" (any case), and ends it at a newline', () => {
    expect(one('no', ['node_1 | node_2', 'node_3'])).toMatchObject({ vlm_path_names_raw: ['node_1 | node_2', 'node_3'] });
    expect(one('yes', ['node_1', 'node_2 | reason: x', 'node_3'])).toMatchObject({ vlm_path_names_raw: ['node_1', 'node_2'] });
    expect(one('yes', ['node_1 | reason: x', 'node_3'])).toMatchObject({ format_error_type: 'yes_without_path' });
    expect(one('no', ['node_1', 'node_2 |FAIL : x', 'node_3'])).toMatchObject({ vlm_path_names_raw: ['node_1', 'node_2'] });
    expect(one('yes', ['node_1\nnode_2', 'node_3'])).toMatchObject({ format_error_type: 'yes_without_path' });
  });

  it('skips blank lines after "Path:" — \\s* crosses them — and drops <think>…</think>', () => {
    expect(one('no', ['\n\nnode_1', 'node_2'])).toMatchObject({ vlm_path_names_raw: ['node_1', 'node_2'] });
    expect(one('no', ['node_1', '\nnode_2'])).toMatchObject({ vlm_path_names_raw: ['node_1'] });
    expect(one('yes', ['<think>node_9</think>node_1', 'node_2', 'node_3'])).toMatchObject({
      vlm_path_names_raw: ['node_1', 'node_2', 'node_3'],
      pv_valid: true,
    });
  });

  it('splits on "->" and "→": an item holding an arrow becomes two tokens, empty pieces are dropped', () => {
    expect(one('yes', ['node_1 -> node_2', 'node_3'])).toMatchObject({ vlm_path_ids: ['node_1', 'node_2', 'node_3'], pv_valid: true });
    expect(one('yes', ['node_1→node_2 →node_3'])).toMatchObject({ vlm_path_ids: ['node_1', 'node_2', 'node_3'], pv_valid: true });
    expect(one('no', ['node_1', '', 'node_2', '->', 'node_3'])).toMatchObject({ vlm_path_ids: ['node_1', 'node_2', 'node_3'] });
    // Only arrows and blanks: the line parses, but there are no tokens.
    expect(one('no', ['', '->'])).toMatchObject({ format_error: false, vlm_path_ids: [], pv_errors: ['empty_path'] });
    expect(one('yes', ['->', '->'])).toMatchObject({ format_error_type: 'yes_without_path' });
  });

  it('str()s path items as Python does: 1 is "1", 1.0 is "1.0", true is "True", null is "None"', () => {
    const r = scoreFiles([
      file(
        'n.json',
        `{"scene": "${HOUSE}", "result": [{"question": "${KITCHEN_TO_LIVING}", "agent": "HUMAN", "result": {"answer": "no", "path": [1, 1.0, true, null]}}]}`,
      ),
    ]);
    expect(r.records[0]).toMatchObject({ vlm_path_names_raw: ['1', '1.0', 'True', 'None'], vlm_path_ids: [null, null, null, null] });
  });
});
