import { describe, expect, it } from 'vitest';
import { keyedMemo } from '../../../src/core/keyedMemo.ts';

describe('a keyed memo', () => {
  it('makes a value once per owner and key, and keeps owners apart', () => {
    const memo = keyedMemo<object, { made: number }>();
    let made = 0;
    const make = () => ({ made: ++made });
    const a = {},
      b = {};
    const first = memo(a, 'x', make);
    expect(memo(a, 'x', make)).toBe(first);
    expect(memo(a, 'y', make)).not.toBe(first);
    expect(memo(b, 'x', make)).not.toBe(first);
    expect(made).toBe(3);
  });
});
