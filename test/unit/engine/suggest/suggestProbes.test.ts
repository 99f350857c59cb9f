import { Matrix4 } from 'three';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../../src/core/agents.ts';
import type { NavGraph } from '../../../../src/core/graph.ts';
import { maxTurningLengthM } from '../../../../src/core/rules.ts';
import { frameMatrix } from '../../../../src/engine/frame.ts';
import {
  buildReferenceNavMesh,
  measureEdge,
  prepareGeometry,
  suggestScene,
  type AgentNavMesh,
  type MeasuredEdge,
  type SceneSuggestions,
} from '../../../../src/engine/suggest/index.ts';
import { ROOM_NODES, TestScan, twoNodes, twoRooms, type P3 } from '../../../support/suggestScenes.ts';

// Each probe on a small scan built in the test, with the obstacle's true size known: the engine must
// measure it back to the millimetre and the rules must then give each agent the expected label.

const MM = 0.001;
const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;

/** Measure the one edge n1–n2 of a scan with the reference navmesh only (no agents). */
async function measure(scan: TestScan, a: P3, b: P3, frame = new Matrix4()): Promise<MeasuredEdge> {
  const geom = prepareGeometry(scan.loaded(frame));
  const ref: AgentNavMesh = await buildReferenceNavMesh(geom);
  try {
    const g = twoNodes(a, b, frame);
    return measureEdge(geom, ref, g.nodes[0]!.position, g.nodes[1]!.position, { a: 'n1', b: 'n2' });
  } finally {
    ref.dispose();
  }
}

/** Suggest labels for every CapNav agent on the one edge of a scan. */
async function suggest(scan: TestScan, a: P3, b: P3): Promise<{ edge: MeasuredEdge; of: (agent: string) => SceneSuggestions['agents'][string][string] }> {
  const graph: NavGraph = twoNodes(a, b);
  const r = await suggestScene(prepareGeometry(scan.loaded()), graph, DEFAULT_PROFILES);
  return { edge: r.edges['n1|n2']!, of: (name) => r.agents[name]!['n1|n2']! };
}

const verdicts = (of: (agent: string) => { traversable: boolean; reason: string | null }) =>
  Object.fromEntries(DEFAULT_PROFILES.map((p) => [p.name, of(p.name).traversable ? 'yes' : of(p.name).reason]));

describe('a doorway of known width', () => {
  it('measures 0.85 m jamb to jamb, as a doorway, and lets the wheelchair through but not the humanoid', async () => {
    const { edge, of } = await suggest(twoRooms({ doorWidth: 0.85 }), ...ROOM_NODES);
    expect(edge.feature!.kind).toBe('doorway');
    expect(edge.feature!.clearWidthM).toBeCloseTo(0.85, 3);
    expect(edge.feature!.sillHeightM).toBeUndefined();
    expect(verdicts(of)).toEqual({ HUMAN: 'yes', WHEELCHAIR: 'yes', HUMANOID: 'narrow', QUADRUPEDAL: 'yes', SWEEPER: 'yes' });
    // The humanoid's own navmesh (0.45 m radius) cannot squeeze through either: it agrees.
    expect(of('HUMANOID')).toMatchObject({ navmeshRoute: false, navmeshDisagrees: false });
    expect(of('HUMAN')).toMatchObject({ navmeshRoute: true, navmeshDisagrees: false, measured: { clearWidthM: edge.feature!.clearWidthM } });
  });

  it('gives the same measurements for a Z-up scan stored in centimetres, with results in world metres', async () => {
    const frame = frameMatrix('z', 0.01);
    const edge = await measure(twoRooms({ doorWidth: 0.85, sill: 0.03 }), ...ROOM_NODES, frame);
    expect(edge.feature!.clearWidthM).toBeCloseTo(0.85, 3);
    expect(edge.feature!.sillHeightM).toBeCloseTo(0.03, 3);
    expect(edge.feature!.at.x).toBeCloseTo(3, 1);
    expect(edge.feature!.at.y).toBeGreaterThan(-MM);
    expect(edge.evidence.route![0]!.y).toBeCloseTo(0, 1);
  });
});

describe('a sill', () => {
  it('is measured to the millimetre and stops the wheelchair and the sweeper as a step', async () => {
    const { edge, of } = await suggest(twoRooms({ doorWidth: 1.0, sill: 0.027 }), ...ROOM_NODES);
    expect(Math.abs(edge.feature!.sillHeightM! - 0.027)).toBeLessThan(MM / 2);
    expect(edge.evidence.steps.map((s) => s.riseM)).toEqual([expect.closeTo(0.027, 3), expect.closeTo(-0.027, 3)]);
    expect(verdicts(of)).toEqual({ HUMAN: 'yes', WHEELCHAIR: 'step', HUMANOID: 'yes', QUADRUPEDAL: 'yes', SWEEPER: 'step' });
    expect(of('WHEELCHAIR').measured.stepHeightM).toBe(edge.feature!.sillHeightM);
  });
});

