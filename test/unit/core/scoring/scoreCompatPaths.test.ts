import { describe, expect, it } from 'vitest';
import type { CompatRecord } from '../../../../src/core/scoring/compat/index.ts';
import { ask, compatScene, item, scoreItems } from '../../../support/compatFixtures.ts';

/*
 * scoring.md §2 steps 4–8 on the house: Kitchen(1) — Hallway(2) — Living room(3);
 * Hallway — Stair landing(4) — Upstairs bedroom(5) — Master bedroom bathroom(6).
 * WHEELCHAIR: 1|2 and 3|2 (stored reversed) traversable; 2|4 blocked "Stairs"; 4|5 blocked with an empty
 * note; 5|6 traversable. ROBOT (the humanoid): 1|2, 2|3 traversable; 2|4, 4|5 "Stairs"; 5|6 unlabelled.
 */

const run = (question: string, agent: string, answer: unknown, path: unknown): CompatRecord => scoreItems([item(question, agent, answer, path)]).records[0]!;
const doable = (question: string, agent: string) => {
  const r = run(question, agent, 'no', ['x']);
  return r.ok ? r.ground_truth_doable : null;
};

const KITCHEN_TO_LIVING = ask('kitchen', 'living room');
const KITCHEN_TO_BEDROOM = ask('kitchen', 'upstairs bedroom');
const KITCHEN_TO_HALLWAY = ask('kitchen', 'hallway');

describe('step 4: ground-truth feasibility by breadth-first search over traversable edges', () => {
  it('reads a segment label under a|b, else under b|a', () => {
    expect(doable(KITCHEN_TO_LIVING, 'WHEELCHAIR')).toBe(true); // uses node_3|node_2 for 2 → 3
    expect(doable(KITCHEN_TO_BEDROOM, 'WHEELCHAIR')).toBe(false);
    expect(doable(KITCHEN_TO_BEDROOM, 'HUMAN')).toBe(true);
  });

  it('lets HUMANOID fall back to the ROBOT table; ROBOT itself is read directly', () => {
    expect(doable(KITCHEN_TO_LIVING, 'HUMANOID')).toBe(true);
    expect(doable(KITCHEN_TO_BEDROOM, 'HUMANOID')).toBe(false);
    expect(doable(KITCHEN_TO_LIVING, 'ROBOT')).toBe(true);
  });

  it('upper-cases the agent first, so "humanoid" and "Wheelchair" find their tables', () => {
    expect(doable(KITCHEN_TO_LIVING, 'humanoid')).toBe(true);
    expect(doable(KITCHEN_TO_BEDROOM, 'Wheelchair')).toBe(false);
    expect(doable(KITCHEN_TO_BEDROOM, 'human')).toBe(true);
  });

  it('gives an unknown agent no traversable edge; source = target stays feasible', () => {
    expect(doable(KITCHEN_TO_LIVING, 'DRONE')).toBe(false);
    expect(doable(ask('kitchen', 'kitchen'), 'DRONE')).toBe(true);
  });

  it('counts an unlabelled edge as not traversable', () => {
    const q = ask('upstairs bedroom', 'master bedroom bathroom');
    expect([doable(q, 'HUMAN'), doable(q, 'WHEELCHAIR'), doable(q, 'HUMANOID')]).toEqual([true, true, false]);
  });
});

