/**
 * A ramp on the route: the floor rising or falling gently — less steeply than a step (3 mm per cm,
 * steps.ts) and more than 1 mm per metre, so a level floor's float noise is no slope — by at least
 * 5 cm in all. Its rise is the sum of those gentle changes (a sill on the way is a step, not part of
 * it), its run the plan length over which they happen.
 */

const STEEP_PER_CM = 0.003;
const LEVEL_PER_CM = 0.00001;
const MIN_RISE_M = 0.05;

export interface RampFinding {
  riseM: number;
  runM: number;
  /** Distance along the route (plan) where half the rise is climbed. */
  midS: number;
}

/** The ramp on a floor profile (heights every centimetre at distances `s`), or null. */
export function findRamp(points: readonly { s: number }[], floor: readonly number[]): RampFinding | null {
  const gentle: { s: number; rise: number }[] = [];
  let runM = 0;
  for (let i = 1; i < floor.length; i++) {
    const d = floor[i]! - floor[i - 1]!;
    if (Math.abs(d) <= LEVEL_PER_CM || Math.abs(d) > STEEP_PER_CM) continue;
    gentle.push({ s: points[i]!.s, rise: d });
    runM += points[i]!.s - points[i - 1]!.s;
  }
  const rise = gentle.reduce((n, g) => n + g.rise, 0);
  if (Math.abs(rise) < MIN_RISE_M) return null;
  let climbed = 0;
  const mid = gentle.find((g) => Math.abs((climbed += g.rise)) >= Math.abs(rise) / 2)!;
  return { riseM: round3(Math.abs(rise)), runM: round3(runM), midS: mid.s };
}

const round3 = (v: number) => Math.round(v * 1000) / 1000 + 0;
