import { describe, expect, it } from 'vitest';
import { forEachAtMost } from '../../../src/core/concurrency.ts';

const tick = (ms = 1) => new Promise((r) => setTimeout(r, ms));

describe('forEachAtMost: every item, at most so many at a time', () => {
  it('never has more than the limit in flight, does use that many, and does every item once', async () => {
    let inFlight = 0,
      most = 0;
    const seen: number[] = [];
    await forEachAtMost([...Array(20).keys()], 3, async (item, i) => {
      expect(item).toBe(i);
      inFlight++;
      most = Math.max(most, inFlight);
      await tick(item % 3);
      seen.push(item);
      inFlight--;
    });
    expect(most).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
  });

  it('takes no more items once told to stop; those taken finish', async () => {
    const done: number[] = [];
    let stop = false;
    await forEachAtMost(
      [...Array(10).keys()],
      2,
      async (item) => {
        await tick();
        done.push(item);
        if (item === 3) stop = true;
      },
      () => !stop,
    );
    expect(done.length).toBeGreaterThanOrEqual(4);
    expect(done.length).toBeLessThanOrEqual(5);
    expect(done).toContain(3);
  });

  it('rejects with the first failure and takes nothing more; nothing to do is done at once', async () => {
    const taken: number[] = [];
    await expect(
      forEachAtMost([...Array(10).keys()], 2, async (item) => {
        taken.push(item);
        await tick();
        if (item === 1) throw new Error('item 1 failed');
      }),
    ).rejects.toThrow('item 1 failed');
    await tick(20);
    expect(taken.length).toBeLessThanOrEqual(3);
    let called = false;
    await forEachAtMost([], 4, async () => {
      called = true;
    });
    expect(called).toBe(false);
  });
});
