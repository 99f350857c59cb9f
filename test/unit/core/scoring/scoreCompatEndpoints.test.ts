import { describe, expect, it } from 'vitest';
import type { CompatRecord } from '../../../../src/core/scoring/compat/index.ts';
import { normaliseText, wordHits } from '../../../../src/core/scoring/compat/normalise.ts';
import { compatScene, guessIn, item, scoreItems } from '../../../support/compatFixtures.ts';

/*
 * scoring.md §2 step 3: the released scorer guesses source and target from the question text
 * instead of reading the question's node references. These tests pin the guess, wrong guesses
 * included: compat mode must be wrong exactly where the released scorer is. (With
 * TRAVERSA_RELEASED_SCORER set, every record here is also checked against the released scorer.)
 */

const KITCHEN: [string, string] = ['node_1', 'Kitchen'];
const HALLWAY: [string, string] = ['node_2', 'Hallway'];
const LIVING: [string, string] = ['node_3', 'Living room'];
const MASTER: [string, string] = ['node_4', 'Master bedroom'];
const MASTER_BATH: [string, string] = ['node_5', 'Master bedroom bathroom'];
const ends = (r: CompatRecord) => (r.ok ? [r.src_id, r.tgt_id, r.derive_method] : [r.error]);
const names = (r: CompatRecord) => (r.ok ? [r.src_name, r.tgt_name] : []);

describe('normalising question text and names as norm_text does', () => {
  it('lowercases, strips, deletes ASCII punctuation (underscore too) and collapses whitespace, in that order', () => {
    expect(normaliseText('  Can [Agent] move from the L-shaped   sofa\tto the node_12?! ')).toBe('can agent move from the lshaped sofa to the node12');
  });

  it('keeps punctuation outside ASCII, and a space left behind by deleted punctuation at either end', () => {
    expect(normaliseText('the café’s door – upstairs')).toBe('the café’s door – upstairs');
    expect(normaliseText('Hall -')).toBe('hall ');
    expect(normaliseText('- Hall')).toBe(' hall');
  });

  it('finds whole words with Unicode word boundaries, a name that starts or ends with a space included', () => {
    expect(wordHits('the kitchenette and the kitchen', 'kitchen')).toEqual([{ start: 24, end: 31 }]);
    expect(wordHits('go to the hall now', 'hall ')).toEqual([{ start: 10, end: 15 }]);
    expect(wordHits('the cafés door', 'café')).toEqual([]);
  });

  it('so a hyphenated mention no longer matches its name: "living-room" is not "living room"', () => {
    expect(ends(guessIn([KITCHEN, LIVING, HALLWAY], 'Can [Agent] move from the kitchen to the living-room via the hallway?'))).toEqual([
      'node_1',
      'node_2',
      'from_to_partition',
    ]);
  });
});

