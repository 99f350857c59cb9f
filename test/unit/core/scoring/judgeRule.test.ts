import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { categoriesOf, deniedAbilities } from '../../../../src/core/scoring/judges/categories.ts';
import { judgeByCategories, ruleJudge } from '../../../../src/core/scoring/judges/rule.ts';
import { CAPNAV_DIR, sharedAvailable } from '../../../support/shared.ts';

describe("the rule judge's obstacle vocabulary", () => {
  it.each([
    ['cannot go up/down stairs', ['stairs']],
    ['door too narrow', ['narrow']],
    ['Door sill too high', ['step']],
    ['floor height difference', ['step']],
    ['The white fur rug is too thick to cross', ['step']],
    ['not enough turning space at bathroom door', ['turning']],
    ['cannot open door', ['door']],
    ['cannot operate elevator', ['lift']],
    ['sofa block the way', ['narrow']],
    ['Yard terrain too steep', ['other']],
    ['cannot go up/down stairs; door too narrow', ['stairs', 'narrow']],
    ['hallway next to the stairs too narrow', ['narrow']],
    ['bthroom oor too nrro', ['narrow']],
  ])("annotators' note %j names %j", (note, cats) => expect(categoriesOf(note)).toEqual(cats));

  it.each([
    ['The agent cannot climb the stairs between the hall and the landing.', ['stairs']],
    ['The doorway is too narrow for a 0.7 m wide wheelchair', ['narrow']],
    ['There is a raised threshold at the entrance', ['step']],
    ['The robot cannot open the closed door to the study', ['door']],
    ['There is no space to turn around in the bathroom', ['turning']],
    ['The random walk did not reach the goal within 12 steps', []],
    ['I am not sure', []],
  ])("a model's reason %j names %j", (reason, cats) => expect(categoriesOf(reason)).toEqual(cats));

  it('abilities a reason denies: stairs named, "cannot open" a door, "cannot use" a lift — not a mere closed door', () => {
    expect(deniedAbilities('It cannot use the stairs')).toEqual(['stairs']);
    expect(deniedAbilities('The agent is unable to open the door')).toEqual(['door']);
    expect(deniedAbilities("It can't operate the elevator")).toEqual(['lift']);
    expect(deniedAbilities('The bathroom door is closed')).toEqual([]);
  });

  const haveRelease = sharedAvailable(CAPNAV_DIR, "the rule judge against the release's notes");
  it.skipIf(!haveRelease)('every not-traversable note of the shared release names at least one category', () => {
    const unnamed = new Set<string>();
    let notes = 0;
    for (const f of readdirSync(join(CAPNAV_DIR, 'traverse'))) {
      const traverse = JSON.parse(readFileSync(join(CAPNAV_DIR, 'traverse', f), 'utf8')) as Record<
        string,
        Record<string, { traversable?: boolean; note?: string }>
      >;
      for (const [agent, table] of Object.entries(traverse)) {
        if (agent.startsWith('_')) continue;
        for (const label of Object.values(table)) {
          if (label?.traversable !== false) continue;
          notes++;
          if (categoriesOf(label.note ?? '').length === 0) unnamed.add(label.note ?? '');
        }
      }
    }
    expect(notes).toBeGreaterThan(500);
    expect([...unnamed]).toEqual([]);
  });
});

describe('the rule judge', () => {
  it('accepts a reason that names an obstacle category the ground truth names, and says so', () => {
    expect(judgeByCategories({ reason: 'the stairs block it', notes: ['cannot go up/down stairs', 'door too narrow'], agent: 'WHEELCHAIR' })).toEqual({
      correct: true,
      explanation: 'the reason names stairs, as the ground truth does',
    });
  });

  it('rejects a reason that names another obstacle, or none', () => {
    expect(judgeByCategories({ reason: 'the door is too narrow', notes: ['cannot go up/down stairs'], agent: 'WHEELCHAIR' }).correct).toBe(false);
    expect(judgeByCategories({ reason: 'it just cannot', notes: ['cannot go up/down stairs'], agent: 'WHEELCHAIR' })).toEqual({
      correct: false,
      explanation: 'the reason names no known obstacle; the ground truth names stairs',
    });
  });

  it("prefers the ground truth's recorded categories to the words of its notes", () => {
    expect(judgeByCategories({ reason: 'too narrow', notes: ['siehe Foto'], categories: ['narrow'], agent: 'HUMANOID' }).correct).toBe(true);
  });

  it('is always labelled as a rule judge, never as an LLM', () => {
    expect(ruleJudge().info).toMatchObject({ id: 'rule', kind: 'rule', label: expect.stringContaining('not an LLM') });
  });
});
