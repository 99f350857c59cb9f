import { describe, expect, it } from 'vitest';
import { readTours } from '../../src/features/tour/app/importTours.ts';
import { file, mp4, poses, tourOf } from '../support/tourFiles.ts';

/**
 * Issue 25 §6 and §8: touring videos, poses and frame sets as an attacker or a broken download
 * leaves them, at the studio's import (the command line's readers: test/hostile/modelEndpoint.test.ts
 * for run-model's frame sets). Each is refused naming its file; the good scene beside them comes in.
 */
describe('malformed touring videos and frame sets at studio import', () => {
  it('a frame set listing more than an hour of frames is refused, naming the file and the limit (issue 25 §6)', async () => {
    const many = JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ file: '000.jpg', index: i, t: i })));
    const { videos, problems } = await readTours(tourOf('A', { frames: many }), new Set(['A']));
    expect(videos.get('A')!.frameSets).toEqual({});
    expect(problems.map((p) => [p.severity, p.file])).toEqual([['warning', 'rel/frames/A/16/frames.json']]);
    expect(problems[0]!.message).toMatch(/a frame set lists at most 3,600 frames/);
  });

  it('a video that is not one, or is cut short, poses for a longer video, and frames that are not JPEGs are refused, each naming its file (issue 25 §8)', async () => {
    const cut = mp4(1).slice(0, 40);
    const long = JSON.stringify({ ...poses, frames: Array.from({ length: 1000 }, (_, i) => ({ ...poses.frames[0]!, t: i / 60 })), fps: 60 });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const picked = [
      ...tourOf('EMPTY', {}, new Uint8Array(0)),
      ...tourOf('HTML', { video: '<!doctype html><title>404</title>' }),
      ...tourOf('ZIP', {}, new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0])),
      ...tourOf('CUT', {}, cut),
      ...tourOf('LONG', { poses: long }),
      ...tourOf('HUGE', { poses: JSON.stringify({ ...poses, width: 50_000, height: 50_000 }) }),
      ...tourOf('PNG').map((f) => (f.path.endsWith('001.jpg') ? file(f.path, png) : f)),
      ...tourOf('OK'),
    ];
    const { videos, problems } = await readTours(picked, new Set(['EMPTY', 'HTML', 'ZIP', 'CUT', 'LONG', 'HUGE', 'PNG', 'OK']));
    expect([...videos.keys()].sort()).toEqual(['OK', 'PNG']);
    expect(videos.get('PNG')!.frameSets).toEqual({});
    expect(problems.map((p) => [p.file, p.message.replace(/;.*$/, '')])).toEqual([
      ['rel/videos/EMPTY.mp4', 'is empty (0 bytes)'],
      ['rel/videos/HTML.mp4', 'is not an MP4 video (it does not start with an ftyp box)'],
      ['rel/videos/ZIP.mp4', 'is not an MP4 video (it does not start with an ftyp box)'],
      ['rel/videos/CUT.mp4', `is cut short: its moov box needs ${mp4(1).length} bytes, the file has 40`],
      ['rel/videos/LONG.poses.json', 'describe 16.6 s of video, and rel/videos/LONG.mp4 lasts 1.0 s'],
      ['rel/videos/HUGE.poses.json', expect.stringMatching(/8192/)],
      ['rel/frames/PNG/16/001.jpg', 'is not a JPEG image'],
    ]);
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
