import { describe, expect, it } from 'vitest';
import { readTours } from '../../../../src/features/tour/app/importTours.ts';
import { file, mp4, poses, tourOf } from '../../../support/tourFiles.ts';

describe('touring videos imported with a release', () => {
  it('a scene’s video, poses and frame sets come in as they were exported', async () => {
    const { videos, problems } = await readTours([...tourOf('A'), file('rel/graphs/A-graph.json', '{}')], new Set(['A']));
    expect(problems).toEqual([]);
    const v = videos.get('A')!;
    expect(v.mime).toBe('video/mp4');
    expect(v.poses).toEqual(poses);
    expect(v.frameSets['16']!.frames.map((f) => f.file)).toEqual(['000.jpg', '001.jpg']);
    expect(v.frameSets['16']!.jpegs).toHaveLength(2);
    expect(v.blob.size).toBe(mp4(1).length);
  });

  it('what cannot be taken is a warning naming the file, and the rest still comes in', async () => {
    const picked = [
      ...tourOf('A', { poses: JSON.stringify({ ...poses, fps: -2 }) }),
      ...tourOf('B', {
        frames: JSON.stringify([
          { file: '000.jpg', index: 0, t: 0 },
          { file: '007.jpg', index: 7, t: 3.5 },
        ]),
      }),
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
});
