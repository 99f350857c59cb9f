import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { groundTruthFromRelease, scoreReference, toJsonl, toSummaryJson, type CompatGroundTruth, type CompatRecord, type CompatResult } from '../../src/core/scoring/compat/index.ts';
import { readTree } from '../support/capnavOracle.ts';
import { generateResults, item, resultsFile, type GeneratedResults, type GeneratedRecord } from '../support/compatFixtures.ts';
import { CAPNAV_DIR, sharedAvailable } from '../support/shared.ts';

/*
 * Reference-compatible scoring end to end on the 30 shared release scenes: a results folder is
 * generated in memory (right answers and paths by the questions' node references, a third of the
 * items altered, plus broken files) and scored against the release's graphs and traverse files.
 */

const available = sharedAvailable(CAPNAV_DIR, 'reference-compatible scoring over the release');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.skipIf(!available)('reference-compatible scoring of a generated results folder over the shared release', () => {
  let truth: CompatGroundTruth;
  let gen: GeneratedResults;
  let result: CompatResult;
  /** Each generated item with the record it produced. */
  let pairs: { g: GeneratedRecord; r: CompatRecord }[];

  beforeAll(() => {
    const read = groundTruthFromRelease(readTree(CAPNAV_DIR));
    expect(read.problems).toEqual([]);
    truth = read.groundTruth;
    gen = generateResults(CAPNAV_DIR, 7);
    result = scoreReference(gen.files, truth);
    const queue = new Map<string, CompatRecord[]>();
    for (const r of result.records) if (r.scene !== null && r.qid.includes('::')) queue.set(r.qid, [...(queue.get(r.qid) ?? []), r]);
    pairs = gen.records.map((g) => ({ g, r: queue.get(`${g.scene}::${g.question}::${g.agent}`)!.shift()! }));
  });

  it('reads the 30 scenes\' graphs and traverse tables as the ground truth', () => {
    expect(truth.size).toBe(30);
    expect(truth.get('HM3D00000')!.traverse.ROBOT!['node_12|node_10']).toEqual({ traversable: false, note: 'Cannot go up/down stairs' });
  });

  it('accounts for every record: one per item, one per broken file, none for non-object items', () => {
    const s = result.summary;
    expect(s.n_records).toBe(gen.records.length + Object.keys(gen.brokenFiles).length);
    expect(s.n_ok + s.n_fail).toBe(s.n_records);
    const b = s.binary_classification;
    expect(b.TP + b.FP + b.TN + b.FN).toBe(s.n_ok);
    expect(s.n_correct).toBe(b.TP + b.TN);
    expect(s.pv_total).toBe(s.n_ok - s.format_errors);
    expect(Object.values(s.format_error_details).reduce((x, y) => x + y, 0)).toBe(s.format_errors);
    expect(Object.values(s.derive_method_count).reduce((x, y) => x + y, 0)).toBe(s.n_ok);
    expect(Object.values(s.fail_reason_count).reduce((x, y) => x + y, 0)).toBe(s.n_fail);
  });

  it('computes the composite as the plain mean of its four component means', () => {
    const s = result.summary;
    const { f1, pv, rta, rv } = s.capnav_components;
    expect(s.capnav_score).toBe((f1 + pv + rta + rv) / 4);
    expect(pv).toBe(s.pv_valid / s.pv_total);
    expect(rta).toBe(s.rta_sum / s.rta_count);
    expect(rv).toBe(0); // the reason is dropped, so every judgement is 0
    expect(f1).toBe(s.binary_classification.f1);
  });

  it('fails each broken file once with its reason', () => {
    const failed = result.records.filter((r) => !r.ok && !r.qid.includes('::'));
    expect(Object.fromEntries(failed.map((r) => [r.qid, r.error]))).toEqual(gen.brokenFiles);
  });

  it('fails exactly the items whose question names no node: 11 questions (10 cite node ids), for each of 5 agents', () => {
    const failed = pairs.filter(({ r }) => !r.ok);
    expect(new Set(failed.map(({ r }) => r.error))).toEqual(new Set(['no_node_name_hit_in_question']));
    expect(failed).toHaveLength(55);
    expect(new Set(failed.map(({ g }) => g.scene))).toEqual(new Set(['HM3D00011', 'HM3D00025']));
  });

  it('guesses other endpoints than the node references for 32 of the 326 questions, failures included', () => {
    const human = pairs.filter(({ g }) => g.agent === 'HUMAN');
    expect(human).toHaveLength(326);
    const off = human.filter(({ g, r }) => !r.ok || r.src_id !== g.srcByRefs || r.tgt_id !== g.tgtByRefs);
    expect(off).toHaveLength(32);
  });

  it('scores right answers right where the guess matches the references', () => {
    const right = pairs.filter(({ g, r }) => g.variant === 'correct' && g.feasibleByRefs !== null && r.ok && r.src_id === g.srcByRefs && r.tgt_id === g.tgtByRefs);
    expect(right.length).toBeGreaterThan(800);
    for (const { g, r } of right) {
      expect(r).toMatchObject({ ground_truth_doable: g.feasibleByRefs, vlm_answer: g.feasibleByRefs, correct_answer: true, binary_bucket: g.feasibleByRefs ? 'TP' : 'TN' });
      if (g.feasibleByRefs) expect(r).toMatchObject({ pv_valid: true, rta_applicable: true, traversability_score: 1 });
    }
  });

  it('turns each kind of broken prediction into the outcome the released scorer gives it', () => {
    const scored = pairs.filter(({ r }) => r.ok);
    const of = (v: GeneratedRecord['variant']) => scored.filter(({ g }) => g.variant === v);
    for (const { r } of of('empty-path')) expect(r.format_error_type).toBe('cannot_parse_answer_path');
    for (const { r } of of('yes-one-node')) expect(r.format_error_type).toBe('yes_without_path');
    for (const { r } of of('garbage-answer')) expect(r.vlm_answer).toBe(false);
    for (const { g, r } of [...of('bool-answer'), ...of('letter-answer')]) expect(r.vlm_answer).toBe(g.feasibleByRefs === true);
    for (const { g, r } of of('wrong-answer')) expect(r.vlm_answer).toBe(g.feasibleByRefs !== true);
    for (const { r } of of('unknown-token')) {
      // One id that does not exist sends every token to name matching, where ids resolve to nothing.
      expect(r.vlm_path_ids!.every((id) => id === null)).toBe(true);
      expect(r.pv_errors[0]).toBe('unresolved_tokens');
    }
    const typos = of('names-with-typos').flatMap(({ r }) => r.vlm_path_ids ?? []);
    expect(typos.filter((id) => id !== null).length / typos.length).toBeGreaterThan(0.9);
    for (const v of ['empty-path', 'yes-one-node', 'garbage-answer', 'bool-answer', 'letter-answer', 'wrong-answer', 'unknown-token', 'names-with-typos'] as const) {
      expect(of(v).length, v).toBeGreaterThan(20);
    }
  });

  it('writes the same bytes a Python implementation of §2 wrote for this folder', () => {
    // Hashes of the JSONL and summary produced by a straightforward Python reading of scoring.md §2
    // (CPython 3.11: real difflib, json, re, str) over this exact folder, during development.
    expect(sha256(toJsonl(result.records))).toBe('d8a8b142bebd63287308f9059d176853fd2f7c4750fadeeeab7ecd33e77e5d37');
    expect(sha256(toSummaryJson(result.summary))).toBe('065e93559927ad21e4497e66b57f21f174f4dae760cafd8ea4f472d545a0716a');
  });

  it('scores hand-checked records of real scenes', () => {
    const lobbyToKitchen = 'Can [Agent] move from the entrance area of the Lobby near the shoe rack to the Kitchen area near the stove?';
    const dresser = 'Can [Agent] move from the dresser next to the window in the Bedroom with line pattern sheets to the bed with diamond grid sheets in the Bedroom with diamond grid sheets?';
    const notes: (readonly string[])[] = [];
    const r = scoreReference([
      resultsFile('a.json', 'HM3D00000', [
        // Lobby is node_12, "Kitchn" is Kitchen (ratio 0.92); node_12|node_15 is traversable for the wheelchair.
        item(lobbyToKitchen, 'WHEELCHAIR', 'yes', ['Lobby', 'Kitchn']),
        // The humanoid (ROBOT) can leave the lobby by no edge; the path ends at node_9, not the kitchen.
        item(lobbyToKitchen, 'HUMANOID', 'no', ['node_12', 'node_10', 'node_9'], 'The stairs'),
      ]),
      // The "to" of "next to" ends the start span: the nearest-match fallback finds node_20 and node_21.
      // For the wheelchair node_20|node_23 is traversable, node_23|node_21 is not ("no space to turn").
      resultsFile('b.json', 'MP3D00002', [item(dresser, 'WHEELCHAIR', 'yes', ['node_20', 'node_23', 'node_21'])]),
      resultsFile('c.json', 'HM3D00011', [item('Can [Agent] move from the sofa area in node_8 to the desk area in node_7?', 'HUMAN', 'yes', ['node_8', 'node_7'])]),
    ], truth, { judge: (_reason, n) => { notes.push(n); return 0; } });
    const pick = (x: CompatRecord) => [x.derive_method, x.src_id, x.tgt_id, x.ground_truth_doable, x.vlm_path_ids, x.pv_errors, x.traversability_score, x.rv_score, x.binary_bucket];
    expect(r.records.map(pick)).toEqual([
      ['from_to', 'node_12', 'node_15', true, ['node_12', 'node_15'], [], 1, null, 'TP'],
      ['from_to', 'node_12', 'node_15', false, ['node_12', 'node_10', 'node_9'], ['end_mismatch'], null, 0, 'TN'],
      ['from_to_nearest', 'node_20', 'node_21', false, ['node_20', 'node_23', 'node_21'], [], 0.5, null, 'FP'],
      [null, null, null, null, null, [], null, null, null],
    ]);
    expect(r.records[3]!.error).toBe('no_node_name_hit_in_question');
    expect(notes).toEqual([['Cannot go up/down stairs', 'door too narrow to pass']]);
  });

  it('scores 100,000 records in a few seconds', () => {
    const files = [];
    for (let seed = 100; seed < 108; seed++) {
      const g = generateResults(CAPNAV_DIR, seed);
      for (let copy = 0; copy < 8; copy++) for (const f of g.files) files.push({ path: `copy${copy}/${f.path}`, text: f.text });
    }
    const t0 = performance.now();
    const r = scoreReference(files, truth);
    const ms = performance.now() - t0;
    console.info(`compat scorer: ${r.records.length} records in ${ms.toFixed(0)} ms`);
    expect(r.records.length).toBeGreaterThan(100_000);
    expect(ms).toBeLessThan(8000);
  }, 60_000);
});
