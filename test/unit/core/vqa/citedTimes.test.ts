import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citedTimes, formatVideoTime, playWindow } from '../../../../src/core/vqa/citedTimes.ts';
import { CAPNAV_DIR, sharedAvailable } from '../../../support/shared.ts';

const spans = (text: string) => citedTimes(text).map((c) => [c.from, c.to]);

describe('the video times a reason cites', () => {
  it('reads the forms the CapNav generator wrote: m:ss and mm:ss, ranges with a hyphen, a dash or "to", single times', () => {
    expect(spans('A staircase is visible connecting the two floors (0:05-0:07, 1:24-1:26), providing a path.')).toEqual([
      [5, 7],
      [84, 86],
    ]);
    expect(spans('The bathroom is shown at 1:10-1:11. The foyer (0:58) leads on.')).toEqual([
      [70, 71],
      [58, 58],
    ]);
    expect(spans('through the hall (00:54-00:56) and the landing (01:02 - 01:05)')).toEqual([
      [54, 56],
      [62, 65],
    ]);
    expect(spans('it proceeds up the stairs from 02:07 to 02:12 to the top floor')).toEqual([[127, 132]]);
    expect(spans('the door 0:54–0:56, the sofa 0:57—0:59')).toEqual([
      [54, 56],
      [57, 59],
    ]);
    expect(spans('at 01:02 the kitchen')).toEqual([[62, 62]]);
    expect(citedTimes('at 01:02 the kitchen')[0]).toMatchObject({ text: '01:02', point: true, index: 3 });
  });

  it('keeps a single time that "to" joins to a place, not to a time ("at 00:58 to the terrace")', () => {
    expect(citedTimes('through open doors at 00:58 to the outdoor terrace')).toEqual([
      { text: '00:58', index: 22, from: 58, to: 58, point: true, reversed: false },
    ]);
  });

  // The generator cited a stretch the route walks against the tour's direction end first ("1:52-1:48",
  // "(3:29-3:25, reverse direction)"): 18 times in the release.
  it('puts a range written end first in order and says it was reversed', () => {
    const [c] = citedTimes('down to the foyer (04:27 to 02:07, then 02:07-02:10)');
    expect(c).toMatchObject({ from: 127, to: 267, reversed: true, point: false, text: '04:27 to 02:07' });
  });

  it('reads hours and decimal seconds', () => {
    expect(spans('late in the tour, 1:02:03-1:02:09')).toEqual([[3723, 3729]]);
    expect(spans('at 0:54.5')).toEqual([[54.5, 54.5]]);
    // A full stop ending the sentence is not a decimal point.
    expect(spans('seen at 00:58. Then the hall.')).toEqual([[58, 58]]);
  });

  it('does not take clock times, ratios, impossible seconds or pieces of longer numbers for video times', () => {
    expect(citedTimes('the meeting at 3:15 pm, or 10:30am, or 7:05 a.m.')).toEqual([]);
    expect(citedTimes('open from 3:15 to 3:45 PM')).toEqual([]);
    expect(citedTimes('a 16:9 screen and a 4:3 photo')).toEqual([]);
    expect(citedTimes('at 1:75 and 12:34:56:78 and 1.2:30 and 1234:56')).toEqual([]);
    expect(citedTimes('no times here, just 12 steps and 0.70 m')).toEqual([]);
  });

  it('plays a range as written and a single time for one second', () => {
    expect(playWindow(citedTimes('(0:54-0:56)')[0]!)).toEqual({ from: 54, to: 56 });
    expect(playWindow(citedTimes('(0:58)')[0]!)).toEqual({ from: 58, to: 59 });
  });

  it('writes video times as mm:ss, h:mm:ss from an hour on', () => {
    expect(formatVideoTime(0)).toBe('00:00');
    expect(formatVideoTime(54.9)).toBe('00:54');
    expect(formatVideoTime(127)).toBe('02:07');
    expect(formatVideoTime(3723)).toBe('1:02:03');
    // To the tenth, as the tour panel writes its frame times (2 fps: half seconds), still rounded down.
    expect(formatVideoTime(3.5, 1)).toBe('00:03.5');
    expect(formatVideoTime(0, 1)).toBe('00:00.0');
    expect(formatVideoTime(59.99, 1)).toBe('00:59.9');
    expect(formatVideoTime(3600.5, 1)).toBe('1:00:00.5');
  });
});

describe('on the released CapNav reasons', () => {
  const present = sharedAvailable(CAPNAV_DIR, 'reading the times cited by the released reasons');
  it.skipIf(!present)('every reason cites at least one time, and every m:ss written in a reason is read exactly once', () => {
    const dir = join(CAPNAV_DIR, 'qa');
    let reasons = 0,
      citing = 0,
      citations = 0,
      ranges = 0,
      reversed = 0,
      endpoints = 0,
      written = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('_QA.json'))) {
      const raw = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
      const list = (Array.isArray(raw) ? raw : (raw as { questions: unknown[] }).questions) as { reason?: string }[];
      for (const q of list) {
        const reason = q.reason ?? '';
        reasons++;
        const cited = citedTimes(reason);
        if (cited.length) citing++;
        citations += cited.length;
        ranges += cited.filter((c) => !c.point).length;
        reversed += cited.filter((c) => c.reversed).length;
        endpoints += cited.reduce((n, c) => n + (c.point ? 1 : 2), 0);
        written += (reason.match(/\d{1,2}:\d\d/g) ?? []).length;
        for (const c of cited) expect(c.from).toBeLessThan(20 * 60); // tours are minutes long
      }
    }
    console.log(
      `cited times in the released reasons: ${citing}/${reasons} reasons cite a time; ${citations} citations (${ranges} ranges, ${reversed} written backwards), ${endpoints} of ${written} m:ss written`,
    );
    expect(reasons).toBeGreaterThan(300);
    expect(citing).toBe(reasons);
    expect(endpoints).toBe(written);
    expect(reversed).toBe(18);
  });
});