describe('step 5: path tokens to node ids', () => {
  const resolved = (path: unknown[]) => {
    const r = run(KITCHEN_TO_LIVING, 'HUMAN', 'no', path);
    return r.ok && !r.format_error ? { ids: r.vlm_path_ids, mapped: r.vlm_path_names_mapped, raw: r.vlm_path_names_raw } : null;
  };
  const ids = (path: unknown[]) => resolved(path)?.ids;

  it('uses node_<digits> tokens as ids when every one of them exists, with null mapped names', () => {
    expect(resolved(['node_1', 'node_2', 'node_3'])).toEqual({
      ids: ['node_1', 'node_2', 'node_3'],
      mapped: [null, null, null],
      raw: ['node_1', 'node_2', 'node_3'],
    });
  });

  it('maps every token by name as soon as one id does not exist, and ids match no name', () => {
    expect(ids(['node_1', 'node_2', 'node_99'])).toEqual([null, null, null]);
    expect(resolved(['node_1', 'Hallway', 'node_3'])).toEqual({
      ids: [null, 'node_2', null],
      mapped: [null, 'Hallway', null],
      raw: ['node_1', 'Hallway', 'node_3'],
    });
    expect(ids(['Node_1', 'node_2'])).toEqual([null, null]);
  });

  it('maps an exact normalised name first, and records the node name it matched', () => {
    expect(resolved(['KITCHEN!', 'Hall-way', 'living   ROOM'])).toEqual({
      ids: ['node_1', 'node_2', 'node_3'],
      mapped: ['Kitchen', 'Hallway', 'Living room'],
      raw: ['KITCHEN!', 'Hall-way', 'living   ROOM'],
    });
  });

  it('else takes the longest name that contains or is contained in the token', () => {
    expect(ids(['upstairs bedroom by the stair landing', 'bedroom'])).toEqual(['node_5', 'node_6']);
  });

  it('breaks a containment tie by the larger raw name in string order', () => {
    const truth = new Map([
      [
        'S',
        compatScene(
          [
            ['node_1', 'Office one'],
            ['node_2', 'office two'],
            ['node_3', 'Den'],
          ],
          [],
        ),
      ],
    ]);
    const r = scoreItems([item('from the den to the office one', 'HUMAN', 'no', ['office one or office two', 'office'])], { scene: 'S', truth }).records[0]!;
    // "office two" > "Office one" by code point (lower case sorts after upper case).
    expect(r.ok && !r.format_error && r.vlm_path_ids).toEqual(['node_2', 'node_2']);
  });

  it('leaves a token that normalises to nothing ("?!") unresolved', () => {
    expect(ids(['?!', 'Kitchen'])).toEqual([null, 'node_1']);
  });

  it('else takes the best SequenceMatcher ratio when it is at least 0.78', () => {
    // ratios: "kitchn"/"kitchen" 0.923; "master bedroomxyom"/"master bedroom bathroom" 0.7805; "livroom"/"living room" 0.7778
    expect(ids(['kitchn', 'master bedroomxyom', 'livroom'])).toEqual(['node_1', 'node_6', null]);
  });

  it('lets the first best name win a ratio tie', () => {
    const truth = new Map([
      [
        'S',
        compatScene(
          [
            ['node_1', 'Hallway A'],
            ['node_2', 'Hallway B'],
            ['node_3', 'Den'],
          ],
          [],
        ),
      ],
    ]);
    const r = scoreItems([item('from the den to the hallway a', 'HUMAN', 'no', ['hallway c', 'den'])], { scene: 'S', truth }).records[0]!;
    expect(r.ok && !r.format_error && r.vlm_path_ids).toEqual(['node_1', 'node_3']);
  });
});

describe('step 6: path validity against the guessed source and target', () => {
  const pv = (r: CompatRecord) => (r.ok && !r.format_error ? { ids: r.vlm_path_ids, valid: r.pv_valid, errors: r.pv_errors } : null);

  it('lists every error in order: unresolved, start, end, repeats, then each missing edge', () => {
    expect(pv(run(KITCHEN_TO_HALLWAY, 'HUMAN', 'no', ['xyzzy', 'Living room', 'Living room', 'Upstairs bedroom']))).toEqual({
      ids: [null, 'node_3', 'node_3', 'node_5'],
      valid: false,
      errors: [
        'unresolved_node_in_path',
        'path_start_not_src',
        'path_end_not_tgt',
        'not_simple_path_repeated_nodes',
        'missing_edge:node_3->node_3',
        'missing_edge:node_3->node_5',
      ],
    });
  });

  it('checks edges between ADJACENT tokens that both resolved: an unresolved token is passed over, never bridged', () => {
    expect(pv(run(KITCHEN_TO_LIVING, 'HUMAN', 'no', ['Kitchen', 'xyzzy', 'Living room']))?.errors).toEqual(['unresolved_node_in_path']);
    expect(pv(run(KITCHEN_TO_LIVING, 'HUMAN', 'no', ['Kitchen', 'Living room']))?.errors).toEqual(['missing_edge:node_1->node_3']);
  });

  it('gives an empty path only empty_path (a "no" whose path items are blank)', () => {
    expect(pv(run(KITCHEN_TO_LIVING, 'HUMAN', 'no', ['', ' -> ']))).toEqual({ ids: [], valid: false, errors: ['empty_path'] });
  });

  it('averages PV over the records that parsed: format errors are left out', () => {
    const r = scoreItems([
      item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', ['node_1', 'node_2', 'node_3']),
      item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', ['node_1', 'node_3']),
      item(KITCHEN_TO_LIVING, 'HUMAN', 'yes', []),
    ]);
    expect(r.records.map((x) => (x.ok ? x.pv_valid : undefined))).toEqual([true, false, null]);
    expect(r.summary).toMatchObject({ pv_total: 2, pv_valid: 1, format_errors: 1, capnav_components: { pv: 0.5 } });
  });
});

