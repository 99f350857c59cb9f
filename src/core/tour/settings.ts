/**
 * How a touring video is recorded. The defaults are CapNav's: the camera 1.5 m above the floor,
 * a 75° (vertical) field of view, 2 frames per second, 640 × 480, walking at 1 m/s.
 */
export interface TourSettings {
  fps: number;
  fovDeg: number;
  eyeHeightM: number;
  width: number;
  height: number;
  paceMps?: number;
  yawRateDegPerS?: number;
  maxViewDistanceM?: number;
}

export const TOUR_DEFAULTS: TourSettings = { fps: 2, fovDeg: 75, eyeHeightM: 1.5, width: 640, height: 480, paceMps: 1 };

/** What is wrong with the settings, in words (one problem), or null when they can be recorded. */
export function settingsProblem(s: TourSettings): string | null {
  const num = (v: number, lo: number, hi: number) => Number.isFinite(v) && v > lo && v <= hi;
  if (!num(s.fps, 0, 60)) return `the frame rate must be a number above 0 and at most 60 (got ${s.fps})`;
  if (!num(s.fovDeg, 0, 170)) return `the field of view must be above 0° and at most 170° (got ${s.fovDeg})`;
  if (!num(s.eyeHeightM, 0, 10)) return `the eye height must be above 0 and at most 10 m (got ${s.eyeHeightM})`;
  for (const [k, v] of [
    ['width', s.width],
    ['height', s.height],
  ] as const) {
    if (!(Number.isInteger(v) && v >= 16 && v <= 4096 && v % 2 === 0)) return `the ${k} must be an even whole number of pixels from 16 to 4096 (got ${v})`;
  }
  if (s.paceMps !== undefined && !num(s.paceMps, 0, 10)) return `the walking pace must be above 0 and at most 10 m/s (got ${s.paceMps})`;
  return null;
}

/** "640x480" → [640, 480], or null. */
export function parseSize(text: string): [number, number] | null {
  const m = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/i.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}
