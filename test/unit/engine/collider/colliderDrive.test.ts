import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, type AgentProfile } from '../../../../src/core/agents.ts';
import type { Vec3 } from '../../../../src/core/graph.ts';
import type { PassageFeature } from '../../../../src/core/rules.ts';
import { autoDrive } from '../../../../src/engine/collider/autoDrive.ts';
import { place } from '../../../../src/engine/collider/body.ts';
import { PlanPolyline } from '../../../../src/engine/collider/polyline.ts';
import { LiveReadouts } from '../../../../src/engine/collider/readouts.ts';
import { ShapeBuilder } from '../../../../src/engine/collider/shapes.ts';
import { colliderWorldOf, type ColliderWorld } from '../../../../src/engine/collider/world.ts';
import { loadMesh, type LoadedMesh } from '../../../../src/engine/mesh/load.ts';
import { REPO } from '../../../support/cli.ts';

const agent = (name: string): AgentProfile => DEFAULT_PROFILES.find((p) => p.name === name)!;
const WHEELCHAIR = agent('WHEELCHAIR'),
  HUMAN = agent('HUMAN'),
  SWEEPER = agent('SWEEPER'),
  HUMANOID = agent('HUMANOID');

/** An open 6 × 8 m floor with a wall across z = 3 holding a doorway of width `w` at x = 0, and optionally a sill in it. */
function doorwayRoom(w: number, sillM = 0): ColliderWorld {
  const b = new ShapeBuilder().floor(-3, 3, -1, 7);
  b.box([-3, 0, 3], [-w / 2, 2.5, 3.12])
    .box([w / 2, 0, 3], [3, 2.5, 3.12])
    .box([-w / 2, 2.1, 3], [w / 2, 2.5, 3.12]);
  if (sillM > 0) b.box([-w / 2, 0, 3.01], [w / 2, sillM, 3.11]);
  return { solid: b.build(), doors: null };
}
const straight: Vec3[] = [
  { x: 0, y: 0.02, z: 0 },
  { x: 0, y: 0.02, z: 6 },
];

describe('live readouts while driving', () => {
  it('driving the wheelchair through a 0.80 m doorway with a 1 cm sill: width 0.80, last step −1 cm, tightest clearance 5 cm', () => {
    const body = place(doorwayRoom(0.8, 0.01), WHEELCHAIR, { x: 0, y: 0.02, z: 1 }, 0);
    const readouts = new LiveReadouts();
    readouts.reset(body);
    const widths: number[] = [];
    for (let n = 0; n < 150; n++) {
      readouts.update(body, body.step({ forward: 0.02, turn: 0 }));
      if (readouts.clearWidth) widths.push(readouts.clearWidth.widthM);
      if (n === 100) expect(readouts.lastStepHeightM).toBeCloseTo(body.pose.y > 0 ? 0 : -0.01, 6);
    }
    expect(body.pose.z).toBeCloseTo(4, 6);
    expect(readouts.narrowest!.widthM).toBeCloseTo(0.8, 3);
    expect(readouts.tightestClearanceM).toBeCloseTo(0.05, 4);
    expect(Math.min(...widths)).toBeCloseTo(0.8, 3);
  });
});

