import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SampledFramesSchema, TourPosesSchema } from '../../src/core/tour/types.ts';
import { REPO, traversaWith } from '../support/cli.ts';

// Issue 27 §6 for `tour`: every scene of a release toured in one Chromium (`tour --gt --scans --out`),
// or in shards (`--shard i/N`) that `merge` puts together into the same tours.json, byte for byte,
// with the same poses and frame sets. A release of four scenes made from the sample house: S1 and
// S2 with a scan (a few nodes each, so the tours are short), S3 without one, S4 with no nodes.
// Dealt to two shards, 0/2 tours S1 (S3 not), 1/2 tours S2 (S4 not).

const HOUSE = join(REPO, 'scenes/sample-house');
const dir = mkdtempSync(join(tmpdir(), 'traversa-tour-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => traversaWith({ limitMs: 300_000 }, ...args);
const SETTINGS = ['--fps', '1', '--size', '160x120', '--frames', '16,1fps'];
const gt = join(dir, 'release'),
  scans = join(dir, 'scans');
const read = (...p: string[]) => readFileSync(join(dir, ...p));
const json = (...p: string[]) => JSON.parse(read(...p).toString('utf8')) as Record<string, unknown>;

function release(): void {
  const graph = JSON.parse(readFileSync(join(HOUSE, 'graphs/sample-house-graph.json'), 'utf8')) as {
    nodes: { id: string }[];
    edges: { from: string; to: string }[];
  };
  const first = (n: number) => {
    const keep = new Set(graph.nodes.slice(0, n).map((x) => x.id));
    return { nodes: graph.nodes.filter((x) => keep.has(x.id)), edges: graph.edges.filter((e) => keep.has(e.from) && keep.has(e.to)) };
  };
  mkdirSync(join(gt, 'graphs'), { recursive: true });
  mkdirSync(scans);
  cpSync(join(HOUSE, 'agent_profile.json'), join(gt, 'agent_profile.json'));
  for (const [scene, g] of [
    ['S1', first(5)],
    ['S2', first(3)],
    ['S3', graph],
    ['S4', { nodes: [], edges: [] }],
  ] as const)
    writeFileSync(join(gt, 'graphs', `${scene}-graph.json`), JSON.stringify(g));
  for (const scene of ['S1', 'S2', 'S4']) cpSync(join(HOUSE, 'house.glb'), join(scans, `${scene}.glb`));
}

async function ok(name: string, ...args: string[]) {
  const r = await run(...args);
  expect(r.code, `${name}: ${r.stderr}`).toBe(0);
  return r;
}

describe('tour of a release, whole and in shards', () => {
  beforeAll(async () => {
    release();
    await ok('whole', 'tour', '--gt', gt, '--scans', scans, '--out', join(dir, 'whole'), ...SETTINGS);
    for (const i of [0, 1]) await ok(`shard ${i}/2`, 'tour', '--gt', gt, '--scans', scans, '--out', join(dir, `shard${i}`), '--shard', `${i}/2`, ...SETTINGS);
    // Merged in any order: the order of the arguments is not the run's.
    await ok('merge', 'merge', '--out', join(dir, 'merged'), join(dir, 'shard1'), join(dir, 'shard0'));
  }, 600_000);

  it('writes tours.json: the toured scenes and the others, in the release order; no shard.json', () => {
    expect(existsSync(join(dir, 'whole', 'shard.json'))).toBe(false);
    const tours = json('whole', 'tours.json') as { scenes: { scene: string; video: string; frames: number; frameSets: object }[]; missing: unknown };
    expect(tours).toMatchObject({
      format: 'traversa-tours',
      version: 1,
      run: { settings: { fps: 1, width: 160, height: 120, up: 'y', frames: ['16', '1fps'] } },
    });
    expect(tours.scenes.map((s) => s.scene)).toEqual(['S1', 'S2']);
    expect(tours.missing).toEqual([
      { scene: 'S3', why: 'no scan' },
      { scene: 'S4', why: 'no nodes' },
    ]);
    for (const s of tours.scenes) {
      expect(s.video).toMatch(new RegExp(`^videos/${s.scene}\\.(mp4|webm)$`));
      const poses = TourPosesSchema.parse(json('whole', 'videos', `${s.scene}.poses.json`));
      expect(poses.frames).toHaveLength(s.frames);
      expect(read('whole', s.video).length).toBeGreaterThan(1000);
      expect(Object.keys(s.frameSets)).toEqual(['16', '1fps']);
    }
  });

  it('each shard tours its scenes (i, i+N, … of the release order) and lists the others', () => {
    expect(json('shard0', 'shard.json')).toMatchObject({
      format: 'traversa-tour-shard',
      shard: { index: 0, count: 2 },
      scenes: [{ scene: 'S1' }],
      missing: [{ scene: 'S3', why: 'no scan' }],
      failed: [],
    });
    expect(json('shard1', 'shard.json')).toMatchObject({ scenes: [{ scene: 'S2' }], missing: [{ scene: 'S4', why: 'no nodes' }] });
    expect(existsSync(join(dir, 'shard0', 'videos', 'S2.poses.json'))).toBe(false);
  });

  it('merged: tours.json byte for byte, the same poses and frame sets (JPEGs too); every video there', () => {
    expect(read('merged', 'tours.json').toString('utf8')).toBe(read('whole', 'tours.json').toString('utf8'));
    const tours = json('whole', 'tours.json') as { scenes: { scene: string; video: string; poses: string }[] };
    for (const s of tours.scenes) {
      expect(existsSync(join(dir, 'merged', s.video)), s.video).toBe(true);
      expect(read('merged', s.poses).equals(read('whole', s.poses)), s.poses).toBe(true);
      for (const budget of ['16', '1fps']) {
        const list = SampledFramesSchema.parse(json('whole', 'frames', s.scene, budget, 'frames.json'));
        expect(read('merged', 'frames', s.scene, budget, 'frames.json').equals(read('whole', 'frames', s.scene, budget, 'frames.json'))).toBe(true);
        expect(list.length).toBeGreaterThan(0);
        for (const f of list) {
          const jpeg = read('merged', 'frames', s.scene, budget, f.file);
          expect(jpeg.subarray(0, 3).toString('hex')).toBe('ffd8ff');
          expect(jpeg.equals(read('whole', 'frames', s.scene, budget, f.file)), `${s.scene}/${budget}/${f.file}`).toBe(true);
        }
      }
    }
    // The 16 set of a 27-frame tour: the studio's sampling (first and last frame kept, evenly between).
    const s2 = SampledFramesSchema.parse(json('whole', 'frames', 'S2', '16', 'frames.json'));
    const count = (json('whole', 'videos', 'S2.poses.json') as { frames: unknown[] }).frames.length;
    expect(s2[0]).toEqual({ file: '000.jpg', index: 0, t: 0 });
    expect(s2.at(-1)!.index).toBe(count - 1);
  });

  it('refuses a bad --shard, --frames or form, a shard missing or of another run, a shard file pointing elsewhere', async () => {
    for (const bad of ['2/2', '1', '0/0', 'a/b']) {
      const r = await run('tour', '--gt', gt, '--scans', scans, '--out', join(dir, 'x'), '--shard', bad);
      expect([r.code, r.stderr], bad).toEqual([2, expect.stringContaining('--shard')]);
    }
    const frames = await run('tour', '--gt', gt, '--scans', scans, '--out', join(dir, 'x'), '--frames', '16,8');
    expect([frames.code, frames.stderr]).toEqual([2, expect.stringContaining('--frames takes a comma list of 16, 32, 64, 1fps')]);
    const both = await run('tour', '--gt', gt, '--scans', scans, '--mesh', join(scans, 'S1.glb'), '--out', join(dir, 'x'));
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('not both')]);
    const shardOfOne = await run(
      'tour',
      '--mesh',
      join(scans, 'S1.glb'),
      '--graph',
      join(gt, 'graphs', 'S1-graph.json'),
      '--out',
      join(dir, 'x.mp4'),
      '--shard',
      '0/2',
    );
    expect([shardOfOne.code, shardOfOne.stderr]).toEqual([2, expect.stringContaining('--shard is for the tour of a release')]);

    const missing = await run('merge', '--out', join(dir, 'm2'), join(dir, 'shard0'));
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('shard 1/2 missing')]);
    const other = join(dir, 'other');
    cpSync(join(dir, 'shard1'), other, { recursive: true });
    const doc = json('other', 'shard.json') as { run: { settings: { fps: number } }; scenes: { video: string }[] };
    doc.run.settings.fps = 2;
    writeFileSync(join(other, 'shard.json'), JSON.stringify(doc));
    const mixed = await run('merge', '--out', join(dir, 'm2'), join(dir, 'shard0'), other);
    expect([mixed.code, mixed.stderr]).toEqual([1, expect.stringContaining('are shards of different runs (they differ in settings)')]);
    const elsewhere = json('shard1', 'shard.json') as { scenes: { video: string }[] };
    elsewhere.scenes[0]!.video = '../../escape.mp4';
    writeFileSync(join(other, 'shard.json'), JSON.stringify(elsewhere));
    const escape = await run('merge', '--out', join(dir, 'm2'), join(dir, 'shard0'), other);
    expect([escape.code, escape.stderr]).toEqual([1, expect.stringContaining('its video is "../../escape.mp4"')]);
    expect(existsSync(join(dir, 'm2'))).toBe(false);
  }, 120_000);
});
