import { Matrix4 } from 'three';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../../src/core/agents.ts';
import { AgentBody } from '../../../../src/engine/collider/body.ts';
import { ScenePlanner } from '../../../../src/engine/planner/scene.ts';
import { plannerWorld } from '../../../../src/engine/planner/world.ts';
import { prepareGeometry } from '../../../../src/engine/suggest/geometry.ts';
import { packGeometry, unpackGeometry } from '../../../../src/engine/suggest/transfer.ts';
import { inFrame, ROOM_NODES, TestScan, twoRooms } from '../../../support/suggestScenes.ts';

// The motion planner behind the drive, on two 3 × 3 m rooms joined by one opening: each rule from
// both sides — what must pass passes, what must stop stops, with the measured reason.

const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;
const planners: ScenePlanner[] = [];
afterAll(() => {
  for (const p of planners) p.dispose();
});

async function plannerOf(scan: TestScan, frame = new Matrix4()): Promise<ScenePlanner> {
  const p = await ScenePlanner.create(prepareGeometry(scan.loaded(frame)));
  planners.push(p);
  return p;
}
const [A, B] = ROOM_NODES;
const drive = (p: ScenePlanner, who: string, frame = new Matrix4()) => p.decide(agent(who), inFrame(A, frame), inFrame(B, frame));

describe('doorway widths: the wheelchair (0.70 m, needs 0.74 m)', () => {
  it('drives through a 0.78 m doorway it fits', async () => {
    const d = drive(await plannerOf(twoRooms({ doorWidth: 0.78 })), 'WHEELCHAIR');
    expect(d).toMatchObject({ reached: true, reason: null });
    expect(d.measured.clearWidthM).toBeCloseTo(0.78, 2);
  });
  it('is stopped by a 0.72 m doorway, measured at 0.72 m, worded as the rules word it', async () => {
    const d = drive(await plannerOf(twoRooms({ doorWidth: 0.72 })), 'WHEELCHAIR');
    expect(d).toMatchObject({ reached: false, reason: 'narrow', note: 'Narrow passage: clear width 0.72 m < 0.74 m needed' });
    expect(d.measured.clearWidthM).toBeCloseTo(0.72, 2);
    // Shown as far as it gets: up to the opening (the wall is at x = 3), not through it.
    expect(d.motion.at(-1)!.x).toBeGreaterThan(2.2);
    expect(d.motion.at(-1)!.x).toBeLessThan(3);
    expect(d.stoppedAt!.x).toBeCloseTo(3, 0);
  });
});

describe('sills: the wheelchair crosses 1.3 cm at most', () => {
  it('rolls over a 1 cm sill and reports it climbed 1 cm', async () => {
    const d = drive(await plannerOf(twoRooms({ doorWidth: 0.9, sill: 0.01 })), 'WHEELCHAIR');
    expect(d.reached).toBe(true);
    expect(d.measured.stepHeightM).toBeCloseTo(0.01, 3);
  });
  it('is stopped by a 2 cm sill: a step of 0.02 m against its 0.013 m', async () => {
    const d = drive(await plannerOf(twoRooms({ doorWidth: 0.9, sill: 0.02 })), 'WHEELCHAIR');
    expect(d).toMatchObject({ reached: false, reason: 'step', note: 'Sill 0.02 m higher than the 0.013 m the agent can cross' });
  });
});

describe('a closed door leaf', () => {
  it('stops the quadruped, which cannot open doors, and lets the human through', async () => {
    const p = await plannerOf(twoRooms({ doorWidth: 0.9, doorLeaf: true }));
    expect(drive(p, 'QUADRUPEDAL')).toMatchObject({ reached: false, reason: 'door', note: 'Closed door: cannot open doors' });
    expect(drive(p, 'HUMAN')).toMatchObject({ reached: true });
  });
});

describe('a low opening (a 0.35 m crawl hole, 0.6 m wide)', () => {
  const crawl = () =>
    new TestScan()
      .floor(-0.1, 6.1, -0.1, 3.1)
      .enclose(0, 6, 0, 3)
      .wall('z', 3, 0, 3, { openings: [{ centre: 1.5, width: 0.6, head: 0.35 }] });
  it('the 0.15 m sweeper goes under it; the quadruped is stopped by the clear height, measured', async () => {
    const p = await plannerOf(crawl());
    expect(drive(p, 'SWEEPER')).toMatchObject({ reached: true });
    const q = drive(p, 'QUADRUPEDAL');
    expect(q).toMatchObject({ reached: false, reason: 'narrow' });
    expect(q.measured.clearHeightM).toBeCloseTo(0.35, 2);
    expect(q.note).toBe('Low opening: clear height 0.35 m < 0.70 m agent height');
  });
});

describe('no way at all', () => {
  it('a wall with no opening stops everyone, saying there is no way', async () => {
    const d = drive(await plannerOf(twoRooms({ closed: true })), 'HUMAN');
    expect(d).toMatchObject({ reached: false, reason: 'other' });
    expect(d.note).toMatch(/No walkable way between the nodes/);
  });
});

describe('the motion found', () => {
  it('is one the collider drives pose by pose, from the start node to the end node', async () => {
    const scan = twoRooms({ doorWidth: 0.8 });
    const geom = prepareGeometry(scan.loaded());
    const p = await ScenePlanner.create(geom);
    planners.push(p);
    const d = p.decide(agent('WHEELCHAIR'), inFrame(A), inFrame(B));
    expect(d.reached).toBe(true);
    const [first, ...rest] = d.motion;
    expect(Math.hypot(first!.x - A[0], first!.z - A[2])).toBeLessThan(0.05);
    expect(Math.hypot(d.motion.at(-1)!.x - B[0], d.motion.at(-1)!.z - B[2])).toBeLessThan(0.05);
    const body = AgentBody.place(plannerWorld(geom), agent('WHEELCHAIR'), { ...first!, y: first!.y + 0.02 }, first!.yaw);
    expect(body.contact).toBeNull();
    for (const q of rest) {
      const from = body.pose,
        s = Math.sin(q.yaw),
        c = Math.cos(q.yaw),
        dx = q.x - from.x,
        dz = q.z - from.z;
      expect(body.step({ turn: q.yaw - from.yaw, forward: dx * s + dz * c, strafe: dx * c - dz * s }).moved).toBe(true);
    }
  });

  it('is decided the same in a scan stored Z up and in centimetres', async () => {
    const frame = new Matrix4().makeRotationX(-Math.PI / 2).multiply(new Matrix4().makeScale(0.01, 0.01, 0.01));
    const p = await plannerOf(twoRooms({ doorWidth: 0.72 }), frame);
    expect(drive(p, 'WHEELCHAIR', frame)).toMatchObject({ reached: false, reason: 'narrow' });
    const wide = await plannerOf(twoRooms({ doorWidth: 0.78 }), frame);
    expect(drive(wide, 'WHEELCHAIR', frame).reached).toBe(true);
  });

  it('is the same on the scene worker’s copy of the scan (packed, sent, unpacked) as on the page’s', async () => {
    const geom = prepareGeometry(twoRooms({ doorWidth: 0.8, sill: 0.01 }).loaded());
    const here = await ScenePlanner.create(geom),
      there = await ScenePlanner.create(unpackGeometry(packGeometry(geom).packed));
    planners.push(here, there);
    for (const who of ['WHEELCHAIR', 'HUMANOID']) {
      const { stats: _a, ...x } = here.decide(agent(who), inFrame(A), inFrame(B));
      const { stats: _b, ...y } = there.decide(agent(who), inFrame(A), inFrame(B));
      expect(y).toEqual(x);
    }
  });
});
