import { describe, expect, it } from 'vitest';
import { doubtMargin, doubtOfMeasure, turningDoubt } from '../../../src/core/doubt.ts';
import { maxTurningLengthM } from '../../../src/core/rules.ts';

describe('doubt: when the scan cannot settle a label', () => {
  it('a corner whose legs, moved by a width’s noise, would turn the footprint the other way is never answered outright', () => {
    const noise = 0.0009;
    const d = doubtMargin('width', noise);
    let flips = 0;
    // Corners of every shape a house has, footprints of every narrow side an agent has, limits round the turn.
    for (const a of [0.7, 0.8, 0.9, 1.2])
      for (const b of [0.7, 0.8, 1.0, 1.5])
        for (const w of [0.3, 0.5, 0.6]) {
          const narrower = maxTurningLengthM(a - d, b - d, w),
            wider = maxTurningLengthM(a + d, b + d, w);
          for (let limit = narrower - 0.01; limit <= wider + 0.01; limit += 0.002) {
            if (narrower >= limit === wider >= limit) continue;
            flips++;
            expect(turningDoubt(a, b, w, limit, noise), `${a} × ${b} m corner, ${w} m wide, against ${limit.toFixed(3)} m`).not.toBeNull();
          }
        }
    expect(flips).toBeGreaterThan(100);
    // The L-corner of the scan-like house, read 0.795 m driven one way and 0.796 m the other: the same verdict.
    expect(turningDoubt(0.795, 0.795, 0.54, 1.14, noise, 0.02)).toMatch(/^Longest footprint the corner turns 1\.169 m: within the scan's noise/);
    expect(turningDoubt(0.796, 0.796, 0.54, 1.14, noise, 0.02)).toMatch(/^Longest footprint the corner turns 1\.171 m: within the scan's noise/);
    // Far from the limit it is settled.
    expect(turningDoubt(0.9, 0.9, 0.54, 1.14, noise, 0.02)).toBeNull();
  });

  it('words a doubt with its figures and settles what lies outside the noise', () => {
    expect(doubtOfMeasure('sill', 0.0104, 0.014, 0.001)).toBe(
      "Sill 0.010 m: within the scan's noise (±4 mm) of the 0.014 m the agent can cross — the scan cannot tell; check the sill",
    );
    expect(doubtOfMeasure('sill', 0.0095, 0.014, 0.001)).toBeNull();
    // A generated house has no noise: only an exact tie is in doubt.
    expect(doubtOfMeasure('width', 0.8, 0.8, 0)).not.toBeNull();
    expect(doubtOfMeasure('width', 0.801, 0.8, 0)).toBeNull();
  });
});
