import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../src/core/agents.ts';
import { judgeEdge, maxTurningLengthM, turnsCorner, type PassageFeature } from '../../../src/core/rules.ts';

const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;
const [HUMAN, WHEELCHAIR, HUMANOID, QUADRUPEDAL, SWEEPER] = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'].map(agent) as [
  AgentProfile,
  AgentProfile,
  AgentProfile,
  AgentProfile,
  AgentProfile,
];
const at = { x: 0, y: 0, z: 0 };
const doorway = (clearWidthM: number, more: Partial<PassageFeature> = {}): PassageFeature => ({ kind: 'doorway', clearWidthM, at, ...more });
const corner = (a: number, b = a): PassageFeature => ({ kind: 'corner', clearWidthM: Math.min(a, b), cornerWidthsM: [a, b], at });

describe('stairs and lifts', () => {
  const stairs: PassageFeature = { kind: 'stairs', clearWidthM: 1, riserM: 0.175, risers: 16, at };
  const lift: PassageFeature = { kind: 'lift', clearWidthM: 1.1, at };

  it('stairs stop every agent that cannot go up or down stairs, and only those', () => {
    for (const a of [WHEELCHAIR, HUMANOID, SWEEPER])
      expect(judgeEdge(a, stairs)).toMatchObject({ traversable: false, note: 'Stairs: cannot go up or down stairs', failedRule: 'stairs' });
    for (const a of [HUMAN, QUADRUPEDAL]) expect(judgeEdge(a, stairs)).toMatchObject({ traversable: true, note: 'Clear: stairs' });
  });

  it('the lift stops the quadruped and the sweeper, who cannot operate it', () => {
    for (const a of [QUADRUPEDAL, SWEEPER]) expect(judgeEdge(a, lift)).toMatchObject({ traversable: false, note: 'Lift: cannot operate the lift' });
    for (const a of [HUMAN, WHEELCHAIR, HUMANOID]) expect(judgeEdge(a, lift).traversable).toBe(true);
  });
});

describe('doorways', () => {
  it('a closed door stops agents that cannot open doors before anything is measured', () => {
    const shut = doorway(0.8, { closedDoor: true });
    expect(judgeEdge(QUADRUPEDAL, shut)).toMatchObject({ traversable: false, note: 'Closed door: cannot open doors', failedRule: 'closed-door' });
    // The humanoid opens it, then does not fit through it.
    expect(judgeEdge(HUMANOID, shut)).toMatchObject({ traversable: false, note: 'Narrow passage: clear width 0.80 m < 0.94 m needed', failedRule: 'width' });
    expect(judgeEdge(WHEELCHAIR, shut)).toMatchObject({ traversable: true, note: 'Clear: closed door, the agent opens it' });
  });

  it("a sill counts as crossable up to the agent's step plus the 1 mm measuring tolerance", () => {
    expect(judgeEdge(SWEEPER, doorway(0.8, { sillHeightM: 0.02 })).traversable).toBe(true); // rated exactly 2 cm
    expect(judgeEdge(SWEEPER, doorway(0.8, { sillHeightM: 0.0205 })).traversable).toBe(true);
    expect(judgeEdge(SWEEPER, doorway(0.8, { sillHeightM: 0.022 })).traversable).toBe(false);
    expect(judgeEdge(WHEELCHAIR, doorway(0.9, { sillHeightM: 0.01 })).traversable).toBe(true);
    expect(judgeEdge(WHEELCHAIR, doorway(0.9, { sillHeightM: 0.02 }))).toMatchObject({
      traversable: false,
      failedRule: 'sill',
      note: 'Sill 0.02 m higher than the 0.013 m the agent can cross',
    });
    expect(judgeEdge(SWEEPER, doorway(1.2, { sillHeightM: 0.05 })).note).toBe('Sill 0.05 m higher than the 0.02 m the agent can cross');
  });

  it("an agent needs its width plus 2 cm on each side; a cylinder's width is its diameter", () => {
    expect(judgeEdge(WHEELCHAIR, doorway(0.74)).traversable).toBe(true);
    expect(judgeEdge(WHEELCHAIR, doorway(0.7))).toMatchObject({ traversable: false, note: 'Narrow passage: clear width 0.70 m < 0.74 m needed' });
    expect(judgeEdge(HUMANOID, doorway(0.9)).note).toBe('Narrow passage: clear width 0.90 m < 0.94 m needed');
    expect(judgeEdge(HUMANOID, doorway(1.2)).traversable).toBe(true);
    expect(judgeEdge(HUMAN, doorway(0.64)).traversable).toBe(true);
    expect(judgeEdge(HUMAN, doorway(0.63)).traversable).toBe(false);
  });

  it('the first failing rule is the note: the wheelchair at a narrow door with a high sill is stopped by the sill', () => {
    const j = judgeEdge(WHEELCHAIR, doorway(0.7, { sillHeightM: 0.05 }));
    expect(j.failedRule).toBe('sill');
    expect(j.checks.map((c) => c.rule)).toEqual(['sill']);
  });

  it('the judgement does not depend on the direction the agent walks', () => {
    const ahead = doorway(0.8, { sillHeightM: 0.02, direction: { x: 1, z: 0 } });
    const back = { ...ahead, direction: { x: -1, z: 0 } };
    for (const a of DEFAULT_PROFILES) expect(judgeEdge(a, back)).toEqual(judgeEdge(a, ahead));
  });
});

