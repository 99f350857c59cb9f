import { Matrix4 } from 'three';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../../src/core/agents.ts';
import { judgeEdge } from '../../../../src/core/rules.ts';
import { place, type AgentBody, type StepResult } from '../../../../src/engine/collider/body.ts';
import { footprintOf } from '../../../../src/engine/collider/footprint.ts';
import { ShapeBuilder } from '../../../../src/engine/collider/shapes.ts';
import { surfaceFromTriangles, type ColliderWorld } from '../../../../src/engine/collider/world.ts';

// Synthetic rooms whose answers are known by construction. The agent starts at the origin facing
// +Z (yaw 0) and walks towards a wall, sill or stair across its path at z = 3.
const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;
const WHEELCHAIR = agent('WHEELCHAIR'),
  HUMAN = agent('HUMAN'),
  SWEEPER = agent('SWEEPER'),
  QUADRUPED = agent('QUADRUPEDAL');
const WALL_Z = 3,
  WALL_T = 0.12;

function room(build: (b: ShapeBuilder) => void, doors?: (b: ShapeBuilder) => void, frame?: Matrix4): ColliderWorld {
  const solid = new ShapeBuilder().floor(-3, 3, -1, 7);
  build(solid);
  const leaves = doors ? new ShapeBuilder() : null;
  if (leaves && doors) doors(leaves);
  return { solid: solid.build(frame), doors: leaves ? leaves.build(frame) : null };
}

/** A wall across the path with a doorway of clear width `w` centred on x = 0 (head at 2.1 m). */
const doorwayWall = (w: number) => (b: ShapeBuilder) =>
  b
    .box([-3, 0, WALL_Z], [-w / 2, 2.5, WALL_Z + WALL_T])
    .box([w / 2, 0, WALL_Z], [3, 2.5, WALL_Z + WALL_T])
    .box([-w / 2, 2.1, WALL_Z], [w / 2, 2.5, WALL_Z + WALL_T]);

/** Step forward until blocked or `metres` covered; the last result and every result that moved. */
function walk(body: AgentBody, metres: number, step = 0.02): { last: StepResult; moves: StepResult[] } {
  const moves: StepResult[] = [];
  let last!: StepResult;
  for (let n = 0; n < Math.round(metres / step); n++) {
    last = body.step({ forward: step, turn: 0 });
    if (!last.moved) break;
    moves.push(last);
  }
  return { last, moves };
}

describe('the footprint is the profile grown by the rules’ margins', () => {
  it('a wheelchair is a 0.74 × 1.04 m box that climbs 14 mm; a human a 0.32 m-radius cylinder that climbs 0.301 m', () => {
    const w = footprintOf(WHEELCHAIR);
    expect([w.shape, w.halfWidthM * 2, w.halfDepthM * 2, w.heightM, w.stepLimitM]).toEqual([
      'box',
      expect.closeTo(0.74, 9),
      expect.closeTo(1.04, 9),
      1.2,
      expect.closeTo(0.014, 9),
    ]);
    const h = footprintOf(HUMAN);
    expect([h.shape, h.halfWidthM, h.halfDepthM, h.stepLimitM]).toEqual([
      'cylinder',
      expect.closeTo(0.32, 9),
      expect.closeTo(0.32, 9),
      expect.closeTo(0.301, 9),
    ]);
    expect(footprintOf(WHEELCHAIR, 0).halfWidthM * 2).toBeCloseTo(0.7, 9);
  });
});

