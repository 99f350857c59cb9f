import { describe, expect, it } from 'vitest';
import { isValidPath, pathErrors } from '../../../src/core/pathValidity.ts';
import { navGraph } from '../../support/sceneBuilder.ts';

// hall – kitchen – living – landing, plus a shortcut hall – living.
const house = navGraph(['hall-kitchen', 'kitchen-living', 'living-landing', 'hall-living']);

describe('a model answers with a path from the hall to the landing', () => {
  it('a walkable path that starts and ends where asked is valid', () => {
    expect(pathErrors(house, ['hall', 'kitchen', 'living', 'landing'], 'hall', 'landing')).toEqual([]);
    expect(isValidPath(house, ['hall', 'living', 'landing'], 'hall', 'landing')).toBe(true);
  });

  it('an empty path is reported as empty and nothing else', () => {
    expect(pathErrors(house, [], 'hall', 'landing')).toEqual([{ kind: 'empty' }]);
    expect(isValidPath(house, [], 'hall', 'landing')).toBe(false);
  });

  it('a room that is not in the graph is reported with its position in the path', () => {
    expect(pathErrors(house, ['hall', 'garage', 'landing'], 'hall', 'landing')).toEqual([{ kind: 'unknown-node', index: 1, node: 'garage' }]);
  });

  it('two consecutive rooms with no doorway between them are reported', () => {
    expect(pathErrors(house, ['hall', 'landing'], 'hall', 'landing')).toEqual([{ kind: 'no-edge', index: 0, from: 'hall', to: 'landing' }]);
  });

  it('a path starting in the wrong room is reported with what was expected', () => {
    expect(pathErrors(house, ['kitchen', 'living', 'landing'], 'hall', 'landing')).toEqual([{ kind: 'wrong-start', expected: 'hall', got: 'kitchen' }]);
  });

  it('a path stopping short of the end is reported with what was expected', () => {
    expect(pathErrors(house, ['hall', 'living'], 'hall', 'landing')).toEqual([{ kind: 'wrong-end', expected: 'landing', got: 'living' }]);
  });

  it('walking back through a room already visited is reported at its second visit', () => {
    expect(pathErrors(house, ['hall', 'kitchen', 'hall', 'living', 'landing'], 'hall', 'landing')).toEqual([{ kind: 'repeated-node', index: 2, node: 'hall' }]);
  });

  it('a path with several mistakes reports all of them, ends first, then in path order', () => {
    expect(pathErrors(house, ['kitchen', 'garage', 'kitchen', 'landing', 'hall'], 'hall', 'landing')).toEqual([
      { kind: 'wrong-start', expected: 'hall', got: 'kitchen' },
      { kind: 'wrong-end', expected: 'landing', got: 'hall' },
      { kind: 'unknown-node', index: 1, node: 'garage' },
      { kind: 'repeated-node', index: 2, node: 'kitchen' },
      { kind: 'no-edge', index: 2, from: 'kitchen', to: 'landing' },
      { kind: 'no-edge', index: 3, from: 'landing', to: 'hall' },
    ]);
  });
});
