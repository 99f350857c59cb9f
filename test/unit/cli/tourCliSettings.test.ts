import { describe, expect, it } from 'vitest';
import { CliError } from '../../../src/cli/files.ts';
import { tourSettings } from '../../../src/cli/tourSetup.ts';
import { TOUR_DEFAULTS } from '../../../src/core/tour/settings.ts';

describe('cli tour: its settings from the command line', () => {
  it('takes numbers as given, CapNav’s defaults for what is not given', () => {
    expect(tourSettings({})).toEqual(TOUR_DEFAULTS);
    expect(tourSettings({ fps: '1', fov: '90', eye: '1.2', size: '320x240' })).toEqual({
      ...TOUR_DEFAULTS,
      fps: 1,
      fovDeg: 90,
      eyeHeightM: 1.2,
      width: 320,
      height: 240,
    });
    expect(tourSettings({ fps: '2.5', size: '800×600' })).toMatchObject({ fps: 2.5, width: 800, height: 600 });
  });

  it('refuses what is not a number, and a number out of range, naming the option', () => {
    for (const [a, message] of [
      [{ fps: 'abc' }, '--fps takes a number, not "abc"'],
      [{ fov: ' ' }, '--fov takes a number, not " "'],
      [{ eye: 'Infinity' }, '--eye takes a number, not "Infinity"'],
      [{ fps: '0' }, '--fps: the frame rate must be a number above 0 and at most 60 (got 0)'],
      [{ size: '641x480' }, '--size: the width must be an even whole number of pixels from 16 to 4096 (got 641)'],
      [{ size: '640' }, '--size takes WIDTHxHEIGHT in pixels, like 640x480, not "640"'],
    ] as const) {
      expect(() => tourSettings(a), JSON.stringify(a)).toThrow(CliError);
      expect(() => tourSettings(a)).toThrow(message);
    }
  });
});
