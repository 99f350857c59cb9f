import { describe, expect, it } from 'vitest';
import { guessEndpoints, namedNodes } from '../../src/core/scoring/compat/endpoints.ts';
import { normaliseText } from '../../src/core/scoring/compat/normalise.ts';
import { compatScene, guessIn, item, scoreItems } from '../support/compatFixtures.ts';

/*
 * scoring.md §2 step 3: the released scorer guesses source and target from the question text
 * instead of reading the question's node references. These tests pin the guess, wrong guesses
 * included: compat mode must be wrong exactly where the released scorer is.
 */

const KITCHEN: [string, string] = ['node_1', 'Kitchen'];
const HALLWAY: [string, string] = ['node_2', 'Hallway'];
const LIVING: [string, string] = ['node_3', 'Living room'];
const MASTER: [string, string] = ['node_4', 'Master bedroom'];
const MASTER_BATH: [string, string] = ['node_5', 'Master bedroom bathroom'];
const ends = (r: ReturnType<typeof guessIn>) => [r.src_id, r.tgt_id, r.derive_method];

describe('normalising question text and names', () => {
  it('lowercases, deletes punctuation (not replacing it by a space) and collapses whitespace', () => {
    expect(normaliseText('  Can [Agent] move from the L-shaped   sofa\tto the café’s door?! ')).toBe('can agent move from the lshaped sofa to the cafés door');
  });

  it('so a hyphenated mention no longer matches its name: "living-room" is not "living room"', () => {
    expect(ends(guessIn([KITCHEN, LIVING, HALLWAY], 'Can [Agent] move from the kitchen to the living-room via the hallway?'))).toEqual(['node_1', 'node_2', 'from_to']);
  });
});