describe('a staircase', () => {
  // A 1.2 m wide flight of 5 risers of 0.18 m (0.28 m goings) up to a landing 0.9 m high.
  const scan = new TestScan().floor(-0.1, 4.2, -0.1, 1.3).enclose(0, 7, 0, 1.2, { height: 3.5 });
  for (let k = 1; k <= 4; k++) scan.box('stair', [3 + (k - 1) * 0.28, 0, 0], [4.12, k * 0.18, 1.2]);
  scan.box('floor', [4.12, 0, -0.1], [7.1, 0.9, 1.3]);
  const nodes: [P3, P3] = [
    [1.5, 0.02, 0.6],
    [5.6, 0.92, 0.6],
  ];

  it('is found with its risers counted and measured, and only agents that use stairs may pass', async () => {
    const { edge, of } = await suggest(scan, ...nodes);
    expect(edge.feature).toMatchObject({ kind: 'stairs', risers: 5 });
    expect(edge.feature!.riserM).toBeCloseTo(0.18, 3);
    expect(edge.feature!.clearWidthM).toBeCloseTo(1.2, 3);
    expect(edge.feature!.sillHeightM).toBeUndefined();
    expect(edge.evidence.stairs!.totalRiseM).toBeCloseTo(0.9, 3);
    expect(verdicts(of)).toEqual({ HUMAN: 'yes', WHEELCHAIR: 'stairs', HUMANOID: 'stairs', QUADRUPEDAL: 'yes', SWEEPER: 'stairs' });
    expect(of('HUMAN').measured).toMatchObject({ risers: 5, riserM: edge.feature!.riserM });
  });
});

describe('an L-shaped corner', () => {
  // Room 1 (north) → leg A, 0.80 m wide, running south → junction → leg B, 0.85 m wide, running east → room 2.
  const scan = new TestScan()
    .floor(-0.2, 7.2, -2.2, 7.2)
    .box('wall', [-0.1, 0, -0.1], [0, 2.5, 7])
    .box('wall', [-0.1, 0, -0.1], [4, 2.5, 0])
    .box('wall', [0.8, 0, 0.85], [4, 2.5, 4])
    .box('wall', [3, 0, 4], [4, 2.5, 7])
    .box('wall', [-0.1, 0, 7], [4, 2.5, 7.1])
    .box('wall', [3.9, 0, -2.1], [4, 2.5, -0.1])
    .box('wall', [3.9, 0, -2.1], [7.1, 2.5, -2])
    .box('wall', [7, 0, -2.1], [7.1, 2.5, 3.1])
    .box('wall', [4, 0, 3], [7.1, 2.5, 3.1]);
  const nodes: [P3, P3] = [
    [1.5, 0.02, 5.5],
    [5.5, 0.02, 0.5],
  ];

  it('measures both legs away from the junction, in route order, and the wheelchair cannot turn it', async () => {
    const { edge, of } = await suggest(scan, ...nodes);
    expect(edge.feature!.kind).toBe('corner');
    const [a, b] = edge.feature!.cornerWidthsM!;
    expect(a).toBeCloseTo(0.8, 3);
    expect(b).toBeCloseTo(0.85, 3);
    expect(edge.evidence.corner!.turnDeg).toBeGreaterThanOrEqual(60);
    expect(verdicts(of)).toEqual({ HUMAN: 'yes', WHEELCHAIR: 'turning', HUMANOID: 'narrow', QUADRUPEDAL: 'yes', SWEEPER: 'yes' });
    expect(of('WHEELCHAIR').measured.turnLengthM).toBeCloseTo(maxTurningLengthM(a, b, 0.7), 3);
    // Its navmesh only knows a 0.35 m radius, not the 1 m long chair: it finds a way, and says so.
    expect(of('WHEELCHAIR')).toMatchObject({ navmeshRoute: true, navmeshDisagrees: true });
  });
});

describe('a closed door named "door"', () => {
  it('is crossed by the route and stops only the agents that cannot open doors', async () => {
    const { edge, of } = await suggest(twoRooms({ doorWidth: 0.9, doorLeaf: true }), ...ROOM_NODES);
    expect(edge.feature).toMatchObject({ kind: 'doorway', closedDoor: true });
    // The leaf is not a wall: the width is the opening's.
    expect(edge.feature!.clearWidthM).toBeCloseTo(0.9, 3);
    expect(edge.evidence.door!.at.x).toBeCloseTo(3, 1);
    expect(verdicts(of)).toEqual({ HUMAN: 'yes', WHEELCHAIR: 'yes', HUMANOID: 'narrow', QUADRUPEDAL: 'door', SWEEPER: 'door' });
    expect(of('SWEEPER')).toMatchObject({ navmeshRoute: false, navmeshDisagrees: false });
  });

  it('is an ordinary wall in a scan without names: no closed door, no route', async () => {
    const scan = twoRooms({ doorWidth: 0.9 }).box('panel', [2.98, 0.01, 1.05], [3.02, 2.09, 1.95]);
    const edge = await measure(scan, ...ROOM_NODES);
    expect(edge.feature).toBeNull();
    expect(edge.noRoute).toMatch(/^No walkable route between the nodes in the scan/);
  });
});

