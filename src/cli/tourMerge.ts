import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { pathPartProblem } from '../core/pathNames.ts';
import { shardSetProblem } from '../core/shard.ts';
import { mergeTourShards, TOUR_SHARD_FORMAT, TOURS_FILE, type TourShardDoc } from '../core/tour/tours.ts';
import { FRAME_BUDGETS, type FrameBudget } from '../core/tour/types.ts';
import { tourPath } from '../formats/capnav/tourFiles.ts';
import { CliError, copyOutput, InputError, isRegularFile, makeFolder, writeOutput } from './files.ts';
import { readFrameList } from './frameSets.ts';
import type { ShardOutput } from './shardFiles.ts';

/**
 * `merge --out <dir> <tour shard>...`: the shards of `tour --gt … --scans … --shard i/N` put together
 * — every shard's videos, poses and frame sets copied into --out in the release layout, and the
 * tours.json one run writes (core/tour/tours.ts mergeTourShards), byte for byte.
 */

const finite = z.number().finite();
const Scene = z.object({
  scene: z.string(),
  scan: z.array(z.object({ file: z.string(), sha256: z.string() })),
  video: z.string(),
  poses: z.string(),
  frameSets: z.partialRecord(z.enum(FRAME_BUDGETS), z.object({ list: z.string(), count: z.number().int().nonnegative() })).optional(),
  frames: z.number().int().nonnegative(),
  seconds: finite.nonnegative(),
  cuts: z.array(z.object({ t: finite, from: z.string(), to: z.string(), why: z.string() })),
});
const TourShardSchema = z.object({
  format: z.literal(TOUR_SHARD_FORMAT),
  version: z.literal(1),
  shard: z.object({ index: z.number().int().nonnegative(), count: z.number().int().positive() }),
  run: z.object({ graphs: z.string(), scans: z.string(), settings: z.object({ frames: z.array(z.enum(FRAME_BUDGETS)) }).passthrough() }),
  order: z.array(z.string()),
  scenes: z.array(Scene),
  missing: z.array(z.object({ scene: z.string(), why: z.enum(['no scan', 'no nodes', 'graph errors']) })),
  failed: z.array(z.object({ scene: z.string(), why: z.string() })),
});

/** Where a scene's files must be, and nowhere else: a shard's file cannot send the merge outside its folders. */
function checkPlaces(file: string, s: z.infer<typeof Scene>): void {
  const bad = pathPartProblem(s.scene);
  const wrong =
    bad !== null
      ? `the scene id ${bad}`
      : ![tourPath.video(s.scene, 'video/mp4'), tourPath.video(s.scene, 'video/webm')].includes(s.video)
        ? `its video is ${JSON.stringify(s.video)}`
        : s.poses !== tourPath.poses(s.scene)
          ? `its poses are ${JSON.stringify(s.poses)}`
          : Object.entries(s.frameSets ?? {}).find(([b, set]) => set.list !== tourPath.frameList(s.scene, b as FrameBudget))
            ? 'a frame list is not frames/<SCENE>/<budget>/frames.json'
            : null;
  if (wrong) throw new InputError(`${file}: scene ${JSON.stringify(s.scene)}: ${wrong} (not a shard written by "tour --shard")`);
}

const samePlace = (a: string, b: string) => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
};

export function mergeTourShardOutputs(shards: readonly ShardOutput[], out: string | undefined): { text: string; code: number } {
  if (!out) throw new CliError('merging tour shards needs --out <dir> (the videos, frames and tours.json of the whole run)');
  const docs = shards.map((s) => {
    const parsed = TourShardSchema.safeParse(s.doc);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new InputError(`${s.file}: at /${i.path.map(String).join('/')}: ${i.message} (not a shard written by "tour --shard")`);
    }
    for (const scene of parsed.data.scenes) checkPlaces(s.file, scene);
    return { ...(s.doc as TourShardDoc), file: s.file };
  });
  const problem = shardSetProblem(docs);
  if (problem) throw new InputError(problem);
  const merged = mergeTourShards(docs);
  if (typeof merged === 'string') throw new InputError(merged);
  makeFolder(out);
  let copied = 0;
  for (const d of docs) {
    const root = dirname(d.file);
    const copy = (path: string) => {
      const from = join(root, path),
        to = join(out, path);
      if (!isRegularFile(from)) throw new InputError(`${from}: missing: the shard lists it (${d.file})`);
      if (!samePlace(from, to)) copyOutput(from, to); // a block at a time: a video may be large
      copied++;
    };
    for (const s of d.scenes) {
      copy(s.video);
      copy(s.poses);
      for (const [budget, set] of Object.entries(s.frameSets ?? {}) as [FrameBudget, { list: string; count: number }][]) {
        const frames = readFrameList(root, s.scene, budget);
        if (!frames || frames.length !== set.count) throw new InputError(`${join(root, set.list)}: not the ${set.count} frames the shard lists (${d.file})`);
        for (const f of frames) copy(tourPath.frame(s.scene, budget, f.file));
        copy(set.list);
      }
    }
  }
  const file = join(out, TOURS_FILE);
  writeOutput(file, JSON.stringify(merged, null, 2) + '\n');
  return {
    text: `merged the ${docs.length} shards of ${docs[0]!.order.length} scenes (${merged.scenes.length} toured, ${merged.missing.length} not): copied ${copied} files into ${out}, wrote ${file}`,
    code: 0,
  };
}
