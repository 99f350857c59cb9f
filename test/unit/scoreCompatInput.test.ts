import { describe, expect, it } from 'vitest';
import { scoreReference, type CompatRecord } from '../../src/core/scoring/compat/index.ts';
import { ask, HOUSE, houseTruth, item, resultsFile, scoreItems } from '../support/compatFixtures.ts';

/*
 * scoring.md §2 steps 1–2 in reference-compatible mode: which files and items become records,
 * how an answer is read, and the answer line the released scorer rebuilds and parses back.
 * The house: Kitchen — Hallway — Living room; Hallway — Stair landing — Upstairs bedroom — Master bedroom bathroom.
 */

const KITCHEN_TO_LIVING = ask('kitchen', 'living room');
const one = (answer: unknown, path: unknown, agent = 'HUMAN'): CompatRecord => scoreItems([item(KITCHEN_TO_LIVING, agent, answer, path)]).records[0]!;
const PATH = ['node_1', 'node_2', 'node_3'];

describe('step 1: files and items', () => {
  it('reads files in Python sorted() order of their paths, so "B.json" comes before "a.json"', () => {
    const files = ['run/a.json', 'run/B.json', 'run-2/x.json', 'run/a/b.json'].map((path, i) => resultsFile(path, HOUSE, [item(KITCHEN_TO_LIVING, `AGENT${i}`, 'no', PATH)]));
    const order = scoreReference(files, houseTruth).records.map((r) => r.agent);
    // Code-point order: "-" < "/" < "B" < "a".
    expect(order).toEqual(['AGENT2', 'AGENT1', 'AGENT0', 'AGENT3']);
  });

  it('counts a file that is not a JSON object once as a failed record named by its path', () => {
    const r = scoreReference([{ path: 'run/list.json', text: '[{"scene": "HM3D99999"}]' }], houseTruth);
    expect(r.records).toHaveLength(1);
    expect(r.records[0]).toMatchObject({ qid: 'run/list.json', scene: null, ok: false, error: 'not_a_dict' });
    expect(r.summary).toMatchObject({ n_records: 1, n_ok: 0, n_fail: 1, fail_reason_count: { not_a_dict: 1 } });
  });

  it('counts a file without "scene" once, however many items it holds', () => {
    const text = JSON.stringify({ result: [item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', PATH), item(KITCHEN_TO_LIVING, 'SWEEPER', 'yes', PATH)] });
    const r = scoreReference([{ path: 'x.json', text }], houseTruth);
    expect(r.records.map((x) => [x.ok, x.error])).toEqual([[false, 'missing_scene']]);
  });

  it('counts a file whose result is missing or not a list once', () => {
    const files = [
      { path: 'a.json', text: JSON.stringify({ scene: HOUSE }) },
      { path: 'b.json', text: JSON.stringify({ scene: HOUSE, result: 'Answer: (A) True | Path: node_1 -> node_3' }) },
      { path: 'c.json', text: JSON.stringify({ scene: HOUSE, result: { answer: 'yes' } }) },
    ];
    expect(scoreReference(files, houseTruth).records.map((x) => [x.qid, x.scene, x.error])).toEqual([
      ['a.json', HOUSE, 'result_not_list'], ['b.json', HOUSE, 'result_not_list'], ['c.json', HOUSE, 'result_not_list'],
    ]);
  });

  it('counts a file json.load rejects once — a byte-order mark too — but reads NaN, which Python accepts', () => {
    const good = JSON.stringify({ scene: HOUSE, result: [item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', PATH)] });
    const r = scoreReference([
      { path: 'bom.json', text: '\ufeff' + good },
      { path: 'cut.json', text: good.slice(0, 40) },
      { path: 'empty.json', text: '' },
      { path: 'nan.json', text: good.replace('{', '{"time_sec": NaN, ') },
    ], houseTruth);
    expect(r.records.map((x) => [x.qid, x.error])).toEqual([
      ['bom.json', 'invalid_json'], ['cut.json', 'invalid_json'], ['empty.json', 'invalid_json'], [`${HOUSE}::${KITCHEN_TO_LIVING}::HUMAN`, null],
    ]);
  });

  it('skips items that are not objects without a record, and an empty result gives nothing at all', () => {
    const r = scoreReference([
      resultsFile('a.json', HOUSE, ['yes', 3, null, [PATH], item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', PATH)]),
      resultsFile('b.json', HOUSE, []),
    ], houseTruth);
    expect(r.records).toHaveLength(1);
    expect(r.summary).toMatchObject({ n_records: 1, n_ok: 1, n_fail: 0 });
  });

  it('names a record <scene>::<question>::<agent>, a missing agent or question as ""', () => {
    const r = scoreItems([item(KITCHEN_TO_LIVING, 'HUMAN', 'no', PATH), { question: KITCHEN_TO_LIVING, result: { answer: 'no', path: PATH } }]);
    expect(r.records.map((x) => [x.qid, x.agent])).toEqual([[`${HOUSE}::${KITCHEN_TO_LIVING}::HUMAN`, 'HUMAN'], [`${HOUSE}::${KITCHEN_TO_LIVING}::`, '']]);
  });

  it('fails an item whose scene the ground truth does not know, and keeps it out of every metric', () => {
    const r = scoreItems([item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', PATH)], { scene: 'MP3D99999' });
    expect(r.records[0]).toMatchObject({ ok: false, error: 'unknown_scene', binary_bucket: null });
    expect(r.summary).toMatchObject({ n_ok: 0, pv_total: 0, capnav_score: 0 });
  });
});

describe('step 2: the answer is yes iff str(answer).strip().lower() is yes, true, a or (a)', () => {
  it('reads yes, True, JSON true, A and (A) — with any Python whitespace around — as yes', () => {
    for (const answer of ['yes', ' YES ', 'True', true, 'a', 'A', '(A)', '(a)', '\u00a0(a)\u2003', 'yes\u0085']) {
      expect(one(answer, PATH).vlm_answer, JSON.stringify(answer)).toBe(true);
    }
  });

  it('reads everything else as no: garbage, y, (B), JSON false and null, numbers, lists, a BOM-prefixed yes', () => {
    for (const answer of ['no', 'No.', 'false', false, '(B)', 'b', 'y', 'yes.', 'maybe', '', null, 1, ['yes'], '\ufeffyes']) {
      expect(one(answer, PATH).vlm_answer, JSON.stringify(answer)).toBe(false);
    }
  });

  it('reads a missing answer as no, and takes answer and path from the item itself when "result" is not an object', () => {
    expect(one(undefined, PATH).vlm_answer).toBe(false);
    const flat = scoreItems([{ question: KITCHEN_TO_LIVING, agent: 'HUMAN', answer: 'yes', path: PATH }]).records[0]!;
    expect(flat).toMatchObject({ vlm_answer: true, pv_valid: true });
  });
});

describe('step 2: the answer line "Answer: (A) True | Path: p1 -> p2" is rebuilt and parsed back', () => {
  it('makes an empty path unparseable — cannot_parse_answer_path — for a no as much as for a yes', () => {
    for (const path of [[], [''], [' '], null, undefined, 7, '']) {
      for (const answer of ['yes', 'no']) {
        expect(one(answer, path), `${answer} ${JSON.stringify(path)}`).toMatchObject({ ok: true, format_error: true, format_error_type: 'cannot_parse_answer_path', vlm_answer: null });
      }
    }
  });

  it('makes a yes with fewer than two path entries yes_without_path', () => {
    expect(one('yes', ['node_1'])).toMatchObject({ format_error_type: 'yes_without_path', vlm_answer: null, vlm_path_ids: null });
    // A no with one entry parses: it is judged on its path instead.
    expect(one('no', ['node_1'])).toMatchObject({ format_error: false, vlm_path_ids: ['node_1'] });
  });

  it('ends the path at the first "|" or newline, as the line pattern does', () => {
    expect(one('yes', ['node_1 | node_2', 'node_3']).format_error_type).toBe('yes_without_path');
    expect(one('yes', ['node_1\nnode_2', 'node_3']).format_error_type).toBe('yes_without_path');
    expect(one('no', ['node_1', 'node_2 | x', 'node_3']).vlm_path_ids).toEqual(['node_1', 'node_2']);
  });

  it('splits on "->": an item holding an arrow becomes two tokens, empty pieces are dropped', () => {
    expect(one('yes', ['node_1 -> node_2', 'node_3'])).toMatchObject({ vlm_path_ids: ['node_1', 'node_2', 'node_3'], pv_valid: true });
    expect(one('no', ['node_1', '', 'node_2', '->', 'node_3']).vlm_path_ids).toEqual(['node_1', 'node_2', 'node_3']);
    // Only arrows: the line parses, but there are no tokens.
    expect(one('no', ['->'])).toMatchObject({ format_error: false, vlm_path_ids: [], pv_errors: ['empty_path'] });
    expect(one('yes', ['->', '->']).format_error_type).toBe('yes_without_path');
  });

  it('str()s path items as Python does: a string iterates by character, an object by key, 1.0 stays "1.0"', () => {
    expect(one('no', { node_1: 1, node_3: 2 }).vlm_path_ids).toEqual(['node_1', 'node_3']);
    // "ab" is the tokens "a" and "b"; each is contained in names, the longest of which wins.
    expect(one('no', 'ab').vlm_path_ids).toEqual(['node_6', 'node_6']);
    const numbers = scoreReference([{ path: 'n.json', text: `{"scene": "${HOUSE}", "result": [{"question": "${KITCHEN_TO_LIVING}", "agent": "HUMAN", "result": {"answer": "no", "path": [1.0, true, null]}}]}` }], houseTruth);
    // "1.0" normalises to "10", "True" to "true", "None" to "none": no name contains or resembles them.
    expect(numbers.records[0]!.vlm_path_ids).toEqual([null, null, null]);
  });

  it('drops the reason: the judge always sees "", however good the model\'s reason was', () => {
    const seen: string[] = [];
    const judge = (reason: string) => { seen.push(reason); return 1 as const; };
    const r = scoreItems([item(ask('kitchen', 'upstairs bedroom'), 'WHEELCHAIR', 'no', ['node_1', 'node_2', 'node_4', 'node_5'], 'The stairs between the hallway and the landing')], { judge });
    expect(seen).toEqual(['']);
    expect(r.records[0]).toMatchObject({ rv_applicable: true, rv_score: 1 });
  });
});