describe('open passages and corridors', () => {
  it('are judged by their clear width alone', () => {
    const open: PassageFeature = { kind: 'open', clearWidthM: 1.8, at };
    for (const a of DEFAULT_PROFILES) expect(judgeEdge(a, open)).toMatchObject({ traversable: true, note: 'Clear: open passage' });
    const corridor: PassageFeature = { kind: 'corridor', clearWidthM: 0.8, at };
    expect(DEFAULT_PROFILES.filter((a) => !judgeEdge(a, corridor).traversable).map((a) => a.name)).toEqual(['HUMANOID']);
  });
});

describe('turning an L-shaped corner', () => {
  it('the longest rectangle that turns a square corner is 2√2·a − 2W', () => {
    for (const [a, w] of [
      [0.8, 0.7],
      [0.8, 0.5],
      [1.0, 0.7],
      [1.2, 0.9],
    ] as const) {
      expect(maxTurningLengthM(a, a, w)).toBeCloseTo(2 * Math.SQRT2 * a - 2 * w, 6);
    }
    expect(maxTurningLengthM(0.8, 1.2, 0.5)).toBeCloseTo(maxTurningLengthM(1.2, 0.8, 0.5), 9);
    expect(maxTurningLengthM(0.8, 1.2, 0.5)).toBeGreaterThan(maxTurningLengthM(0.8, 0.8, 0.5));
    expect(maxTurningLengthM(0.8, 0.8, 0.8)).toBe(0);
  });

  it('the wheelchair (0.70 × 1.00 m) cannot turn the 0.80 m corner: about 0.86 m turns, 1.02 m is needed', () => {
    const j = judgeEdge(WHEELCHAIR, corner(0.8));
    expect(j).toMatchObject({ traversable: false, failedRule: 'turning', note: 'Turning space: a 0.70 × 1.00 m footprint cannot turn the 0.80 m corner' });
    const turning = j.checks.find((c) => c.rule === 'turning')!;
    expect(turning.measuredM).toBeCloseTo(0.8627, 3);
    expect(turning.limitM).toBeCloseTo(1.02, 9);
  });

  it('the quadruped (0.50 × 1.10 m) turns it with room to spare; a 1.00 m corner lets the wheelchair turn too', () => {
    const j = judgeEdge(QUADRUPEDAL, corner(0.8));
    expect(j.traversable).toBe(true);
    expect(j.checks.find((c) => c.rule === 'turning')!.measuredM).toBeCloseTo(1.2627, 3);
    expect(judgeEdge(WHEELCHAIR, corner(1.0)).traversable).toBe(true);
  });

  it("the humanoid does not fit the corner's legs at all, which is reported as the narrow passage", () => {
    expect(judgeEdge(HUMANOID, corner(0.8))).toMatchObject({ failedRule: 'width', note: 'Narrow passage: clear width 0.80 m < 0.94 m needed' });
  });

  it('a cylinder turns wherever it fits: diameter + 4 cm within the narrower leg', () => {
    expect(turnsCorner(SWEEPER, 0.8, 0.8).passed).toBe(true);
    expect(turnsCorner(HUMAN, 0.8, 0.64).passed).toBe(true);
    expect(turnsCorner(HUMAN, 0.8, 0.63).passed).toBe(false);
  });
});
