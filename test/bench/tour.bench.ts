// The touring video's speed: rendering and encoding frames per second of wall time, by the path
// `cli tour` takes (headless Chromium, software WebGL, the studio's renderer and mediabunny's
// WebCodecs encoder), on the sample house (~16 k triangles) and its ~1 M-triangle version.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTour } from '../../src/cli/tour.ts';
import { largeSample } from './largeSample.ts';
import type { BenchSection } from './run.ts';

const REPO = resolve(import.meta.dirname, '../..');
const SMALL = join(REPO, 'scenes/sample-house/house.glb');
const LARGE = join(REPO, 'scenes/generated-large/house-1m.glb');
const GRAPH = join(REPO, 'scenes/sample-house/graphs/sample-house-graph.json');

export const tourBench: BenchSection = {
  name: 'tour',
  title: 'touring video: rendering + encoding speed (frames per second of wall time), sample house vs its ~1 M-triangle version (headless Chromium)',
  async run() {
    largeSample();
    const dir = mkdtempSync(join(tmpdir(), 'traversa-tour-bench-'));
    try {
      // The large house at 1 fps: half the frames (the speed per frame is what is measured), so the section stays within minutes.
      for (const [label, mesh, fps] of [
        ['sample house', SMALL, '2'],
        ['~1 M triangles', LARGE, '1'],
      ] as const) {
        const r = await runTour({ mesh, graph: GRAPH, out: join(dir, `${label.replace(/\W+/g, '-')}.mp4`), fps }, () => {});
        const t = r.timings;
        const line = `${label.padEnd(15)} ${String(t.frames).padStart(4)} frames ${r.settings.width}×${r.settings.height} ${r.codec === 'avc' ? 'H.264' : 'VP9'}: ${(t.frames / (t.renderMs / 1000)).toFixed(1).padStart(5)} frames/s of wall time (render + encode ${(t.renderMs / 1000).toFixed(1)} s; scan load ${(t.loadMs / 1000).toFixed(1)} s, route ${(t.planMs / 1000).toFixed(1)} s)`;
        console.log(line);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
