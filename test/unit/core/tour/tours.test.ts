import { describe, expect, it } from 'vitest';
import { mergeTourShards, toursDocument, tourShardDocument, type TouredScene, type TourRun } from '../../../../src/core/tour/tours.ts';
import { TOUR_DEFAULTS } from '../../../../src/core/tour/settings.ts';

// core/tour/tours.ts: shards of a release's tour merge into the tours.json one run writes.

const run: TourRun = { graphs: 'g', scans: 's', settings: { ...TOUR_DEFAULTS, up: 'y', frames: ['16'] } };
const order = ['A', 'B', 'C', 'D', 'E'];
const toured = (scene: string): TouredScene => ({
  // Keys in another order than the writer's: the documents put them in one order.
  cuts: [{ why: 'stairs', to: 'n2', from: 'n1', t: 3 }],
  seconds: 5,
  frames: 10,
  frameSets: { '16': { count: 10, list: `frames/${scene}/16/frames.json` } },
  poses: `videos/${scene}.poses.json`,
  video: `videos/${scene}.mp4`,
  scan: [{ sha256: 'x', file: `${scene}.glb` }],
  scene,
});
const results = { A: toured('A'), B: null, C: toured('C'), D: toured('D'), E: null } as const;
const missingOf = (scenes: string[]) => scenes.filter((s) => results[s as keyof typeof results] === null).map((scene) => ({ scene, why: 'no scan' as const }));
const touredOf = (scenes: string[]) => scenes.map((s) => results[s as keyof typeof results]).filter((t): t is TouredScene => t !== null);

function shards(n: number) {
  return Array.from({ length: n }, (_, index) => {
    const mine = order.filter((_, i) => i % n === index);
    return { ...tourShardDocument({ index, count: n }, run, order, touredOf(mine), missingOf(mine), []), file: `shard${index}` };
  });
}

describe('tours.json from shards', () => {
  const whole = JSON.stringify(toursDocument(run, order, touredOf([...order].reverse()), missingOf(order)));

  it('1, 2, 3 and 7 shards (more than scenes) merge into what one run writes, scenes in the release order', () => {
    for (const n of [1, 2, 3, 7]) expect(JSON.stringify(mergeTourShards(shards(n).reverse())), `${n} shards`).toBe(whole);
    const doc = JSON.parse(whole) as { scenes: { scene: string }[]; missing: { scene: string }[] };
    expect(doc.scenes.map((s) => s.scene)).toEqual(['A', 'C', 'D']);
    expect(doc.missing.map((s) => s.scene)).toEqual(['B', 'E']);
    expect(Object.keys(doc.scenes[0]!)).toEqual(['scene', 'scan', 'video', 'poses', 'frameSets', 'frames', 'seconds', 'cuts']);
  });

  it('refuses a shard that failed a scene, lost one, listed another shard’s or one twice', () => {
    const failed = shards(2);
    failed[1]!.failed = [{ scene: 'B', why: 'the tour could not be rendered: out of memory' }];
    expect(mergeTourShards(failed)).toMatch(/^shard1: shard 1\/2 failed to tour B \(the tour could not be rendered: out of memory\): run that shard again/);
    const lost = shards(2);
    lost[0]!.scenes = lost[0]!.scenes.slice(1);
    expect(mergeTourShards(lost)).toBe('shard0 does not account for scene A of its shard');
    const foreign = shards(2);
    foreign[0]!.scenes.push(toured('D'));
    expect(mergeTourShards(foreign)).toBe("shard0 lists scene D, which is not shard 0/2's");
    const twice = shards(2);
    twice[0]!.scenes.push(toured('A'));
    expect(mergeTourShards(twice)).toBe('shard0 lists a scene twice');
    const unknown = shards(2);
    unknown[0]!.missing.push({ scene: 'Z', why: 'no scan' });
    expect(mergeTourShards(unknown)).toBe('shard0 lists scene Z, which is not in the release it toured');
  });

  it('a run with a failed scene lists it in tours.json; one without has no "failed"', () => {
    expect(toursDocument(run, order, [], [], [{ scene: 'C', why: 'x' }]).failed).toEqual([{ scene: 'C', why: 'x' }]);
    expect('failed' in JSON.parse(whole)).toBe(false);
  });
});
