import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode } from 'fast-png';
import { DoubleSide, Group, Mesh, PerspectiveCamera, Raycaster, Vector2, Vector3, type Material } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKER_RGB } from '../../src/core/evalinputs/mapImage.ts';
import type { DepthInfo, MapInfo } from '../../src/core/evalinputs/spatial.ts';
import type { NavGraph } from '../../src/core/graph.ts';
import type { TourPose, TourPoses } from '../../src/core/tour/types.ts';
import type { LoadedMesh } from '../../src/engine/mesh/types.ts';
import { traversaWith } from '../support/cli.ts';
import { imagesOf, promptText, startFakeChat, type FakeChat } from '../support/fakeChat.ts';
import { writeFrameSet } from '../support/frameSets.ts';
import { loadSampleHouse, SAMPLE_DIR } from '../support/suggestTruth.ts';

// `eval-inputs --with depth,map,graph` on the sample house: a copy of the release with a tour's
// poses (made here: standing in rooms at eye height, turned and tilted as a tour looks) and four
// tiny frames. The depth frames are checked against three.js's own camera and ray caster on the
// scan as it is drawn (no BVH, not the collision mesh), the maps' markers against the nodes.

const SCENE = 'sample-house';
const made: string[] = [];
const servers: FakeChat[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const cli = (...args: string[]) => traversaWith({ limitMs: 120_000, env: { TRAVERSA_VLM_RETRY_MS: '1' } }, ...args);
const json = <T = unknown>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const MESH = join(SAMPLE_DIR, 'house.glb');
const graph = json<NavGraph>(join(SAMPLE_DIR, 'graphs', 'sample-house-graph.json'));
const at = (id: string) => graph.nodes.find((n) => n.id === id)!.position;

/** Where the camera stands and looks: two rooms downstairs, two upstairs (one looking up, where the upper storey has no ceiling). */
const STANDS: [string, number, number][] = [
  ['node_1', 30, -8],
  ['node_3', 150, 0],
  ['node_10', -60, 35],
  ['node_12', 200, -20],
];

/** The sample house's release with a tour: poses at 2 fps and the 16-frame set taking every one of its four frames. */
function releaseWithTour(poses = true): string {
  const gt = temp('traversa-spatial-gt-');
  cpSync(SAMPLE_DIR, gt, { recursive: true });
  writeFrameSet(gt, SCENE, '16', STANDS.length);
  if (poses) {
    const frames: TourPose[] = STANDS.map(([id, yawDeg, pitchDeg], i) => {
      const p = at(id);
      return { t: i * 0.5, position: { x: p.x + 0.2, y: p.y + 1.5, z: p.z - 0.1 }, yawDeg, pitchDeg };
    });
    const doc: TourPoses = { fps: 2, fovDeg: 75, eyeHeightM: 1.5, width: 640, height: 480, up: 'y', frames, nodesInView: [] };
    mkdirSync(join(gt, 'videos'));
    writeFileSync(join(gt, 'videos', `${SCENE}.poses.json`), JSON.stringify(doc));
  }
  return gt;
}

describe('eval-inputs --with depth,map,graph on the sample house', { timeout: 60_000 }, () => {
  let gt: string, out: string;
  let house: LoadedMesh;
  let ran: Awaited<ReturnType<typeof cli>>;
  beforeAll(async () => {
    gt = releaseWithTour();
    out = temp('traversa-spatial-out-');
    ran = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', out, '--agents', 'HUMAN', '--with', 'graph,depth,map', '--mesh', MESH);
    house = await loadSampleHouse();
  }, 60_000);
  afterAll(() => house?.dispose());

  it('writes the inputs with the variant, depth frames beside the frames and a map per floor', () => {
    expect(ran.stderr).toBe(
      `wrote 10 evaluation inputs (10 questions × 1 agent, 1 scene; 0 hallucinated questions left out) and 4 frames, 4 depth frames, 2 maps to ${out}\n`,
    );
    expect(ran.code).toBe(0);
    const folder = `frames/${SCENE}/16`;
    for (const f of ['000', '001', '002', '003']) expect(existsSync(join(out, folder, 'depth', `${f}.png`)), f).toBe(true);
    const manifest = json<{ with: string[] }>(join(out, 'manifest.json'));
    expect(manifest.with).toEqual(['depth', 'map', 'graph']);
    const input = json<Record<string, unknown>>(join(out, 'inputs', SCENE, 'HUMAN', 'q01.json'));
    expect(input.with).toEqual(['depth', 'map', 'graph']);
    expect(input.depthFrames).toEqual([0, 1, 2, 3].map((i) => ({ file: `${folder}/depth/00${i}.png`, t: i * 0.5 })));
    expect(input.maps).toEqual([
      { file: `maps/${SCENE}/floor-1.png`, floor: 1, markers: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ label: String(n), node: `node_${n}` })) },
      { file: `maps/${SCENE}/floor-2.png`, floor: 2, markers: [10, 11, 12, 13, 14].map((n) => ({ label: String(n), node: `node_${n}` })) },
    ]);
  });

  it('the graph is a section of the prompt after the video: every node with its floor and position, every edge', () => {
    const prompt = json<{ prompt: string }>(join(out, 'inputs', SCENE, 'HUMAN', 'q01.json')).prompt;
    const section = prompt.slice(prompt.indexOf('5.Topological Graph'), prompt.indexOf('\nTask:'));
    expect(prompt.indexOf('<video>')).toBeLessThan(prompt.indexOf('5.Topological Graph'));
    for (const n of graph.nodes) {
      const floor = n.position.y > 1 ? 2 : 1;
      expect(section).toContain(
        `${n.id} - ${n.name} (floor ${floor}; x ${n.position.x.toFixed(2)}, y ${n.position.y.toFixed(2)}, z ${n.position.z.toFixed(2)})`,
      );
    }
    const name = (id: string) => graph.nodes.find((n) => n.id === id)!.name;
    for (const e of graph.edges) expect(section).toContain(`${e.from} (${name(e.from)}) <-> ${e.to} (${name(e.to)})`);
  });

  it('depth agrees with three.js’s ray caster through the tour camera, on the scan as drawn: z-depth in millimetres, 0 where nothing is hit', () => {
    const info = json<DepthInfo>(join(out, 'frames', SCENE, '16', 'depth', 'depth.json'));
    expect(info).toMatchObject({ units: 'mm', scale: 0.001, camera: { fovDeg: 75, frameWidth: 640, frameHeight: 480, width: 160, height: 120 } });
    // Both sides of every surface, as the project's ray caster counts them; the scan's own triangles, not its welded collision mesh.
    const scan = new Group();
    scan.add(house.object.clone(true));
    scan.matrixAutoUpdate = false;
    scan.matrix.copy(house.frame);
    const bothSides = (m: Material) => Object.assign(m.clone(), { side: DoubleSide });
    scan.traverse((o) => {
      if (o instanceof Mesh) o.material = Array.isArray(o.material) ? o.material.map(bothSides) : bothSides(o.material as Material);
    });
    scan.updateMatrixWorld(true);
    const raycaster = new Raycaster();
    let hits = 0,
      misses = 0;
    info.frames.forEach((f, k) => {
      const png = decode(readFileSync(join(out, 'frames', SCENE, '16', 'depth', f.file)));
      expect([png.width, png.height, png.depth, png.channels]).toEqual([160, 120, 16, 1]);
      // The renderer's camera (engine/video/render.ts) at the frame's pose.
      const [id, yawDeg, pitchDeg] = STANDS[k]!;
      const p = at(id);
      const camera = new PerspectiveCamera(75, 640 / 480, 0.02, 1000);
      camera.position.set(p.x + 0.2, p.y + 1.5, p.z - 0.1);
      camera.rotation.set((pitchDeg * Math.PI) / 180, (yawDeg * Math.PI) / 180, 0, 'YXZ');
      camera.updateMatrixWorld(true);
      const forward = camera.getWorldDirection(new Vector3());
      for (let row = 3; row < 120; row += 13)
        for (let col = 5; col < 160; col += 17) {
          raycaster.setFromCamera(new Vector2(((col + 0.5) / 160) * 2 - 1, 1 - ((row + 0.5) / 120) * 2), camera);
          raycaster.far = Infinity;
          const hit = raycaster.intersectObject(scan, true)[0];
          const mm = png.data[row * 160 + col]!;
          const where = `frame ${f.file} pixel (${col}, ${row})`;
          if (!hit) {
            misses++;
            expect(mm, where).toBe(0);
          } else {
            hits++;
            expect(Math.abs(mm / 1000 - hit.distance * raycaster.ray.direction.dot(forward)), where).toBeLessThanOrEqual(0.002);
          }
        }
    });
    expect(hits).toBeGreaterThan(200);
    expect(misses).toBeGreaterThan(3);
  });

  it('each map has a marker where each of its nodes is, at the node’s position through map.json’s transform; other floors’ nodes are not on it', () => {
    const info = json<MapInfo>(join(out, 'maps', SCENE, 'map.json'));
    const t = info.transform;
    expect(info.floors.map((f) => [f.floor, f.file])).toEqual([
      [1, 'floor-1.png'],
      [2, 'floor-2.png'],
    ]);
    expect(info.nodes.map((n) => n.node).sort()).toEqual(graph.nodes.map((n) => n.id).sort());
    const images = new Map(info.floors.map((f) => [f.floor, decode(readFileSync(join(out, 'maps', SCENE, f.file)))]));
    const colourAt = (floor: number, [col, row]: [number, number]) => {
      const img = images.get(floor)!;
      expect([img.width, img.height, img.channels, img.depth]).toEqual([t.width, t.height, 4, 8]);
      return [...img.data.subarray((row * img.width + col) * 4, (row * img.width + col) * 4 + 3)];
    };
    for (const n of info.nodes) {
      const p = at(n.node);
      // The scan is y-up in metres: the world is the graph's frame.
      expect(n.pixel, n.node).toEqual([Math.floor((p.x - t.x0) * t.pxPerM), Math.floor((p.z - t.z0) * t.pxPerM)]);
      expect(n.floor, n.node).toBe(p.y > 1 ? 2 : 1);
      expect(colourAt(n.floor, n.pixel), n.node).toEqual([...MARKER_RGB]);
      // On the other floor's map, no marker is there unless one of that floor's nodes is close by.
      const other = 3 - n.floor;
      const near = info.nodes.some((m) => m.floor === other && Math.hypot(m.pixel[0] - n.pixel[0], m.pixel[1] - n.pixel[1]) < 12);
      if (!near) expect(colourAt(other, n.pixel), `${n.node} on floor ${other}`).not.toEqual([...MARKER_RGB]);
    }
    // Rendered from the scan: floor-light rooms and dark walls, not a blank page.
    const img = images.get(1)!;
    let dark = 0,
      light = 0;
    for (let i = 0; i < img.data.length; i += 4) {
      if (img.data[i]! < 80) dark++;
      else if (img.data[i]! > 180 && img.data[i]! < 255) light++;
    }
    expect(dark / (t.width * t.height)).toBeGreaterThan(0.02);
    expect(light / (t.width * t.height)).toBeGreaterThan(0.5);
  });

  it('run-model sends the depth frames and maps after the frames and writes its results under the variant’s name', async () => {
    const chat = await startFakeChat({
      reply: () => ({ content: JSON.stringify([{ question: 'q', agent: 'HUMAN', result: { answer: 'yes', path: ['node_1', 'node_2'], reason: '' } }]) }),
    });
    servers.push(chat);
    const results = temp('traversa-spatial-results-');
    const r = await cli('run-model', '--inputs', out, '--endpoint', chat.url, '--model', 'fake-vlm', '--out', results, '--limit', '2');
    expect(r.stderr).not.toContain('failed;');
    expect(r.code).toBe(0);
    expect(chat.requests).toHaveLength(2);
    const body = chat.requests[0]!.body;
    const images = imagesOf(body);
    expect(images).toHaveLength(4 + 4 + 2);
    expect(images.slice(0, 4).every((u) => u.startsWith('data:image/jpeg;base64,'))).toBe(true);
    expect(images.slice(4).every((u) => u.startsWith('data:image/png;base64,'))).toBe(true);
    // Depth goes as an 8-bit picture (a 16-bit one reads as white in most image readers), the maps as written.
    const depth = decode(Buffer.from(images[4]!.split(',')[1]!, 'base64'));
    expect([depth.width, depth.height, depth.depth, depth.channels]).toEqual([160, 120, 8, 1]);
    expect(Buffer.from(images[8]!.split(',')[1]!, 'base64')).toEqual(readFileSync(join(out, 'maps', SCENE, 'floor-1.png')));
    const text = promptText(body);
    expect(text).toContain('Depth frames: the same views as the 4 frames above');
    expect(text).toContain('Depth 4/4 (00:01)');
    expect(text).toContain('Map of floor 2; markers: 10 = node_10, 11 = node_11, 12 = node_12, 13 = node_13, 14 = node_14');
    expect(text).toContain('5.Topological Graph');
    const setting = 'fake-vlm_16f_with-depth+map+graph';
    expect(existsSync(join(results, setting, SCENE, `${SCENE}_HUMAN.json`))).toBe(true);
    expect(json(join(results, setting, 'run_summary.json'))).toMatchObject({ model_setting: setting, with: ['depth', 'map', 'graph'], frames: '16' });
  });
});