describe('auto-drive on synthetic rooms', () => {
  it('stops the wheelchair at a 0.70 m doorway and measures the opening it is stuck in', () => {
    const r = autoDrive(doorwayRoom(0.7), WHEELCHAIR, straight);
    expect(r.reached).toBe(false);
    expect(r.contact?.kind).toBe('wall');
    expect(r.measured.clearWidthM).toBeCloseTo(0.7, 3);
    expect(r.trajectory.at(-1)!.z + 0.52).toBeLessThanOrEqual(3 + 1e-9);
  });

  it('measures the opening above a sill in it: a 0.70 m doorway with a 5 cm sill is still 0.70 m', () => {
    const r = autoDrive(doorwayRoom(0.7, 0.05), WHEELCHAIR, straight);
    expect(r.contact?.kind).toBe('wall');
    expect(r.measured.clearWidthM).toBeCloseTo(0.7, 3);
  });

  it('drives it through a 0.80 m doorway, reporting the narrowest width and the 5 cm it had each side', () => {
    const r = autoDrive(doorwayRoom(0.8), WHEELCHAIR, straight);
    expect(r.reached).toBe(true);
    expect(r.contact).toBeUndefined();
    expect(r.measured.clearWidthM).toBeCloseTo(0.8, 3);
    expect(r.measured.tightestClearanceM).toBeCloseTo(0.05, 3);
    expect(r.trajectory.at(-1)!.z).toBeCloseTo(6, 1);
  });

  it('stops it at a 2 cm sill with the sill’s height, and reports the 1 cm one it climbed', () => {
    const high = autoDrive(doorwayRoom(0.9, 0.02), WHEELCHAIR, straight);
    expect(high.contact).toMatchObject({ kind: 'step', heightM: 0.02 });
    expect(high.measured.stepHeightM).toBe(0.02);
    const low = autoDrive(doorwayRoom(0.9, 0.01), WHEELCHAIR, straight);
    expect(low.reached).toBe(true);
    expect(low.measured.stepHeightM).toBe(0.01);
  });

  it('a box that meets a doorway at 40° squares up to it and goes through; one too wide for it is still stopped', () => {
    const route: Vec3[] = [
      { x: -1.6, y: 0.02, z: 0.5 },
      { x: 0, y: 0.02, z: 3.06 },
      { x: 1.6, y: 0.02, z: 5.6 },
    ];
    const through = autoDrive(doorwayRoom(1.2), HUMANOID, route); // 0.94 m square footprint, 1.33 m across when at 40°
    expect(through.reached).toBe(true);
    expect(through.measured.clearWidthM).toBeCloseTo(1.2, 2);
    const stopped = autoDrive(doorwayRoom(0.9), HUMANOID, route);
    expect(stopped.contact?.kind).toBe('wall');
    expect(stopped.measured.clearWidthM).toBeCloseTo(0.9, 2);
  });

  it('follows a bent route, facing the way it goes, and stays on it', () => {
    const route: Vec3[] = [
      { x: -2, y: 0.02, z: 0 },
      { x: 1, y: 0.02, z: 0 },
      { x: 1, y: 0.02, z: 2.5 },
    ];
    const world: ColliderWorld = { solid: new ShapeBuilder().floor(-3, 3, -1, 3).build(), doors: null };
    for (const a of [HUMAN, WHEELCHAIR]) {
      const r = autoDrive(world, a, route);
      expect(r.reached, a.name).toBe(true);
      const end = r.trajectory.at(-1)!;
      expect(Math.hypot(end.x - 1, end.z - 2.5), a.name).toBeLessThan(0.03);
      expect(Math.cos(end.yaw), a.name).toBeGreaterThan(0.99); // facing +Z on the last leg
      const line = new PlanPolyline(route);
      const offRoute = Math.max(...r.trajectory.map((p) => line.project(p.x, p.z, 0, Infinity).distance));
      expect(offRoute, a.name).toBeLessThan(a.shape === 'box' ? 0.15 : 0.03); // a box cuts the corner by about its lookahead
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The sample house, loaded as the studio loads it.

const SAMPLE = join(REPO, 'scenes/sample-house');
let house: LoadedMesh;
let world: ColliderWorld;
let features: Record<string, PassageFeature>;
let nodes: Record<string, Vec3>;

beforeAll(async () => {
  house = await loadMesh({ files: [{ name: 'house.glb', data: new Blob([readFileSync(join(SAMPLE, 'house.glb'))]) }] }, { upAxis: 'y', unitScale: 1 });
  world = colliderWorldOf(house);
  features = (JSON.parse(readFileSync(join(SAMPLE, 'features.json'), 'utf8')) as { edges: Record<string, PassageFeature> }).edges;
  const graph = JSON.parse(readFileSync(join(SAMPLE, 'graphs/sample-house-graph.json'), 'utf8')) as { nodes: { id: string; position: Vec3 }[] };
  nodes = Object.fromEntries(graph.nodes.map((n) => [n.id, n.position]));
});
afterAll(() => house.dispose());

/** Straight segments from node `a` through the centre of the edge's obstacle to node `b`. */
const throughDoor = (a: string, b: string): Vec3[] => [nodes[a]!, features[`${a}|${b}`]!.at, nodes[b]!];

describe('auto-drive in the sample house', () => {
  it('splits the closed door leaves from the walls when building the world from the glTF', () => {
    expect(world.doors).not.toBeNull();
    expect(world.doors!.geometry.getIndex()!.count / 3).toBeGreaterThan(0);
  });

  it('upper hall → Bedroom 1: the wheelchair is stopped at the 0.70 m door, which it measures at 0.70 m', () => {
    const door = features['node_11|node_13']!;
    const r = autoDrive(world, WHEELCHAIR, throughDoor('node_11', 'node_13'));
    expect(r.reached).toBe(false);
    expect(['wall', 'door']).toContain(r.contact?.kind);
    expect(Math.hypot(r.contact!.point.x - door.at.x, r.contact!.point.z - door.at.z)).toBeLessThan(0.5);
    expect(Math.abs(r.measured.clearWidthM! - 0.7)).toBeLessThanOrEqual(0.01);
    expect(r.trajectory.at(-1)!.y).toBeCloseTo(2.8, 4);
  });

  it('the human walks through the same door to Bedroom 1, squeezing past with about 5 cm a side', () => {
    const r = autoDrive(world, HUMAN, throughDoor('node_11', 'node_13'));
    expect(r.reached).toBe(true);
    const end = r.trajectory.at(-1)!,
      goal = nodes['node_13']!;
    expect(Math.hypot(end.x - goal.x, end.z - goal.z)).toBeLessThan(0.03);
    expect(Math.abs(r.measured.clearWidthM! - 0.7)).toBeLessThanOrEqual(0.01);
    expect(r.measured.tightestClearanceM).toBeGreaterThanOrEqual(0.02); // never closer than the margin
    expect(r.measured.tightestClearanceM).toBeLessThan(0.06);
  });

  it('the drive is deterministic: the same route gives the same trajectory and contact', () => {
    for (const a of [WHEELCHAIR, HUMAN])
      expect(autoDrive(world, a, throughDoor('node_11', 'node_13'))).toEqual(autoDrive(world, a, throughDoor('node_11', 'node_13')));
  });

  it('entrance hall → bathroom: the sweeper stops at the closed door, the human opens it and walks in', () => {
    const route = throughDoor('node_1', 'node_7');
    const sweeper = autoDrive(world, SWEEPER, route);
    expect(sweeper.contact?.kind).toBe('door');
    expect(Math.abs(sweeper.contact!.point.z - features['node_1|node_7']!.at.z)).toBeLessThan(0.1);
    expect(sweeper.measured.clearWidthM).toBeCloseTo(0.8, 2);
    expect(autoDrive(world, HUMAN, route).reached).toBe(true);
  });

  it('entrance hall → living room, the 1.20 m door met at 42°: the humanoid squares up to it and goes through', () => {
    expect(autoDrive(world, HUMANOID, throughDoor('node_1', 'node_2')).reached).toBe(true);
  });

  it('back hall → study over the 2 cm threshold: the wheelchair is stopped by it, measured at 0.020 m', () => {
    const r = autoDrive(world, WHEELCHAIR, throughDoor('node_5', 'node_6'));
    expect(r.contact).toMatchObject({ kind: 'step', heightM: 0.02 });
    expect(r.measured.stepHeightM).toBe(0.02);
  });
});
