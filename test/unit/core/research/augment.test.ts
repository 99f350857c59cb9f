import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonFiles } from '../../../../src/cli/files.ts';
import { augment } from '../../../../src/core/research/augment.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { REPO } from '../../../support/cli.ts';

// Balancing obstacle types (issue 27 §1): with a budget, the infeasible tasks kept take the obstacle
// categories in turn, so a rare one is not crowded out by the common one; without it, a seeded
// sample keeps the proportions of the whole.

const project = readRelease(readJsonFiles(join(REPO, 'scenes/sample-house'))).project!;
const firstObstacles = (tasks: ReturnType<typeof augment>['tasks'], agent: string) =>
  new Set(tasks.filter((t) => t.agent === agent && !t.feasible).map((t) => t.blocking!.categories[0] ?? 'unlabelled'));

describe('augment with a budget', () => {
  it('balanced by obstacles: every obstacle type that blocks the agent anywhere is among the few tasks kept', () => {
    const all = augment(project).tasks;
    for (const agent of ['WHEELCHAIR', 'SWEEPER']) {
      const kinds = firstObstacles(all, agent);
      expect(kinds.size, agent).toBeGreaterThan(1);
      const kept = augment(project, { agents: [agent], budget: 2 * kinds.size, balance: { obstacles: true } }).tasks;
      expect(kept.length).toBe(2 * kinds.size);
      expect(firstObstacles(kept, agent), agent).toEqual(kinds);
    }
  });

  it('a plain budget is a sample of that size, the same for the same seed', () => {
    const a = augment(project, { budget: 5, seed: 3 }).tasks;
    expect(a.length).toBe(5 * project.profiles.length);
    expect(augment(project, { budget: 5, seed: 3 }).tasks).toEqual(a);
  });
});
