import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedJudge } from '../../../../src/core/scoring/judges/imported.ts';
import { scorePaperSync } from '../../../../src/core/scoring/paper/score.ts';
import { readVerdictFile } from '../../../../src/formats/predictions/verdicts.ts';
import { pred, QUESTIONS as Q, scoringHouse } from '../../../support/scoreSupport.ts';
import { REPO } from '../../../support/cli.ts';

const FILE = join(REPO, 'test/fixtures/scoring/verdicts.json');
const UP = 'hall -> living -> landing -> bedroom';

describe('imported RV verdicts', () => {
  const read = readVerdictFile({ path: 'verdicts.json', text: readFileSync(FILE, 'utf8') });

  it('a verdict file gives verdicts keyed by prediction or by reason and notes; a bad entry is reported by its place', () => {
    expect(read.name).toBe('hand review');
    expect(read.verdicts).toHaveLength(2);
    expect(read.problems.map((p) => [p.location, p.code])).toEqual([['/verdicts/2', 'verdicts.entry']]);
  });

  it("score with them: a prediction's own verdict, a verdict on the same reason and notes, and none (RV unknown: RV and the composite withheld)", () => {
    const report = scorePaperSync(
      scoringHouse(),
      [
        pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'The landing is in the way', { model: 'model-a_16f' }),
        pred('WHEELCHAIR', Q.kitchenToBath, 'no', 'kitchen -> hall -> bath', 'the bathroom door is too narrow | too tight'),
        pred('HUMANOID', Q.hallToBedroom, 'no', UP, 'stairs'),
      ],
      { judge: importedJudge(read.verdicts, read.name) },
    );
    expect(report.records.map((r) => [r.rv, r.judge?.explanation ?? r.judge?.error])).toEqual([
      [0, 'names the landing, not the stairs'],
      [1, undefined],
      [null, 'no imported verdict for this prediction'],
    ]);
    expect(report.settings.judge).toEqual({
      id: 'imported:hand review',
      kind: 'imported',
      label: 'imported verdicts (hand review)',
      promptVersion: 'imported',
    });
    // A verdict file that does not cover a record leaves its RV unknown, not absent.
    expect(report.overall).toMatchObject({ rv: null, capnav: null, n: { rv: 2, unjudged: 1 } });
    expect(report.overall.incomplete!.rv[0]).toBeCloseTo(100 / 3, 10);
    expect(report.overall.incomplete!.rv[1]).toBeCloseTo(200 / 3, 10);
  });

  it('JSONL verdict files hold one verdict per line', () => {
    const jsonl = readVerdictFile({ path: 'v.jsonl', text: '{"reason": "stairs", "notes": ["Stairs"], "correct": true}\n\nnot json\n' });
    expect(jsonl.verdicts).toEqual([{ reason: 'stairs', notes: ['Stairs'], correct: true }]);
    expect(jsonl.problems.map((p) => p.location)).toEqual(['line 3']);
  });
});
