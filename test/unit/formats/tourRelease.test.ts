import 'fake-indexeddb/auto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { releaseZip, releaseZipWithVideos } from '../../../src/services/exportRelease.ts';
import { sampleFrameIndices, sampledFrames } from '../../../src/core/tour/frames.ts';
import type { TourPoses } from '../../../src/core/tour/types.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import type { SceneTourBytes } from '../../../src/formats/capnav/tourFiles.ts';
import { TraversaDb } from '../../../src/persistence/db.ts';
import { saveSceneVideo } from '../../../src/persistence/videos.ts';
import { SAMPLE_DIR } from '../../support/suggestTruth.ts';

// The release export carries each scene's touring video in the release layout: videos/<SCENE>.mp4
// (or .webm) and .poses.json, frames/<SCENE>/<budget>/NNN.jpg and frames.json — and reading the
// release back does not take those files for stray ones.

const files = (function walk(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? walk(join(dir, e.name))
      : e.name.endsWith('.json') && e.name !== 'features.json'
        ? [{ path: relative(SAMPLE_DIR, join(dir, e.name)), text: readFileSync(join(dir, e.name), 'utf8') }]
        : [],
  );
})(SAMPLE_DIR);
const project = readRelease(files, 'Sample house').project!;
const poses: TourPoses = {
  fps: 2,
  fovDeg: 75,
  eyeHeightM: 1.5,
  width: 640,
  height: 480,
  up: 'y',
  frames: Array.from({ length: 40 }, (_, k) => ({ t: k / 2, position: { x: k * 0.5, y: 1.5, z: 0 }, yawDeg: 0, pitchDeg: 0 })),
  nodesInView: [{ node: 'node_1', intervals: [[0, 3.5]] }],
};
const jpeg = (i: number) => new Uint8Array([0xff, 0xd8, 0xff, i]);
function tour(mime: string): SceneTourBytes {
  const frameSets: SceneTourBytes['frameSets'] = {};
  for (const b of ['16', '32', '64', '1fps'] as const) {
    const idx = sampleFrameIndices(b, 40, 2);
    frameSets[b] = { frames: sampledFrames(idx, 2), jpegs: idx.map(jpeg) };
  }
  return { video: new Uint8Array([1, 2, 3, 4, 5]), mime, poses, frameSets };
}
const unzip = (bytes: Uint8Array) => unzipSync(bytes);

describe('frame budgets', () => {
  it('spread 16, 32 and 64 frames from the first to the last, one per second for 1fps, never a frame twice', () => {
    expect(sampleFrameIndices('16', 186, 2)).toHaveLength(16);
    expect(sampleFrameIndices('16', 186, 2)[0]).toBe(0);
    expect(sampleFrameIndices('16', 186, 2)[15]).toBe(185);
    expect(sampleFrameIndices('1fps', 186, 2)).toEqual(Array.from({ length: 93 }, (_, s) => s * 2));
    expect(sampleFrameIndices('64', 40, 2)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(sampledFrames([0, 12, 185], 2)).toEqual([
      { file: '000.jpg', index: 0, t: 0 },
      { file: '001.jpg', index: 12, t: 6 },
      { file: '002.jpg', index: 185, t: 92.5 },
    ]);
  });
});

describe('the release export with touring videos', () => {
  it('writes videos/ and frames/ beside graphs/, qa/ and traverse/', () => {
    const zip = unzip(releaseZip(project, new Map([['sample-house', tour('video/mp4')]])).bytes);
    const root = 'Sample-house/';
    expect(zip[`${root}graphs/sample-house-graph.json`]).toBeDefined();
    expect([...zip[`${root}videos/sample-house.mp4`]!]).toEqual([1, 2, 3, 4, 5]);
    expect(JSON.parse(strFromU8(zip[`${root}videos/sample-house.poses.json`]!))).toEqual(poses);
    for (const [budget, n] of [
      ['16', 16],
      ['32', 32],
      ['64', 40],
      ['1fps', 20],
    ] as const) {
      const list = JSON.parse(strFromU8(zip[`${root}frames/sample-house/${budget}/frames.json`]!)) as { file: string; index: number }[];
      expect(list, budget).toHaveLength(n);
      list.forEach((f) => expect([...zip[`${root}frames/sample-house/${budget}/${f.file}`]!]).toEqual([...jpeg(f.index)]));
    }
  });

  it('names a VP9 video .webm, and writes no video for a scene without one (or one not in the project)', () => {
    const zip = unzip(
      releaseZip(
        project,
        new Map([
          ['sample-house', tour('video/webm')],
          ['GONE', tour('video/mp4')],
        ]),
      ).bytes,
    );
    const names = Object.keys(zip);
    expect(names).toContain('Sample-house/videos/sample-house.webm');
    expect(names.some((n) => n.includes('GONE'))).toBe(false);
    expect(Object.keys(unzip(releaseZip(project).bytes)).some((n) => /videos\/|frames\//.test(n))).toBe(false);
  });

  it("takes the stored videos of the project (IndexedDB), not another project's", async () => {
    const db = new TraversaDb(`tour-release-${Date.now()}`);
    const t = tour('video/mp4');
    const frameSets = Object.fromEntries(
      Object.entries(t.frameSets).map(([b, s]) => [b, { frames: s.frames, jpegs: s.jpegs.map((j) => new Blob([j as BlobPart], { type: 'image/jpeg' })) }]),
    );
    await saveSceneVideo(db, 'other', 'sample-house', {
      blob: new Blob([new Uint8Array([9])], { type: 'video/mp4' }),
      mime: 'video/mp4',
      poses,
      frameSets: {},
    });
    expect(Object.keys(unzip((await releaseZipWithVideos(project, db, 'p1')).bytes)).some((n) => n.includes('videos/'))).toBe(false);
    await saveSceneVideo(db, 'p1', 'sample-house', { blob: new Blob([t.video as BlobPart], { type: 'video/mp4' }), mime: 'video/mp4', poses, frameSets });
    const zip = unzip((await releaseZipWithVideos(project, db, 'p1')).bytes);
    expect([...zip['Sample-house/videos/sample-house.mp4']!]).toEqual([1, 2, 3, 4, 5]);
    expect(zip['Sample-house/frames/sample-house/32/031.jpg']).toBeDefined();
  });

  it('reads back without taking the poses and frame lists for stray files (a stray JSON still is)', () => {
    const zip = unzip(releaseZip(project, new Map([['sample-house', tour('video/mp4')]])).bytes);
    const json = Object.entries(zip)
      .filter(([n]) => n.endsWith('.json'))
      .map(([path, b]) => ({ path, text: strFromU8(b) }));
    const ignored = (fs: typeof json) =>
      readRelease(fs)
        .problems.filter((p) => p.code === 'file.ignored')
        .map((p) => p.file);
    expect(ignored(json)).toEqual([]);
    expect(ignored([...json, { path: 'Sample-house/videos/notes.json', text: '{}' }])).toEqual(['videos/notes.json']);
  });
});
