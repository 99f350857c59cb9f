import { describe, expect, it } from 'vitest';
import { ruleJudge } from '../../../../src/core/scoring/judges/rule.ts';
import { table2 } from '../../../../src/core/scoring/paper/table2.ts';
import { scorePaper, scorePaperSync } from '../../../../src/core/scoring/paper/score.ts';
import type { Judge } from '../../../../src/core/scoring/judges/types.ts';
import { table2Csv, table2Latex } from '../../../../src/formats/table2.ts';
import { pred, QUESTIONS as Q, scoringHouse } from '../../../support/scoreSupport.ts';

// Issue 23 §11: the paper's Table 2 layout, as CSV and LaTeX.
const house = scoringHouse();
const UP = 'hall -> living -> landing -> bedroom';
const run = (model: string) => [
  pred('HUMAN', Q.hallToBedroom, 'yes', UP, '', { model }),
  pred('WHEELCHAIR', Q.hallToBedroom, 'no', UP, 'the stairs', { model }),
  pred('WHEELCHAIR', Q.hallToKitchen, 'yes', 'hall -> kitchen', '', { model }),
];

describe('Table 2', () => {
  it("one row per model: Feas-F1, PV, RTA, RV, CapNav, then CapNav per agent in the paper's order; the same figures as the report", () => {
    const a = scorePaperSync(house, run('model_a'), { judge: ruleJudge() });
    const t = table2([['model_a', a]], ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER']);
    expect(t.header).toEqual(['Model', 'Feas-F1', 'PV', 'RTA', 'RV', 'CapNav', 'HUMAN', 'WHEELCHAIR']);
    expect(t.rows[0]!.cells).toEqual([
      a.headline.f1,
      a.headline.pv,
      a.headline.rta,
      a.headline.rv,
      a.headline.capnav,
      a.perAgent.HUMAN!.capnav,
      a.perAgent.WHEELCHAIR!.capnav,
    ]);
    const csv = table2Csv(t, 'CapNav Table 2: test');
    expect(csv.split('\r\n')[0]).toBe('CapNav Table 2: test');
    expect(csv.split('\r\n')[1]).toBe('Model,Feas-F1,PV,RTA,RV,CapNav,HUMAN,WHEELCHAIR');
    expect(csv.split('\r\n')[2]).toBe(['model_a', ...t.rows[0]!.cells.map((c) => Math.round((c as number) * 100) / 100)].join(','));
    const tex = table2Latex(t, 'CapNav Table 2: test');
    expect(tex).toContain('\\begin{tabular}{lrrrrrrr}');
    expect(tex).toContain(`model\\_a & ${t.rows[0]!.cells.map((c) => (c as number).toFixed(2)).join(' & ')} \\\\`);
  });

  it('a withheld composite (the judge failed) is written as withheld, never as a number', async () => {
    const failing: Judge = { info: { id: 'down', kind: 'http', label: 'down', promptVersion: '1' }, judge: async () => ({ error: 'HTTP 503' }) };
    const r = await scorePaper(house, run('m'), { judge: failing });
    const t = table2([['m', r]], ['HUMAN', 'WHEELCHAIR']);
    expect(t.rows[0]!.cells[4]).toEqual({ withheld: r.headline.incomplete!.capnav });
    expect(table2Csv(t, 't').split('\r\n')[2]).toMatch(/,withheld \(\d+\.\d\d…\d+\.\d\d\),/);
    expect(table2Latex(t, 't')).toContain('$\\dagger$');
  });
});