describe('step 7: route traversability for yes-answers with a valid path', () => {
  it('scores traversable consecutive pairs / pairs, even on a wrong yes', () => {
    const r = run(KITCHEN_TO_BEDROOM, 'WHEELCHAIR', 'yes', ['node_1', 'node_2', 'node_4', 'node_5']);
    expect(r).toMatchObject({
      pv_valid: true,
      rta_applicable: true,
      traversability_score: 1 / 3,
      ground_truth_doable: false,
      correct_answer: false,
      binary_bucket: null,
    });
  });

  it('does not apply to a no, or to a yes whose path is invalid', () => {
    expect(run(KITCHEN_TO_LIVING, 'HUMAN', 'no', ['node_1', 'node_2', 'node_3'])).toMatchObject({ rta_applicable: false, traversability_score: null });
    expect(run(KITCHEN_TO_LIVING, 'HUMAN', 'yes', ['node_1', 'node_3'])).toMatchObject({ rta_applicable: false, traversability_score: null });
  });
});

describe('step 8: reasoning validity for no-answers', () => {
  const judged = (question: string, agent: string, path: unknown[]) => {
    const calls: [string, readonly string[]][] = [];
    const r = scoreItems([item(question, agent, 'no', path, 'Blocked by the stairs')], {
      judge: (reason, notes) => {
        calls.push([reason, notes]);
        return 1;
      },
    });
    return { record: r.records[0]!, calls };
  };

  it('scores 0.0 without asking the judge: the reason was dropped with the answer line', () => {
    const { record, calls } = judged(KITCHEN_TO_BEDROOM, 'WHEELCHAIR', ['node_1', 'node_2', 'node_4', 'node_5']);
    expect(calls).toEqual([]);
    expect(record).toMatchObject({ rv_applicable: true, rv_score: 0, rv_judge_explanation: 'No reasoning provided by VLM', rv_llm_model: 'none' });
  });

  it('scores 0 with "No valid proposed route for RV" when fewer than two nodes resolve', () => {
    for (const path of [['Kitchen'], ['Kitchen', 'xyzzy']]) {
      const { record, calls } = judged(KITCHEN_TO_BEDROOM, 'WHEELCHAIR', path);
      expect(calls).toEqual([]);
      expect(record).toMatchObject({ rv_applicable: true, rv_score: 0, rv_judge_explanation: 'No valid proposed route for RV' });
    }
  });

  it('asks the judge only when a path item smuggles in "| Reason: …", with the notes of the blocked segments', () => {
    const { record, calls } = judged(KITCHEN_TO_BEDROOM, 'WHEELCHAIR', ['node_1', 'node_2', 'node_4', 'node_5 | Reason: the stairs']);
    // A missing or blank note is written "Edge u->v not traversable for <traverse key>".
    expect(calls).toEqual([['the stairs', ['Stairs', 'Edge node_4->node_5 not traversable for WHEELCHAIR']]]);
    expect(record).toMatchObject({ vlm_path_names_raw: ['node_1', 'node_2', 'node_4', 'node_5'], rv_score: 1, rv_judge_explanation: 'none: correct' });
  });

  it('names the humanoid by its traverse key, ROBOT, in a note it writes, and de-duplicates the notes', () => {
    const { calls } = judged(ask('kitchen', 'master bedroom bathroom'), 'HUMANOID', ['node_1', 'node_2', 'node_4', 'node_5', 'node_6|reason:stairs']);
    expect(calls).toEqual([['stairs', ['Stairs', 'Edge node_5->node_6 not traversable for ROBOT']]]);
  });

  it('scores every RV 0 with the default judge, as the released scorer does with its empty reasons', () => {
    const r = scoreItems([item(KITCHEN_TO_BEDROOM, 'WHEELCHAIR', 'no', ['node_1', 'node_2', 'node_4', 'node_5'], 'Stairs')]);
    expect(r.summary).toMatchObject({ rv_count: 1, rv_sum: 0, capnav_components: { rv: 0 } });
  });
});