describe('doorways: the collider agrees with the width rule', () => {
  it('the wheelchair is stopped by a 0.70 m doorway at the jamb, and does not move into it', () => {
    const body = place(room(doorwayWall(0.7)), WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0);
    const { last } = walk(body, 4);
    expect(last.moved).toBe(false);
    expect(last.contact!.kind).toBe('wall');
    // On a jamb's face: the middle of the 2 cm of wall face the grown footprint overlaps.
    expect(Math.abs(last.contact!.point.x)).toBeGreaterThanOrEqual(0.35);
    expect(Math.abs(last.contact!.point.x)).toBeLessThanOrEqual(0.37);
    expect(last.contact!.point.z).toBeCloseTo(WALL_Z, 2);
    expect(body.pose.z + 0.52).toBeLessThanOrEqual(WALL_Z + 1e-9); // the grown footprint's front has not entered the wall
    expect(last.pose).toEqual(body.pose);
  });

  it.each([
    [0.8, true],
    [0.745, true],
    [0.74, true],
    [0.735, false],
  ] as const)('a %s m doorway: the wheelchair passes = %s, as judgeEdge says', (w, passes) => {
    const body = place(room(doorwayWall(w)), WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0);
    const { last } = walk(body, 5);
    expect(last.moved).toBe(passes);
    expect(judgeEdge(WHEELCHAIR, { kind: 'doorway', clearWidthM: w, at: { x: 0, y: 0, z: 3 } }).traversable).toBe(passes);
  });

  it('through a 0.80 m doorway the tightest side clearance is the 5 cm each side the true body leaves', () => {
    const body = place(room(doorwayWall(0.8)), WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0);
    const { moves } = walk(body, 5);
    expect(Math.min(...moves.map((m) => m.clearanceM))).toBeCloseTo(0.05, 4);
  });

  it('a round agent is round: the human passes a 0.65 m doorway at any heading, and not a 0.63 m one', () => {
    for (const yaw of [0, 0.3, Math.PI / 4]) {
      const wide = place(room(doorwayWall(0.65)), HUMAN, { x: 0, y: 0.02, z: 0 }, 0);
      const narrow = place(room(doorwayWall(0.63)), HUMAN, { x: 0, y: 0.02, z: 0 }, 0);
      // Walk straight along +Z while facing `yaw`: forward and strafe make up the motion.
      const go = (b: AgentBody) => {
        b.step({ forward: 0, turn: yaw });
        let r!: StepResult;
        for (let n = 0; n < 250 && (r = b.step({ forward: 0.02 * Math.cos(yaw), strafe: -0.02 * Math.sin(yaw), turn: 0 })).moved; n++);
        return r;
      };
      expect(go(wide).moved, `yaw ${yaw}`).toBe(true);
      expect(go(narrow).contact?.kind, `yaw ${yaw}`).toBe('wall');
    }
  });
});

describe('sills, steps and stairs', () => {
  const sill = (h: number) => (b: ShapeBuilder) => b.box([-3, 0, WALL_Z], [3, h, WALL_Z + 0.1]);

  it('the wheelchair (1.3 cm) rolls over a 1 cm sill: up 1 cm onto it, down 1 cm off it', () => {
    const body = place(room(sill(0.01)), WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0);
    const { moves } = walk(body, 5);
    expect(body.pose.z).toBeCloseTo(5, 6);
    const rises = moves.map((m) => m.stepHeightM).filter((h) => Math.abs(h) > 1e-6);
    expect(rises).toEqual([expect.closeTo(0.01, 6), expect.closeTo(-0.01, 6)]);
  });

  it('the wheelchair is stopped by a 2 cm sill, measured to the millimetre, with the contact on the sill', () => {
    const body = place(room(sill(0.02)), WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0);
    const { last } = walk(body, 5);
    expect(last.contact).toMatchObject({ kind: 'step', heightM: 0.02 });
    expect(last.contact!.point.z).toBeGreaterThanOrEqual(WALL_Z - 1e-6);
    expect(last.contact!.point.z).toBeLessThanOrEqual(WALL_Z + 0.1);
    expect(last.contact!.message).toBe('Sill 0.02 m higher than the 0.013 m the agent can cross');
    expect(body.pose.y).toBe(0);
  });

  it('a rise just above the limit but inside the body gap (1.7 cm) still stops the wheelchair as a 1.7 cm step', () => {
    const { last } = walk(place(room(sill(0.017)), WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0), 5);
    expect(last.contact).toMatchObject({ kind: 'step', heightM: 0.017 });
  });

  it('the sweeper (rated 2 cm) crosses the 2 cm sill: an agent rated for h crosses h, as in rules.ts', () => {
    const { last } = walk(place(room(sill(0.02)), SWEEPER, { x: 0, y: 0.02, z: 0 }, 0), 5);
    expect(last.moved).toBe(true);
  });

  /** Six 0.175 m risers of 0.25 m going from z = 3, then a landing. */
  const stairs = (b: ShapeBuilder) => {
    for (let k = 1; k <= 6; k++) b.box([-1, 0, WALL_Z + (k - 1) * 0.25], [1, k * 0.175, k === 6 ? 7 : WALL_Z + k * 0.25]);
  };

  it('a human climbs 0.175 m risers one by one to the landing at 1.05 m', () => {
    const body = place(room(stairs), HUMAN, { x: 0, y: 0.02, z: 0 }, 0);
    const { moves } = walk(body, 6);
    expect(body.pose.y).toBeCloseTo(1.05, 6);
    const rises = moves.map((m) => m.stepHeightM).filter((h) => h > 1e-6);
    expect(rises).toHaveLength(6);
    for (const r of rises) expect(r).toBeCloseTo(0.175, 6);
  });

  it('the 1.1 m-long quadruped climbs the flight and comes down again: a long body over several risers is not "falling"', () => {
    const body = place(room(stairs), QUADRUPED, { x: 0, y: 0.02, z: 0 }, 0);
    walk(body, 6);
    expect(body.pose.y).toBeCloseTo(1.05, 6);
    body.step({ forward: 0, turn: Math.PI });
    const { last } = walk(body, 5.5);
    expect(last.moved).toBe(true);
    expect(body.pose.y).toBeCloseTo(0, 6);
  });

  it('the wheelchair is stopped at the first riser, a 0.175 m step', () => {
    const { last } = walk(place(room(stairs), WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0), 6);
    expect(last.contact).toMatchObject({ kind: 'step', heightM: 0.175 });
  });

  it('and comes down them again: the human follows each riser down', () => {
    const body = place(room(stairs), HUMAN, { x: 0, y: 1.1, z: 5 }, Math.PI);
    expect(body.pose.y).toBeCloseTo(1.05, 6);
    const { moves } = walk(body, 4.5);
    expect(body.pose.y).toBeCloseTo(0, 6);
    expect(moves.map((m) => m.stepHeightM).filter((h) => h < -1e-6)).toEqual(Array(6).fill(expect.closeTo(-0.175, 6)));
  });
});

