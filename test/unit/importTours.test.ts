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

/** A minimal MP4's top-level boxes: ftyp, then moov holding an mvhd that says the video lasts `seconds`. */
function mp4(seconds: number): Uint8Array {
  const box = (type: string, body: Uint8Array) => {
    const b = new Uint8Array(8 + body.length);
    new DataView(b.buffer).setUint32(0, b.length);
    b.set(new TextEncoder().encode(type), 4);
    b.set(body, 8);
    return b;
  };
  const mvhd = new Uint8Array(100);
  new DataView(mvhd.buffer).setUint32(12, 1000); // timescale
  new DataView(mvhd.buffer).setUint32(16, Math.round(seconds * 1000)); // duration
  const ftyp = box('ftyp', new TextEncoder().encode('isom\0\0\0\0isom'));
  const moov = box('moov', box('mvhd', mvhd));
  const out = new Uint8Array(ftyp.length + moov.length);
  out.set(ftyp, 0);
  out.set(moov, ftyp.length);
  return out;
}

/** A release folder's touring-video files for scene A, as *Export release* writes them. */
function tourOf(scene: string, over: Partial<Record<string, string>> = {}, video?: Uint8Array): PickedFile[] {
  return [
    file(`rel/videos/${scene}.mp4`, video ?? (over.video !== undefined ? new TextEncoder().encode(over.video) : mp4(1)), 'video/mp4'),
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
    expect(v.blob.size).toBe(mp4(1).length);
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