describe('a lift shaft named "lift"', () => {
  // Two storeys (floors at 0 and 3 m) over x 0–4.5; the shaft east of it has a cabin floor at each stop
  // and a 1.0 m door in its wall on each storey. No stairs: the lift is the only way up.
  function liftScan(named: boolean): TestScan {
    const scan = new TestScan()
      .floor(-0.1, 4.45, -0.1, 3.1)
      .floor(-0.1, 4.45, -0.1, 3.1, 3.0)
      .box(named ? 'lift' : 'plate', [4.45, -0.2, 0], [6, 0, 3])
      .box(named ? 'lift' : 'plate', [4.45, 2.8, 0], [6, 3.0, 3]);
    for (const base of [0, 3]) {
      scan.enclose(0, 6, 0, 3, { base, height: 2.8 }).wall('z', 4.45, 0, 3, { base, height: 2.8, openings: [{ centre: 1.5, width: 1.0 }] });
    }
    return scan;
  }
  const nodes: [P3, P3] = [
    [2, 0.02, 1.5],
    [2, 3.02, 1.5],
  ];

  it('is a lift ride with the lift door measured from both lobbies: the sweeper and the quadruped cannot use it', async () => {
    const { edge, of } = await suggest(liftScan(true), ...nodes);
    expect(edge.feature!.kind).toBe('lift');
    expect(edge.feature!.clearWidthM).toBeCloseTo(1.0, 3);
    expect(edge.evidence.lift!.approaches).toHaveLength(2);
    expect(verdicts(of)).toEqual({ HUMAN: 'yes', WHEELCHAIR: 'yes', HUMANOID: 'yes', QUADRUPEDAL: 'lift', SWEEPER: 'lift' });
    // A navmesh cannot ride a lift: it does not vote.
    expect(of('HUMAN')).toMatchObject({ navmeshRoute: null, navmeshDisagrees: false });
  });

  it('is still a lift in a scan without names (nodes one above the other, no route), only unmeasured', async () => {
    const edge = await measure(liftScan(false), ...nodes);
    expect(edge.feature!.kind).toBe('lift');
    expect(edge.feature!.clearWidthM).toBeUndefined();
  });
});

describe('a table narrowing a corridor above 0.3 m', () => {
  // A 1.0 m corridor; a table (0.3–0.75 m high) juts 0.5 m from one wall.
  const scan = new TestScan().floor(-0.1, 6.1, -0.1, 1.1).enclose(0, 6, 0, 1).box('table', [2.5, 0.3, 0], [3.5, 0.75, 0.5]);
  const nodes: [P3, P3] = [
    [0.5, 0.02, 0.6],
    [5.5, 0.02, 0.6],
  ];

  it('lets the 15 cm sweeper pass under it and stops everyone taller than its underside', async () => {
    const { edge, of } = await suggest(scan, ...nodes);
    const at = (h: number) => edge.evidence.widthsByHeight.find((w) => w.heightM === h)!.widthM;
    expect(at(0.1)).toBeCloseTo(1.0, 3);
    expect(at(0.5)).toBeCloseTo(0.5, 3);
    expect(edge.feature!.clearWidthM).toBeCloseTo(0.5, 3);
    expect(of('SWEEPER').measured.clearWidthM).toBeCloseTo(1.0, 3);
    expect(verdicts(of)).toEqual({ HUMAN: 'narrow', WHEELCHAIR: 'narrow', HUMANOID: 'narrow', QUADRUPEDAL: 'narrow', SWEEPER: 'yes' });
  });
});

describe('no walkable route', () => {
  it('is not traversable for anyone, for reason "other"', async () => {
    const { edge, of } = await suggest(twoRooms({ closed: true }), ...ROOM_NODES);
    expect(edge.feature).toBeNull();
    for (const p of DEFAULT_PROFILES) {
      expect(of(p.name)).toMatchObject({ traversable: false, reason: 'other', navmeshRoute: false, navmeshDisagrees: false });
      expect(of(p.name).note).toMatch(/No walkable route between the nodes in the scan/);
    }
  });
});

describe('progress and cancelling', () => {
  it('reports growing progress and stops when aborted', async () => {
    const calls: number[] = [];
    const geom = prepareGeometry(twoRooms().loaded());
    const graph = twoNodes(...ROOM_NODES);
    await suggestScene(geom, graph, [agent('HUMAN')], { onProgress: (p) => calls.push(p.fraction) });
    expect(calls[calls.length - 1]).toBe(1);
    expect(calls).toEqual([...calls].sort((x, y) => x - y));
    const abort = new AbortController();
    const run = suggestScene(geom, graph, [agent('HUMAN')], { signal: abort.signal, onProgress: () => abort.abort(new Error('stop')) });
    await expect(run).rejects.toThrow('stop');
  });
});