describe('ramps and drops', () => {
  it('the wheelchair follows a 1:12 ramp down smoothly, never more than 2 mm per 2 cm step', () => {
    // Level at 0.5 m to z = 3, a ramp down to 0 at z = 9, level floor beyond.
    const world: ColliderWorld = {
      solid: new ShapeBuilder().floor(-2, 2, -1, 3, 0.5).quad([-2, 0.5, 3], [-2, 0, 9], [2, 0, 9], [2, 0.5, 3], 8).floor(-2, 2, 9, 11, 0).build(),
      doors: null,
    };
    const body = place(world, WHEELCHAIR, { x: 0, y: 0.52, z: 0 }, 0);
    const { moves } = walk(body, 10.5);
    expect(body.pose.y).toBeCloseTo(0, 6);
    expect(Math.min(...moves.map((m) => m.stepHeightM))).toBeGreaterThan(-0.0021);
  });

  it('it rolls off a 15 cm step down, and stops before an 80 cm drop, reporting its depth', () => {
    const ledge = (h: number): ColliderWorld => ({ solid: new ShapeBuilder().floor(-2, 2, -1, 3, h).floor(-2, 2, 3, 7, 0).build(), doors: null });
    const low = place(ledge(0.15), WHEELCHAIR, { x: 0, y: 0.17, z: 0 }, 0);
    const { moves } = walk(low, 5);
    expect(low.pose.y).toBe(0);
    expect(moves.some((m) => Math.abs(m.stepHeightM + 0.15) < 1e-6)).toBe(true);

    const high = place(ledge(0.8), WHEELCHAIR, { x: 0, y: 0.82, z: 0 }, 0);
    const { last } = walk(high, 5);
    expect(last.contact).toMatchObject({ kind: 'drop', heightM: 0.8 });
    expect(high.pose.z).toBeLessThan(3); // its centre is still over the upper floor
    expect(high.pose.y).toBeCloseTo(0.8, 6);
  });
});

