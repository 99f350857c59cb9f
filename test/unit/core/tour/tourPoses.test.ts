import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BufferGeometry, Frustum, Group, Matrix4, Mesh, PerspectiveCamera, Ray, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { NavGraph } from '../../../../src/core/graph.ts';
import { tourOrder } from '../../../../src/core/tour/order.ts';
import { inFrustum } from '../../../../src/core/tour/view.ts';
import { frameMatrix } from '../../../../src/engine/frame.ts';
import { loadMesh } from '../../../../src/engine/mesh/load.ts';
import type { LoadedMesh } from '../../../../src/engine/mesh/types.ts';
import { castRay } from '../../../../src/engine/rays/cast.ts';
import { scanSurface } from '../../../../src/engine/rays/surface.ts';
import { planTour, TOUR_DEFAULTS, unhidden, type TourPlan } from '../../../../src/engine/tour/poses.ts';
import { SAMPLE_HOUSE } from '../../../../src/core/sample/houseSpec.ts';
import { sampleRelease, SAMPLE_DIR } from '../../../support/suggestTruth.ts';

// The automatic tour of the sample house at the CapNav settings (2 fps, 75°, eye 1.5 m, 640×480):
// a walk through every node, its eye on the floor under it, and the times each node is in view —
// checked against the house's own geometry with three.js's frustum and ray caster, not the code under test.

const DEG = Math.PI / 180;
const release = sampleRelease();
const graph: Pick<NavGraph, 'nodes'> = release.graph;
const node = (id: string) => graph.nodes.find((n) => n.id === id)!.position;

async function house(): Promise<LoadedMesh> {
  const bytes = readFileSync(SAMPLE_DIR + 'house.glb');
  return loadMesh(
    { files: [{ name: 'house.glb', data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }] },
    { upAxis: 'y', unitScale: 1 },
  );
}

/** three.js's own camera and frustum at a pose, as the renderer sets them. */
function cameraAt(eye: Vector3, yawDeg: number, pitchDeg: number): PerspectiveCamera {
  const c = new PerspectiveCamera(75, 640 / 480, 0.02, 500);
  c.position.copy(eye);
  c.rotation.set(pitchDeg * DEG, yawDeg * DEG, 0, 'YXZ');
  c.updateMatrixWorld(true);
  return c;
}
function seesByThree(loaded: LoadedMesh, eye: Vector3, yawDeg: number, pitchDeg: number, p: Vector3): boolean {
  const c = cameraAt(eye, yawDeg, pitchDeg);
  const frustum = new Frustum().setFromProjectionMatrix(new Matrix4().multiplyMatrices(c.projectionMatrix, c.matrixWorldInverse));
  if (!frustum.containsPoint(p)) return false;
  const dist = eye.distanceTo(p);
  const bvh = loaded.collision.geometry.boundsTree as unknown as MeshBVH;
  const hit = bvh.raycastFirst(new Ray(eye.clone(), p.clone().sub(eye).normalize()), 2 /* DoubleSide */);
  return !hit || hit.distance >= dist - 0.05;
}

