import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TourPosesSchema } from '../../src/core/tour/types.ts';
import { REPO, traversaWith } from '../support/cli.ts';
import { ensureFfprobe, ffprobe } from '../support/ffprobe.ts';

// `cli tour` on the generated sample house: headless Chromium renders the automatic tour with the
// studio's code; ffprobe (Debian's ffmpeg) reads the video back with the stated fps, size and frame
// count, which is the poses file's. Bad inputs are refused before any browser starts.

const HOUSE = join(REPO, 'scenes/sample-house/house.glb');
const GRAPH = join(REPO, 'scenes/sample-house/graphs/sample-house-graph.json');
const dir = mkdtempSync(join(tmpdir(), 'traversa-tour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => traversaWith({ limitMs: 300_000 }, 'tour', ...args);
const probe = ensureFfprobe();
if (!probe.ok) console.log(`SKIPPED: the ffprobe checks of cli tour: ${probe.reason}`);

describe('cli tour on the generated house', () => {
  it.skipIf(!probe.ok)(
    'writes an H.264 MP4 at the CapNav defaults that ffprobe reads as 2 fps, 640×480, one frame per pose',
    async () => {
      const out = join(dir, 'house.mp4');
      const r = await run('--mesh', HOUSE, '--graph', GRAPH, '--out', out);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/tour: 100% Rendering frame (\d+) of \1/);
      expect(r.stdout).toMatch(/^wrote .*house\.mp4 \(MP4, H\.264, \d+ frames at 2 fps/);
      const poses = TourPosesSchema.parse(JSON.parse(readFileSync(join(dir, 'house.poses.json'), 'utf8')));
      expect(poses).toMatchObject({ fps: 2, fovDeg: 75, eyeHeightM: 1.5, width: 640, height: 480, up: 'y' });
      const v = ffprobe(out);
      expect(v).toMatchObject({ codec: 'h264', width: 640, height: 480, fps: 2, frames: poses.frames.length });
      expect(Math.round(v.durationS * 2)).toBe(poses.frames.length);
      expect(poses.nodesInView.every((n) => n.intervals.length > 0)).toBe(true);
    },
    300_000,
  );

  it.skipIf(!probe.ok)(
    'takes its settings: 1 fps, 320×240, 90°, eye 1.2 m',
    async () => {
      const out = join(dir, 'small.mp4');
      const r = await run('--mesh', HOUSE, '--graph', GRAPH, '--out', out, '--fps', '1', '--size', '320x240', '--fov', '90', '--eye', '1.2');
      expect(r.code, r.stderr).toBe(0);
      const poses = TourPosesSchema.parse(JSON.parse(readFileSync(join(dir, 'small.poses.json'), 'utf8')));
      expect(poses).toMatchObject({ fps: 1, fovDeg: 90, eyeHeightM: 1.2, width: 320, height: 240 });
      expect(ffprobe(out)).toMatchObject({ width: 320, height: 240, fps: 1, frames: poses.frames.length });
    },
    300_000,
  );

  it('refuses a missing mesh, a bad graph, bad settings and a missing Chromium, naming what is wrong', async () => {
    const missing = await run('--mesh', join(dir, 'nope.glb'), '--graph', GRAPH, '--out', join(dir, 'x.mp4'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(join(dir, 'nope.glb'));

    const bad = join(dir, 'bad-graph.json');
    const g = JSON.parse(readFileSync(GRAPH, 'utf8')) as { nodes: { position?: unknown }[] };
    delete g.nodes[2]!.position;
    writeFileSync(bad, JSON.stringify(g));
    const badGraph = await run('--mesh', HOUSE, '--graph', bad, '--out', join(dir, 'x.mp4'));
    expect(badGraph.code).toBe(1);
    expect(badGraph.stderr).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*/nodes/2/position.*missing`));

    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{ nodes: ');
    const broken = await run('--mesh', HOUSE, '--graph', notJson, '--out', join(dir, 'x.mp4'));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(notJson);

    const size = await run('--mesh', HOUSE, '--graph', GRAPH, '--out', join(dir, 'x.mp4'), '--size', '640');
    expect(size.code).toBe(2);
    expect(size.stderr).toMatch(/--size takes WIDTHxHEIGHT/);
    const fps = await run('--mesh', HOUSE, '--graph', GRAPH, '--out', join(dir, 'x.mp4'), '--fps', '0');
    expect(fps.code).toBe(2);
    expect(fps.stderr).toMatch(/--fps/);

    const saved = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = join(dir, 'no-chromium');
    try {
      const noBrowser = await run('--mesh', HOUSE, '--graph', GRAPH, '--out', join(dir, 'x.mp4'));
      expect(noBrowser.code).toBe(1);
      expect(noBrowser.stderr).toMatch(/no Chromium at .*no-chromium.*apt-get install -y chromium/);
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = saved;
    }
  }, 120_000);
});