describe('eval-inputs --with: what it refuses', { timeout: 60_000 }, () => {
  it('an unknown part, or depth or a map without a scan, is a usage error (exit 2)', async () => {
    const gt = releaseWithTour();
    const out = temp('traversa-spatial-bad-');
    const foo = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', out, '--with', 'depth,foo');
    expect(foo.code).toBe(2);
    expect(foo.stderr).toBe('traversa: --with takes a comma list of depth, map, graph (any of them), not "foo"\n');
    const noScan = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', out, '--with', 'depth');
    expect(noScan.code).toBe(2);
    expect(noScan.stderr).toContain('--with depth renders from the scan: give --mesh <file> (one scene) or --scans <dir>');
  });

  it('a missing scan or missing poses is an input error naming the file looked for (exit 1); a map needs no poses', async () => {
    const gt = releaseWithTour(false);
    const out = temp('traversa-spatial-missing-');
    const scans = temp('traversa-spatial-scans-');
    const noScan = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', out, '--with', 'map', '--scans', scans);
    expect(noScan.code).toBe(1);
    expect(noScan.stderr).toContain(`${join(scans, `${SCENE}.glb`)}: no scan of scene ${SCENE}`);
    const noPoses = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', out, '--with', 'depth', '--mesh', MESH);
    expect(noPoses.code).toBe(1);
    expect(noPoses.stderr).toContain(`${join(gt, 'videos', `${SCENE}.poses.json`)}: no tour poses for scene ${SCENE}`);
    cpSync(MESH, join(scans, `${SCENE}.glb`));
    const map = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', out, '--with', 'map', '--scans', scans, '--agents', 'HUMAN');
    expect(map.code).toBe(0);
    expect(map.stderr).toContain('and 4 frames, 2 maps to');
  });
});
