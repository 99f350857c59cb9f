import { describe, expect, it } from 'vitest';
import { readTours } from '../../src/app/importTours.ts';
import type { TourPoses } from '../../src/core/tour/types.ts';
import type { PickedFile } from '../../src/ui/pickedFiles.ts';

const poses: TourPoses = {
  fps: 2, fovDeg: 75, eyeHeightM: 1.5, width: 64, height: 48, up: 'y',
  frames: [{ t: 0, position: { x: 0, y: 1.5, z: 0 }, yawDeg: 0, pitchDeg: 0 }, { t: 0.5, position: { x: 1, y: 1.5, z: 0 }, yawDeg: 10, pitchDeg: 0 }],
  nodesInView: [{ node: 'node_1', intervals: [[0, 0.5]] }],
};
const file = (path: string, content: string | Uint8Array, type = ''): PickedFile => ({ path, file: new File([content as BlobPart], path.split('/').pop()!, { type }) });
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);

/** A release folder's touring-video files for scene A, as *Export release* writes them. */
function tourOf(scene: string, over: Partial<Record<string, string>> = {}): PickedFile[] {
  return [
    file(`rel/videos/${scene}.mp4`, new Uint8Array([0, 0, 0, 24]), 'video/mp4'),
    file(`rel/videos/${scene}.poses.json`, over.poses ?? JSON.stringify(poses)),
    file(`rel/frames/${scene}/16/000.jpg`, jpeg),
    file(`rel/frames/${scene}/16/001.jpg`, jpeg),
    file(`rel/frames/${scene}/16/frames.json`, over.frames ?? JSON.stringify([{ file: '000.jpg', index: 0, t: 0 }, { file: '001.jpg', index: 1, t: 0.5 }])),
  ];
}

describe('touring videos imported with a release', () => {
  it('a scene’s video, poses and frame sets come in as they were exported', async () => {
    const { videos, problems } = await readTours([...tourOf('A'), file('rel/graphs/A-graph.json', '{}')], new Set(['A']));
    expect(problems).toEqual([]);
    const v = videos.get('A')!;
    expect(v.mime).toBe('video/mp4');
    expect(v.poses).toEqual(poses);
    expect(v.frameSets['16']!.frames.map((f) => f.file)).toEqual(['000.jpg', '001.jpg']);
    expect(v.frameSets['16']!.jpegs).toHaveLength(2);
    expect(v.blob.size).toBe(4);
  });

  it('what cannot be taken is a warning naming the file, and the rest still comes in', async () => {
    const picked = [
      ...tourOf('A', { poses: JSON.stringify({ ...poses, fps: -2 }) }),
      ...tourOf('B', { frames: JSON.stringify([{ file: '000.jpg', index: 0, t: 0 }, { file: '007.jpg', index: 7, t: 3.5 }]) }),
      ...tourOf('GONE'),
      file('rel/videos/C.webm', new Uint8Array([1])),
    ];
    const { videos, problems } = await readTours(picked, new Set(['A', 'B', 'C']));
    expect([...videos.keys()]).toEqual(['B']);
    expect(videos.get('B')!.frameSets).toEqual({});
    expect(problems.map((p) => [p.severity, p.file, p.location])).toEqual([
      ['warning', 'rel/videos/A.poses.json', '/fps'],
      ['warning', 'rel/frames/B/16/frames.json', ''],
      ['warning', 'rel/videos/GONE.mp4', ''],
      ['warning', 'rel/videos/C.webm', ''],
    ]);
    expect(problems[1]!.message).toMatch(/lists 007\.jpg, which is not among the picked files/);
    expect(problems[2]!.message).toMatch(/scene GONE, which this release does not hold/);
    expect(problems[3]!.message).toMatch(/needs both videos\/C\.mp4 \(or \.webm\) and videos\/C\.poses\.json/);
  });

  it('poses that are not JSON, or hide a __proto__ key, are warnings that quote no file text', async () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash';
    const picked = [...tourOf('A', { poses: `${secret} not json` }), ...tourOf('B', { poses: JSON.stringify(poses).replace('{', '{"__proto__":{"x":1},') })];
    const { videos, problems } = await readTours(picked, new Set(['A', 'B']));
    expect(videos.size).toBe(0);
    expect(problems.map((p) => p.file)).toEqual(['rel/videos/A.poses.json', 'rel/videos/B.poses.json']);
    expect(problems[0]!.location).toMatch(/^line 1, column \d+$/);
    expect(problems.map((p) => p.message).join(' ')).not.toContain('root:x');
    expect(problems[1]!.message).toMatch(/__proto__/);
  });
});
