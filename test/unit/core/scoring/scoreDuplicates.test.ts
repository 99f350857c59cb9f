import { describe, expect, it } from 'vitest';
import { scorePaperSync } from '../../../../src/core/scoring/paper/score.ts';
import { pred, QUESTIONS as Q, scoringHouse } from '../../../support/scoreSupport.ts';

const house = scoringHouse();

describe("a model's tasks predicted twice (issue 13: a baseline file and the baseline button pooled 3,190 records without a word)", () => {
  it('counts the tasks, the extra predictions, and names the files they came from', () => {
    const fromFile = { file: 'rand.jsonl' },
      fromButton = { file: 'random-walk.jsonl' };
    const report = scorePaperSync(house, [
      pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> kitchen', '', fromFile),
      pred('HUMAN', Q.hallToBedroom, 'yes', 'hall -> living -> landing -> bedroom', '', fromFile),
      pred('WHEELCHAIR', Q.hallToKitchen, 'yes', 'hall -> kitchen', '', fromFile),
      pred('HUMAN', Q.hallToKitchen, 'no', 'hall -> kitchen', 'door', fromButton),
      pred('HUMAN', Q.hallToBedroom, 'yes', 'hall -> living -> landing -> bedroom', '', fromButton),
      pred('HUMAN', Q.hallToBedroom, 'yes', 'hall -> living -> landing -> bedroom', '', fromButton),
    ]);
    expect(report.records).toHaveLength(6);
    expect(report.duplicates).toEqual({ tasks: 2, extra: 3, sources: [{ files: ['rand.jsonl', 'random-walk.jsonl'], tasks: 2 }] });
  });

  it('one prediction per task, or the same question for another agent, is no duplicate', () => {
    const report = scorePaperSync(house, [
      pred('HUMAN', Q.hallToKitchen, 'yes', 'hall -> kitchen'),
      pred('WHEELCHAIR', Q.hallToKitchen, 'yes', 'hall -> kitchen'),
    ]);
    expect(report.duplicates).toEqual({ tasks: 0, extra: 0, sources: [] });
  });
});