describe('tour order', () => {
  it('walks points on a line end to end, not back and forth', () => {
    const xs = [0, 5, 1, 4, 2, 3];
    const order = tourOrder(xs.length, (i, j) => Math.abs(xs[i]! - xs[j]!));
    const walked = order.map((i) => xs[i]);
    expect([walked, walked.slice().reverse()]).toContainEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('the automatic tour of the sample house', () => {
  let loaded: LoadedMesh;
  let plan: TourPlan;
  beforeAll(async () => {
    loaded = await house();
    plan = await planTour(loaded, graph, TOUR_DEFAULTS);
  }, 120_000);

  it('visits every node once, on walkable routes (no straight line through walls)', () => {
    expect(plan.order.slice().sort()).toEqual(graph.nodes.map((n) => n.id).sort());
    expect(plan.skippedLegs).toEqual([]);
    expect(plan.poses.cuts).toBeUndefined();
  });

  it('is sampled at 2 fps for the whole walk, at walking pace and with limited turns', () => {
    const f = plan.poses.frames;
    expect(plan.poses).toMatchObject({ fps: 2, fovDeg: 75, eyeHeightM: 1.5, width: 640, height: 480, up: 'y' });
    expect(f.length).toBeGreaterThan(60);
    f.forEach((p, k) => expect(p.t).toBeCloseTo(k / 2, 6));
    for (let k = 1; k < f.length; k++) {
      const a = f[k - 1]!,
        b = f[k]!;
      // 1 m/s along the route: at most 0.5 m between frames on the plan (stairs add height, not plan).
      expect(Math.hypot(b.position.x - a.position.x, b.position.z - a.position.z)).toBeLessThanOrEqual(0.5 + 1e-6);
      const turn = Math.abs(((b.yawDeg - a.yawDeg + 540) % 360) - 180);
      expect(turn, `frame ${k}`).toBeLessThanOrEqual(30 + 1e-6); // 60°/s
    }
  });

  it('keeps every eye 1.5 m above the floor under it (a ray down on the scan), upstairs and on the stairs too', () => {
    const surface = scanSurface(loaded);
    const treads = new Set([0, 0.01, 0.02, 2.8, 2.85, ...Array.from({ length: 17 }, (_, k) => Math.round(k * SAMPLE_HOUSE.stairs.riserM * 1000) / 1000)]);
    const heights = new Set<number>();
    for (const p of plan.poses.frames) {
      const eye = new Vector3(p.position.x, p.position.y, p.position.z);
      const down = castRay(surface, eye, new Vector3(0, -1, 0), 10);
      expect(down, `floor under frame at ${p.t} s`).not.toBeNull();
      expect(down!.distance, `eye above the floor at ${p.t} s`).toBeCloseTo(1.5, 2);
      const floor = Math.round((p.position.y - 1.5) * 1000) / 1000;
      expect(
        treads.has(floor) || [...treads].some((t) => Math.abs(t - floor) < 0.011),
        `floor ${floor} at ${p.t} s is a floor, a sill or a tread of the house`,
      ).toBe(true);
      heights.add(Math.round(floor * 10) / 10);
    }
    expect(heights.has(0) && heights.has(2.8), 'both storeys walked').toBe(true);
    expect(
      [...heights].some((h) => h > 0.3 && h < 2.5),
      'the stairs climbed',
    ).toBe(true);
  });

  it('shows every node at some time, and at those times three.js agrees it is in the picture and unhidden', () => {
    for (const n of plan.poses.nodesInView) {
      expect(n.intervals.length, `${n.node} is never in view`).toBeGreaterThan(0);
      for (const [from, to] of n.intervals) {
        for (const t of [from, to]) {
          const p = plan.poses.frames[Math.round(t * 2)]!;
          const at = node(n.node);
          expect(
            seesByThree(loaded, new Vector3(p.position.x, p.position.y, p.position.z), p.yawDeg, p.pitchDeg, new Vector3(at.x, at.y, at.z)),
            `${n.node} at ${t} s`,
          ).toBe(true);
        }
      }
    }
  });

  it('does not count a node behind a wall, even in a frame that faces it', () => {
    const study = node('node_6');
    const target = new Vector3(study.x, study.y, study.z);
    const inView = new Set(
      plan.poses.nodesInView
        .find((n) => n.node === 'node_6')!
        .intervals.flatMap(([a, b]) => Array.from({ length: Math.round((b - a) * 2) + 1 }, (_, i) => Math.round(a * 2) + i)),
    );
    let facingButHidden = 0;
    plan.poses.frames.forEach((p, k) => {
      const eye = new Vector3(p.position.x, p.position.y, p.position.z);
      const look = { eye, yawRad: p.yawDeg * DEG, pitchRad: p.pitchDeg * DEG };
      if (inFrustum(look, { fovDeg: 75, aspect: 4 / 3 }, target) && !seesByThree(loaded, eye, p.yawDeg, p.pitchDeg, target)) {
        facingButHidden++;
        expect(inView.has(k), `study counted in view through a wall at ${p.t} s`).toBe(false);
      }
    });
    expect(facingButHidden, 'the tour faces the study through a wall at some time').toBeGreaterThan(0);
  });

  it('from the entrance hall, sees the living room through its door but not the study through the wall', () => {
    const surface = scanSurface(loaded);
    const hall = node('node_1');
    const eye = { x: hall.x, y: 1.5, z: hall.z };
    for (const [id, visible] of [
      ['node_2', true],
      ['node_6', false],
    ] as const) {
      const p = node(id);
      const look = { eye, yawRad: Math.atan2(-(p.x - eye.x), -(p.z - eye.z)), pitchRad: 0 };
      expect(inFrustum(look, { fovDeg: 75, aspect: 4 / 3 }, p), `${id} in the picture`).toBe(true);
      expect(unhidden(surface, eye, p), `${id} unhidden`).toBe(visible);
    }
  });
});

describe('a Z-up scan', () => {
  it("tours the same house turned Z-up: the same walk, positions in the scan's own frame", async () => {
    const yUp = await house();
    const frame = frameMatrix('z', 1);
    const toScan = frame.clone().invert();
    // The house stored Z-up, as a Matterport scan is: vertices and nodes in the scan's frame.
    const object = new Group();
    const placed = yUp.object.clone();
    placed.matrixAutoUpdate = false;
    placed.matrix.copy(toScan);
    object.add(placed);
    const geometry: BufferGeometry = yUp.collision.geometry.clone().applyMatrix4(toScan);
    geometry.boundsTree = new MeshBVH(geometry) as unknown as NonNullable<BufferGeometry['boundsTree']>;
    const zUp: LoadedMesh = { ...yUp, object, collision: new Mesh(geometry), frame };
    const zGraph = {
      nodes: graph.nodes.map((n) => ({
        ...n,
        position: (({ x, y, z }) => ({ x, y, z }))(new Vector3(n.position.x, n.position.y, n.position.z).applyMatrix4(toScan)),
      })),
    };
    const [a, b] = [await planTour(yUp, graph, TOUR_DEFAULTS), await planTour(zUp, zGraph, TOUR_DEFAULTS)];
    expect(b.poses.up).toBe('z');
    expect(b.order).toEqual(a.order);
    expect(b.poses.frames.length).toBe(a.poses.frames.length);
    b.poses.frames.forEach((p, k) => {
      const w = new Vector3(p.position.x, p.position.y, p.position.z).applyMatrix4(frame);
      const q = a.poses.frames[k]!.position;
      expect(w.distanceTo(new Vector3(q.x, q.y, q.z)), `frame ${k}`).toBeLessThan(1e-3);
      // Up is the scan's +Z: the eye is 1.5 m above the floor along Z.
      expect(p.position.z).toBeCloseTo(q.y, 3);
    });
    expect(b.poses.nodesInView).toEqual(a.poses.nodesInView);
  }, 120_000);
});
