import type { TourPoses } from '../../src/core/tour/types.ts';
import type { PickedFile } from '../../src/ui/pickedFiles.ts';

/** Touring-video files of a release as a folder picker gives them, for the studio's import. */
export const poses: TourPoses = {
  fps: 2,
  fovDeg: 75,
  eyeHeightM: 1.5,
  width: 64,
  height: 48,
  up: 'y',
  frames: [
    { t: 0, position: { x: 0, y: 1.5, z: 0 }, yawDeg: 0, pitchDeg: 0 },
    { t: 0.5, position: { x: 1, y: 1.5, z: 0 }, yawDeg: 10, pitchDeg: 0 },
  ],
  nodesInView: [{ node: 'node_1', intervals: [[0, 0.5]] }],
};
export const file = (path: string, content: string | Uint8Array, type = ''): PickedFile => ({
  path,
  file: new File([content as BlobPart], path.split('/').pop()!, { type }),
});
export const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);

/** A minimal MP4's top-level boxes: ftyp, then moov holding an mvhd that says the video lasts `seconds`. */
export function mp4(seconds: number): Uint8Array {
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
export function tourOf(scene: string, over: Partial<Record<string, string>> = {}, video?: Uint8Array): PickedFile[] {
  return [
    file(`rel/videos/${scene}.mp4`, video ?? (over.video !== undefined ? new TextEncoder().encode(over.video) : mp4(1)), 'video/mp4'),
    file(`rel/videos/${scene}.poses.json`, over.poses ?? JSON.stringify(poses)),
    file(`rel/frames/${scene}/16/000.jpg`, jpeg),
    file(`rel/frames/${scene}/16/001.jpg`, jpeg),
    file(
      `rel/frames/${scene}/16/frames.json`,
      over.frames ??
        JSON.stringify([
          { file: '000.jpg', index: 0, t: 0 },
          { file: '001.jpg', index: 1, t: 0.5 },
        ]),
    ),
  ];
}
