import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../src/core/agents.ts';
import { driveDraft, findingsOfContact } from '../../../src/core/driveDraft.ts';
import { judgeEdge } from '../../../src/core/rules.ts';

// What a drive proposes as the label draft: the reason category and the rules' own words, so a
// drive, a suggestion and the ground truth say "step too high" alike.

const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;
const WHEELCHAIR = agent('WHEELCHAIR'),
  SWEEPER = agent('SWEEPER'),
  QUADRUPEDAL = agent('QUADRUPEDAL');
const at = { x: 0, y: 0, z: 0 };

describe('the planner’s findings as a draft', () => {
  it('proposes nothing when the agent got through', () => {
    expect(driveDraft({ reached: true, reason: null, measured: { clearWidthM: 0.8 } }, WHEELCHAIR)).toBeNull();
  });

  it('words each reason exactly as the ground truth of the same obstacle does', () => {
    const same = (findings: Parameters<typeof driveDraft>[0], profile: AgentProfile, feature: Parameters<typeof judgeEdge>[1]) =>
      expect(driveDraft(findings, profile)!.note).toBe(judgeEdge(profile, feature).note);
    same({ reached: false, reason: 'stairs', measured: { risers: 16, riserM: 0.175 } }, WHEELCHAIR, { kind: 'stairs', riserM: 0.175, risers: 16, at });
    same({ reached: false, reason: 'step', measured: { stepHeightM: 0.02 } }, WHEELCHAIR, { kind: 'doorway', clearWidthM: 0.8, sillHeightM: 0.02, at });
    same({ reached: false, reason: 'narrow', measured: { clearWidthM: 0.7 } }, WHEELCHAIR, { kind: 'doorway', clearWidthM: 0.7, at });
    same({ reached: false, reason: 'narrow', measured: { clearHeightM: 0.35 } }, QUADRUPEDAL, { kind: 'doorway', clearWidthM: 1, clearHeightM: 0.35, at });
    same({ reached: false, reason: 'door', measured: {} }, QUADRUPEDAL, { kind: 'doorway', clearWidthM: 0.8, closedDoor: true, at });
    same({ reached: false, reason: 'lift', measured: {} }, SWEEPER, { kind: 'lift', clearWidthM: 1.1, at });
    same({ reached: false, reason: 'turning', measured: { clearWidthM: 0.8 } }, WHEELCHAIR, { kind: 'corner', cornerWidthsM: [0.8, 0.8], at });
  });

  it('says what the collider met when the measurements do not explain the stop', () => {
    expect(driveDraft({ reached: false, reason: 'other', measured: {}, message: 'A drop of 0.80 m (more than 0.5 m)' }, WHEELCHAIR)).toEqual({
      reason: 'other',
      note: 'A drop of 0.80 m (more than 0.5 m)',
    });
  });
});

describe('a contact met driving by hand, as findings', () => {
  it('a closed door the agent cannot open', () => {
    expect(findingsOfContact({ kind: 'door', message: 'A closed door the agent cannot open' }, QUADRUPEDAL)?.reason).toBe('door');
  });
  it("a step above the limit is a step; a drop is said in the collider's words", () => {
    expect(findingsOfContact({ kind: 'step', message: 'A step', heightM: 0.02 }, WHEELCHAIR)).toMatchObject({
      reason: 'step',
      measured: { stepHeightM: 0.02 },
    });
    expect(findingsOfContact({ kind: 'drop', message: 'A drop of 0.80 m (more than 0.5 m)' }, WHEELCHAIR)).toMatchObject({
      reason: 'other',
      message: 'A drop of 0.80 m (more than 0.5 m)',
    });
  });
  it('a wall or furniture touched, or a step the agent can climb, is where the driver steered: no finding, no draft (issue 23 §8)', () => {
    expect(findingsOfContact({ kind: 'wall', message: 'A wall or furniture in the way' }, WHEELCHAIR)).toBeNull();
    expect(findingsOfContact({ kind: 'step', message: 'A step', heightM: 0.01 }, WHEELCHAIR)).toBeNull();
  });
});