describe('step 3: source and target guessed from the question text', () => {
  it('takes the name between "from" and "to" as the source and the name after "to" as the target', () => {
    expect(ends(guessIn([LIVING, KITCHEN, HALLWAY], 'Can [Agent] move from the kitchen to the living room?'))).toEqual(['node_1', 'node_3', 'from_to']);
  });

  it('matches whole words only: "kitchenette" is not the kitchen', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'Can [Agent] move from the kitchenette by the hallway to the living room?'))).toEqual(['node_2', 'node_3', 'from_to']);
  });

  it('scores a start by −|centre − end of "from"| + 0.08·length, so a short name inside a long one wins', () => {
    // "master bedroom" (centre 16) beats "master bedroom bathroom" (centre 20.5): −12 + 1.12 > −16.5 + 1.84.
    expect(ends(guessIn([MASTER, MASTER_BATH, KITCHEN], 'from the master bedroom bathroom to the kitchen'))).toEqual(['node_4', 'node_1', 'from_to']);
  });

  it('scores an end by −|centre − start of "to"| + 0.08·length: the nearest name after "to" wins', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'from the kitchen to the hallway next to the living room'))).toEqual(['node_1', 'node_2', 'from_to']);
  });

  it('lets length outweigh distance when the gap is small: 0.08 per character', () => {
    // "bath" (centre 30) vs "master bedroom bath" (centre 22.5), "to" starts at 17: −13 + 0.32 < −5.5 + 1.52.
    const r = guessIn([KITCHEN, ['node_6', 'bath'], ['node_7', 'master bedroom bath']], 'from the kitchen to the master bedroom bath');
    expect(ends(r)).toEqual(['node_1', 'node_7', 'from_to']);
  });

  it('when start and end are the same name, takes the best end with a different name', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY], 'from the kitchen to the kitchen near the hallway'))).toEqual(['node_1', 'node_2', 'from_to']);
  });

  it('keeps the same name for both when no other end candidate exists', () => {
    // The hallway is named, but before "from": it is no end candidate.
    expect(ends(guessIn([KITCHEN, HALLWAY], 'past the hallway, from the kitchen to the kitchen'))).toEqual(['node_1', 'node_1', 'from_to']);
  });

  it('lets the first node in file order win between two nodes of the same name', () => {
    expect(ends(guessIn([['node_9', 'Bedroom'], ['node_8', 'Bedroom'], KITCHEN], 'from the bedroom to the kitchen'))).toEqual(['node_9', 'node_1', 'from_to']);
  });

  it('uses the first "from" and the first "to" after it, even the "to" of "next to"', () => {
    // "to" of "next to" ends the start span early: no start candidate, so the nearest-match fallback decides.
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'from next to the kitchen sink to the living room'))).toEqual(['node_1', 'node_3', 'from_to_nearest']);
  });

  it('falls back, with "from" but no candidates on one side, to the names after "from" nearest each anchor (weight 0.05)', () => {
    // No name after the "to": both anchors pick among the names after "from".
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'from the kitchen near the hallway to somewhere else'))).toEqual(['node_1', 'node_2', 'from_to_nearest']);
    // A single name after "from" is both source and target.
    expect(ends(guessIn([KITCHEN, HALLWAY], 'from the kitchen to somewhere else'))).toEqual(['node_1', 'node_1', 'from_to_nearest']);
  });

  it('takes the first and last hits by position without "from"/"to", longer first on equal starts', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'Is the living room reachable starting in the kitchen, past the hallway?'))).toEqual(['node_3', 'node_2', 'first_last']);
    // Both bedroom names start at the same place: the longer sorts first, so the shorter is the last hit.
    expect(ends(guessIn([MASTER, MASTER_BATH, KITCHEN], 'kitchen, then the master bedroom bathroom'))).toEqual(['node_1', 'node_4', 'first_last']);
    expect(ends(guessIn([MASTER, MASTER_BATH, KITCHEN], 'the master bedroom bathroom, then the kitchen'))).toEqual(['node_5', 'node_1', 'first_last']);
  });

  it('takes first and last too when "from" has no "to" after it, or no name follows "from"', () => {
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'go to the hallway from the kitchen'))).toEqual(['node_2', 'node_1', 'first_last']);
    expect(ends(guessIn([KITCHEN, HALLWAY, LIVING], 'the kitchen and the hallway, from here to there'))).toEqual(['node_1', 'node_2', 'first_last']);
  });

  it('never counts a node whose name normalises to "" as a hit (one release node has an empty name)', () => {
    const names = namedNodes([{ id: 'node_49', name: '' }, { id: 'node_50', name: '?!' }, { id: 'node_1', name: 'Kitchen' }]);
    expect(names.map((n) => n.id)).toEqual(['node_1']);
    expect(guessEndpoints('from the kitchen to the hall', names)).toEqual({ src: 'node_1', tgt: 'node_1', method: 'from_to_nearest' });
  });

  it('fails the record with no_node_name_hit_in_question when no name occurs, e.g. a question citing node ids', () => {
    const r = guessIn([KITCHEN, HALLWAY], 'Can [Agent] move from the sofa area in node_1 to the desk area in node_2?');
    expect(r).toMatchObject({ ok: false, error: 'no_node_name_hit_in_question', src_id: null, ground_truth_doable: null, binary_bucket: null });
  });

  it('guesses per scene: the same question text in two scenes is guessed against each scene\'s names', () => {
    const q = 'from the kitchen to the hallway';
    const truth = new Map([
      ['A', compatScene([KITCHEN, HALLWAY], [])],
      ['B', compatScene([['node_7', 'Hallway'], ['node_8', 'Kitchen']], [])],
    ]);
    const a = scoreItems([item(q, 'HUMAN', 'no', ['x'])], { scene: 'A', truth }).records[0]!;
    const b = scoreItems([item(q, 'HUMAN', 'no', ['x'])], { scene: 'B', truth }).records[0]!;
    expect([a.src_id, a.tgt_id, b.src_id, b.tgt_id]).toEqual(['node_1', 'node_2', 'node_8', 'node_7']);
  });
});
