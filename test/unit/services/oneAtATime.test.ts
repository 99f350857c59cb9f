import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../../src/services/durableDecision.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('decisions pressed faster than they are stored (issue 25 §11)', () => {
  it('run one at a time, in the order pressed: none overlaps another, none is lost', async () => {
    const told: string[] = [];
    const q = oneAtATime((m) => told.push(m));
    const log: string[] = [];
    let busy = false;
    for (let i = 0; i < 10; i++) {
      q.run(async () => {
        expect(busy).toBe(false);
        busy = true;
        log.push(`start ${i}`);
        await sleep(15);
        busy = false;
        q.tell(`Saved ${i}.`);
        return true;
      });
    }
    await sleep(400);
    expect(log).toEqual(Array.from({ length: 10 }, (_, i) => `start ${i}`));
    expect(told).toEqual(Array.from({ length: 10 }, (_, i) => `Saved ${i}.`));
  });

  it('a decision not taken drops the presses waiting behind it, and the notice counts them', async () => {
    const told: string[] = [];
    const q = oneAtATime((m) => told.push(m));
    const ran: number[] = [];
    const decide = (i: number, ok: boolean) => async () => {
      ran.push(i);
      await sleep(5);
      if (!ok) q.tell('The label could not be saved; the queue stays here.');
      return ok;
    };
    q.run(decide(0, true));
    q.run(decide(1, false));
    q.run(decide(2, true));
    q.run(decide(3, true));
    await sleep(100);
    expect(ran).toEqual([0, 1]);
    expect(told.at(-1)).toBe('The label could not be saved; the queue stays here. (2 more key presses were not applied.)');
    // The next press is taken again.
    q.run(decide(4, true));
    await sleep(30);
    expect(ran).toEqual([0, 1, 4]);
  });
});
