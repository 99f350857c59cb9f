import { Matrix4 } from 'three';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES } from '../../../../src/core/agents.ts';
import { frameMatrix } from '../../../../src/engine/frame.ts';
import { buildReferenceNavMesh, measureEdge, prepareGeometry, suggestScene, type MeasuredEdge } from '../../../../src/engine/suggest/index.ts';
import { ROOM_NODES, TestScan, twoNodes, type P3 } from '../../../support/suggestScenes.ts';

// Low openings on small scans built in the test: the suggestions find a way under them (the
// reference walker is 1 m tall; below that its low twin finds the route), measure their clear
// height with rays up from the floor, and leave each agent to the headroom rule (rules.ts 4b).

/** Two 3 × 3 m rooms joined by an opening `width` wide and `head` high in the wall at x = 3. */
const lowOpening = (width: number, head: number) =>
  new TestScan()
    .floor(-0.1, 6.1, -0.1, 3.1)
    .enclose(0, 6, 0, 3)
    .wall('z', 3, 0, 3, { openings: [{ centre: 1.5, width, head }] });

async function measure(scan: TestScan, [a, b]: [P3, P3], frame = new Matrix4()): Promise<MeasuredEdge> {
  const geom = prepareGeometry(scan.loaded(frame));
  const ref = await buildReferenceNavMesh(geom);
  try {
    const g = twoNodes(a, b, frame);
    return measureEdge(geom, ref, g.nodes[0]!.position, g.nodes[1]!.position, { a: 'n1', b: 'n2' });
  } finally {
    ref.dispose();
  }
}

async function verdicts(scan: TestScan): Promise<Record<string, string | null>> {
  const r = await suggestScene(prepareGeometry(scan.loaded()), twoNodes(...ROOM_NODES), DEFAULT_PROFILES);
  return Object.fromEntries(
    DEFAULT_PROFILES.map((p) => {
      const s = r.agents[p.name]!['n1|n2']!;
      return [p.name, s.traversable ? 'yes' : s.reason];
    }),
  );
}

describe('a crawl hole 0.60 m wide and 0.35 m high', () => {
  it('is measured as a crawl space of 0.35 m clear height, on the low reference’s route through it', async () => {
    const edge = await measure(lowOpening(0.6, 0.35), ROOM_NODES);
    expect(edge.noRoute).toBeNull();
    expect(edge.feature).toMatchObject({ kind: 'crawl' });
    expect(edge.feature!.clearHeightM).toBeCloseTo(0.35, 3);
    expect(edge.feature!.clearWidthM).toBeCloseTo(0.6, 3);
    // The floor under the route stays the floor: the hole's top is not read as a 35 cm sill.
    expect(edge.feature!.sillHeightM).toBeUndefined();
    expect(edge.evidence.clearHeight!.at.x).toBeCloseTo(3, 1);
  });

  it('measures the same in world metres on a Z-up scan stored in centimetres', async () => {
    const edge = await measure(lowOpening(0.6, 0.35), ROOM_NODES, frameMatrix('z', 0.01));
    expect(edge.feature!.kind).toBe('crawl');
    expect(edge.feature!.clearHeightM).toBeCloseTo(0.35, 3);
  });

  it('is passable for the 0.15 m sweeper only', async () => {
    expect(await verdicts(lowOpening(0.6, 0.35))).toEqual({ HUMAN: 'narrow', WHEELCHAIR: 'narrow', HUMANOID: 'narrow', QUADRUPEDAL: 'narrow', SWEEPER: 'yes' });
  });
});

describe('a passage 1.30 m high (under a stair)', () => {
  it('is walked by the reference, measured 1.30 m high, and stops only the agents taller than that', async () => {
    const edge = await measure(lowOpening(1.0, 1.3), ROOM_NODES);
    expect(edge.feature!.kind).toBe('doorway');
    expect(edge.feature!.clearHeightM).toBeCloseTo(1.3, 3);
    expect(await verdicts(lowOpening(1.0, 1.3))).toEqual({ HUMAN: 'narrow', WHEELCHAIR: 'yes', HUMANOID: 'narrow', QUADRUPEDAL: 'yes', SWEEPER: 'yes' });
  });
});

describe('an ordinary doorway', () => {
  it('records no clear height: a 2.1 m head is no low opening', async () => {
    const edge = await measure(lowOpening(0.9, 2.1), ROOM_NODES);
    expect(edge.feature!.clearHeightM).toBeUndefined();
    expect(edge.evidence.clearHeight).toBeNull();
  });
});
