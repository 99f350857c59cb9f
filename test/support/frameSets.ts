import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameBudget, SampledFrame } from '../../src/core/tour/types.ts';

/** An 8×8 grey baseline JPEG (made once with ffmpeg); `tinyJpeg` makes each copy distinct. */
const GREY_8X8 = Buffer.from(
  '/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAg+Pkk+SVVVVVVVVWRdZGhoaGRkZGRoaGhwcHCDg4NwcHBoaHBwfHyDg4+Tj4eHg4eTk5ubm7q6srLZ2eD/////' +
    'xABKAAEAAAAAAAAAAAAAAAAAAAAAAQEAAAAAAAAAAAAAAAAAAAAAEAEAAAAAAAAAAAAAAAAAAAAAEQEAAAAAAAAAAAAAAAAAAAAA/8AAEQgACAAIAwEiAAIRAAMRAP/aAAwDAQACEQMRAD8AAA//2Q==',
  'base64',
);

/** A valid JPEG whose bytes carry `label` in a comment segment (so frames of different scenes differ). */
export function tinyJpeg(label: string): Buffer {
  const text = Buffer.from(label, 'utf8');
  const segment = Buffer.alloc(4 + text.length);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(2 + text.length, 2);
  text.copy(segment, 4);
  return Buffer.concat([GREY_8X8.subarray(0, 2), segment, GREY_8X8.subarray(2)]);
}

/**
 * A scene's frame set in the release layout, `frames/<SCENE>/<budget>/NNN.jpg` and `frames.json`,
 * `count` frames half a second apart (a 2 fps tour, every frame taken). Returns the frame list.
 */
export function writeFrameSet(releaseDir: string, scene: string, budget: FrameBudget, count: number): SampledFrame[] {
  const dir = join(releaseDir, 'frames', scene, budget);
  mkdirSync(dir, { recursive: true });
  const frames: SampledFrame[] = [];
  for (let i = 0; i < count; i++) {
    const file = `${String(i).padStart(3, '0')}.jpg`;
    writeFileSync(join(dir, file), tinyJpeg(`${scene} ${budget} frame ${i}`));
    frames.push({ file, index: i, t: i * 0.5 });
  }
  writeFileSync(join(dir, 'frames.json'), JSON.stringify(frames, null, 2));
  return frames;
}