describe('the footprint turns with the agent', () => {
  // A 0.60 m corridor along +Z between walls at x = ±0.3.
  const corridor = room((b) => b.box([-1.3, 0, -1], [-0.3, 2.5, 7]).box([0.3, 0, -1], [1.3, 2.5, 7]));

  it('a 0.5 × 1.1 box fits the corridor lengthwise, and is stopped by its walls when turned across it', () => {
    const body = place(corridor, QUADRUPED, { x: 0, y: 0.02, z: 1 }, 0);
    expect(body.contact).toBeNull();
    expect(body.step({ forward: 0.02, turn: 0 }).moved).toBe(true);
    const before = body.pose;
    const turned = body.step({ forward: 0, turn: Math.PI / 2 });
    expect(turned.moved).toBe(false);
    expect(turned.contact!.kind).toBe('wall');
    expect(Math.abs(turned.contact!.point.x)).toBeCloseTo(0.3, 2);
    expect(body.pose).toEqual(before);
    // Already a small turn swings its corners into the walls: the 0.54 m-wide grown box has 3 cm.
    expect(body.step({ forward: 0, turn: 0.1 }).moved).toBe(false);
    expect(body.step({ forward: 0, turn: 0.02 }).moved).toBe(true);
  });

  it('placed across the corridor it already overlaps the walls; asked beforehand, the body says so without moving', () => {
    expect(place(corridor, QUADRUPED, { x: 0, y: 0.02, z: 1 }, Math.PI / 2).contact?.kind).toBe('wall');
    const body = place(corridor, QUADRUPED, { x: 0, y: 0.02, z: 1 }, 0);
    expect(body.test(0, 1.5, Math.PI / 2).contact?.kind).toBe('wall');
    expect(body.test(0, 1.5, 0)).toEqual({ floor: 0, contact: null });
    expect(body.pose).toEqual({ x: 0, y: 0, z: 1, yaw: 0 });
  });
});

describe('closed doors block only agents that cannot open them', () => {
  const leaf = (b: ShapeBuilder) => b.box([-0.45, 0.01, WALL_Z + 0.04], [0.45, 2.09, WALL_Z + 0.08]);
  const world = room(doorwayWall(0.9), leaf);

  it('the sweeper and the quadruped stop at the leaf with a door contact; the human and the wheelchair open it', () => {
    for (const a of [SWEEPER, QUADRUPED]) {
      const { last } = walk(place(world, a, { x: 0, y: 0.02, z: 0 }, 0), 5);
      expect(last.contact?.kind, a.name).toBe('door');
      expect(last.contact!.point.z, a.name).toBeCloseTo(WALL_Z + 0.04, 2);
    }
    for (const a of [HUMAN, WHEELCHAIR]) expect(walk(place(world, a, { x: 0, y: 0.02, z: 0 }, 0), 5).last.moved, a.name).toBe(true);
  });

  it('without a doors surface the same doorway is open to everyone', () => {
    expect(walk(place(room(doorwayWall(0.9)), SWEEPER, { x: 0, y: 0.02, z: 0 }, 0), 5).last.moved).toBe(true);
  });
});

describe('the world frame is honoured', () => {
  it('a scan in centimetres, Z up, gives the same answers: the 70 cm doorway stops the wheelchair, 80 cm lets it through', () => {
    // Built in world metres, then written out in a Z-up centimetre frame as a scan would be.
    const frame = new Matrix4().makeRotationX(-Math.PI / 2).premultiply(new Matrix4().makeScale(0.01, 0.01, 0.01));
    for (const [w, passes] of [
      [0.7, false],
      [0.8, true],
    ] as const) {
      const metres = new ShapeBuilder().floor(-3, 3, -1, 7);
      doorwayWall(w)(metres);
      const geometry = metres.build().geometry.applyMatrix4(frame.clone().invert());
      const world: ColliderWorld = {
        solid: surfaceFromTriangles(geometry.getAttribute('position').array as Float32Array, geometry.getIndex()!.array as Uint32Array, frame),
        doors: null,
      };
      const { last } = walk(place(world, WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0), 5);
      expect(last.moved, `${w} m`).toBe(passes);
      expect(walk(place(world, WHEELCHAIR, { x: 0, y: 0.02, z: 0 }, 0), 5).last.contact?.kind ?? 'none', `${w} m`).toBe(passes ? 'none' : 'wall');
    }
  });
});