describe('step 3: source and target guessed from the question text', () => {
  it('takes the name between "from" and "to" as the source and the name after "to" as the target (from_to_partition)', () => {
    const r = guessIn([LIVING, KITCHEN, HALLWAY], 'Can [Agent] move from the kitchen to the living room?');
    expect(ends(r)).toEqual(['node_1', 'node_3', 'from_to_partition']);
    expect(names(r)).toEqual(['Kitchen', 'Living room']);
  });

  it('matches whole words only: "kitchenette" is not the kitchen', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'Can [Agent] move from the kitchenette by the hallway to the living room?'))).toEqual([
      'node_2',
      'node_3',
      'from_to_partition',
    ]);
  });

  it('scores a start by −|centre − end of "from"| + 0.08·length, so a short name inside a long one wins', () => {
    // "master bedroom" (centre 16) beats "master bedroom bathroom" (centre 20.5): −12 + 1.12 > −16.5 + 1.84.
    expect(ends(guessIn([MASTER, MASTER_BATH, KITCHEN], 'from the master bedroom bathroom to the kitchen'))).toEqual(['node_4', 'node_1', 'from_to_partition']);
  });

  it('scores an end by −|centre − start of "to"| + 0.08·length: the nearest name after "to" wins', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'from the kitchen to the hallway next to the living room'))).toEqual([
      'node_1',
      'node_2',
      'from_to_partition',
    ]);
  });

  it('lets length outweigh distance when the gap is small: 0.08 per character', () => {
    // "bath" (centre 30) vs "master bedroom bath" (centre 22.5), "to" starts at 17: −13 + 0.32 < −5.5 + 1.52.
    expect(ends(guessIn([KITCHEN, ['node_6', 'bath'], ['node_7', 'master bedroom bath']], 'from the kitchen to the master bedroom bath'))).toEqual([
      'node_1',
      'node_7',
      'from_to_partition',
    ]);
  });

  it('when start and end carry the same name, takes the best end with another name', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY], 'from the kitchen to the kitchen near the hallway'))).toEqual(['node_1', 'node_2', 'from_to_partition']);
  });

  it('keeps the same name for both when no other end candidate exists', () => {
    // The hallway is named, but before "from": it is no end candidate.
    expect(ends(guessIn([KITCHEN, HALLWAY], 'past the hallway, from the kitchen to the kitchen'))).toEqual(['node_1', 'node_1', 'from_to_partition']);
  });

  it('compares raw names: "Kitchen" and "kitchen" are two names with the same hits, so they count as different', () => {
    const r = guessIn([['node_1', 'Kitchen'], ['node_2', 'kitchen'], HALLWAY], 'from the kitchen to the kitchen');
    expect(ends(r)).toEqual(['node_1', 'node_2', 'from_to_partition']);
    expect(names(r)).toEqual(['Kitchen', 'kitchen']);
  });

  it('maps a name shared by two nodes to the LAST of them ({name: id} keeps the last id)', () => {
    expect(ends(guessIn([['node_9', 'Bedroom'], ['node_8', 'Bedroom'], KITCHEN], 'from the bedroom to the kitchen'))).toEqual([
      'node_8',
      'node_1',
      'from_to_partition',
    ]);
  });

  it('counts a hit centred right on an anchor: start candidates lie in [end of "from", start of "to"]', () => {
    // The name "a to" spans 5..9, centred at 7, where "to" starts: a start candidate (and an end one, of the same name).
    const r = guessIn([KITCHEN, ['node_7', 'a to']], 'from a to the kitchen');
    expect(ends(r)).toEqual(['node_7', 'node_1', 'from_to_partition']);
  });

  it('uses the first "from" and the first "to" after it, even the "to" of "next to"', () => {
    // "to" of "next to" ends the start span early: no start candidate, so the nearest-match fallback decides.
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'from next to the kitchen sink to the living room'))).toEqual(['node_1', 'node_3', 'degraded_closest']);
  });

  it('falls back, with "from" but no candidates on one side, to the names after "from" nearest each anchor (degraded_closest, weight 0.05)', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'from the kitchen near the hallway to somewhere else'))).toEqual(['node_1', 'node_2', 'degraded_closest']);
    // A single name after "from" is both source and target.
    expect(ends(guessIn([KITCHEN, HALLWAY], 'from the kitchen to somewhere else'))).toEqual(['node_1', 'node_1', 'degraded_closest']);
  });

  it('fails no_hits_after_from when every name comes before "from", with derive_method null', () => {
    const r = guessIn([KITCHEN, HALLWAY], 'the kitchen and the hallway, from here to there');
    expect(ends(r)).toEqual(['no_hits_after_from']);
    expect(r).toMatchObject({ ok: false, derive_method: null });
  });

  it('takes the first and last hits by position without "from"/"to" (fallback_first_last), longer first on equal starts', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'Is the living room reachable starting in the kitchen, past the hallway?'))).toEqual([
      'node_3',
      'node_2',
      'fallback_first_last',
    ]);
    // Both bedroom names start at the same place: the longer sorts first, so the shorter is the last hit.
    expect(ends(guessIn([MASTER, MASTER_BATH, KITCHEN], 'kitchen, then the master bedroom bathroom'))).toEqual(['node_1', 'node_4', 'fallback_first_last']);
    expect(ends(guessIn([MASTER, MASTER_BATH, KITCHEN], 'the master bedroom bathroom, then the kitchen'))).toEqual(['node_5', 'node_1', 'fallback_first_last']);
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'go to the hallway from the kitchen'))).toEqual(['node_2', 'node_1', 'fallback_first_last']);
  });

  it('takes the hit before the last when first and last carry the same name — even if it carries that name too', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY], 'kitchen, hallway, kitchen'))).toEqual(['node_1', 'node_2', 'fallback_first_last']);
    expect(ends(guessIn([KITCHEN, HALLWAY], 'hallway kitchen kitchen hallway'))).toEqual(['node_2', 'node_1', 'fallback_first_last']);
    expect(ends(guessIn([KITCHEN, HALLWAY], 'kitchen kitchen'))).toEqual(['node_1', 'node_1', 'fallback_first_last']);
  });

  it('never counts a node whose name normalises to "" as a hit (one release node has an empty name)', () => {
    expect(ends(guessIn([['node_49', ''], ['node_50', '?!'], KITCHEN], 'from the kitchen to the hall'))).toEqual(['node_1', 'node_1', 'degraded_closest']);
  });

  it('fails no_node_name_hit_in_question when no name occurs, e.g. a question citing node ids, with derive_method null', () => {
    const r = guessIn([KITCHEN, HALLWAY], 'Can [Agent] move from the sofa area in node_1 to the desk area in node_2?');
    expect(r).toMatchObject({ ok: false, error: 'no_node_name_hit_in_question', derive_method: null });
    expect(Object.keys(r).slice(-3)).toEqual(['ok', 'error', 'derive_method']);
  });

  it('fails empty_question for a blank question, or one that is not a string', () => {
    const r = scoreItems([item('  \t ', 'HUMAN', 'no', ['x']), { question: 7, agent: 'HUMAN', result: { answer: 'no', path: ['x'] } }]);
    expect(r.records.map((x) => [x.ok, x.ok ? null : x.error])).toEqual([
      [false, 'empty_question'],
      [false, 'empty_question'],
    ]);
  });

  it("guesses per scene: the same question text in two scenes is guessed against each scene's names", () => {
    const q = 'from the kitchen to the hallway';
    const truth = new Map([
      ['A', compatScene([KITCHEN, HALLWAY], [])],
      [
        'B',
        compatScene(
          [
            ['node_7', 'Hallway'],
            ['node_8', 'Kitchen'],
          ],
          [],
        ),
      ],
    ]);
    const a = scoreItems([item(q, 'HUMAN', 'no', ['x'])], { scene: 'A', truth }).records[0]!;
    const b = scoreItems([item(q, 'HUMAN', 'no', ['x'])], { scene: 'B', truth }).records[0]!;
    expect([...ends(a), ...ends(b)]).toEqual(['node_1', 'node_2', 'from_to_partition', 'node_8', 'node_7', 'from_to_partition']);
  });
});
