import { inShard, shardName, type Shard } from '../shard.ts';
import type { TourSettings } from './settings.ts';
import { FRAME_BUDGETS, type FrameBudget, type TourCut } from './types.ts';

/**
 * The touring videos of a whole release (`tour --gt <release> --scans <dir> --out <dir>`, issue 27
 * §6): every scene with a scan toured, in the release's scene order, its files in the release layout.
 * One run writes `tours.json` (a ToursDoc); shard `i/N` tours the scenes at places i, i+N, … of that
 * order and writes `shard.json` (a TourShardDoc); `merge` puts the shards' scenes back in order and
 * writes the same `tours.json`, byte for byte: nothing in it depends on the machine, the folders
 * or the time a tour took.
 */

export const TOURS_FORMAT = 'traversa-tours';
export const TOUR_SHARD_FORMAT = 'traversa-tour-shard';
/** What a run writes into its --out: tours.json whole, shard.json as a shard. */
export const TOURS_FILE = 'tours.json';
export const TOUR_SHARD_FILE = 'shard.json';

/** What makes two tours of a release the same run: its graphs and scans (by checksum), the settings. */
export interface TourRun {
  /** SHA-256 of the release's graph files (core/shard.ts filesDigest, by their path in the release). */
  graphs: string;
  /** SHA-256 of each scene's scan by name and size (none: ""); each toured scan's own SHA-256 is in its scene. */
  scans: string;
  settings: TourSettings & { up: 'y' | 'z'; frames: FrameBudget[] };
}

/** A toured scene: its files by their path in the release layout. */
export interface TouredScene {
  scene: string;
  /** The scan's files (the main one first, then the side files it names), each by its SHA-256. */
  scan: { file: string; sha256: string }[];
  video: string;
  poses: string;
  /** Each budget asked for: its frames.json and how many frames it lists. */
  frameSets?: Partial<Record<FrameBudget, { list: string; count: number }>>;
  /** Video frames, and the video's length in seconds. */
  frames: number;
  seconds: number;
  /** Legs with no walkable route: the video cuts there (the poses file lists them too). */
  cuts: TourCut[];
}

/** Why a scene of the release was not toured (not an error: the rest of the run goes on). */
export type UntouredWhy = 'no scan' | 'no nodes' | 'graph errors';
export interface UntouredScene {
  scene: string;
  why: UntouredWhy;
}

/** A scene whose tour failed to render, with the reason (the run exits 1; a shard with one does not merge). */
export interface FailedScene {
  scene: string;
  why: string;
}

export interface ToursDoc {
  format: typeof TOURS_FORMAT;
  version: 1;
  run: TourRun;
  scenes: TouredScene[];
  missing: UntouredScene[];
  failed?: FailedScene[];
}

export interface TourShardDoc {
  format: typeof TOUR_SHARD_FORMAT;
  version: 1;
  shard: Shard;
  run: TourRun;
  /** The release's scenes in its order: the merge deals them to the shards as the run did. */
  order: string[];
  scenes: TouredScene[];
  missing: UntouredScene[];
  failed: FailedScene[];
}

/** A toured scene with its keys in one order, whoever wrote it. */
export function touredScene(s: TouredScene): TouredScene {
  const sets = s.frameSets
    ? Object.fromEntries(FRAME_BUDGETS.filter((b) => s.frameSets![b]).map((b) => [b, { list: s.frameSets![b]!.list, count: s.frameSets![b]!.count }]))
    : undefined;
  return {
    scene: s.scene,
    scan: s.scan.map((f) => ({ file: f.file, sha256: f.sha256 })),
    video: s.video,
    poses: s.poses,
    ...(sets ? { frameSets: sets } : {}),
    frames: s.frames,
    seconds: s.seconds,
    cuts: s.cuts.map((c) => ({ t: c.t, from: c.from, to: c.to, why: c.why })),
  };
}

const runOf = (r: TourRun): TourRun => ({ graphs: r.graphs, scans: r.scans, settings: r.settings });

/** `tours.json` of a run: the scenes toured and not, each in the release's order. */
export function toursDocument(
  run: TourRun,
  order: readonly string[],
  scenes: readonly TouredScene[],
  missing: readonly UntouredScene[],
  failed: readonly FailedScene[] = [],
): ToursDoc {
  const place = new Map(order.map((s, i) => [s, i]));
  const byPlace = <T extends { scene: string }>(xs: readonly T[]) => [...xs].sort((a, b) => place.get(a.scene)! - place.get(b.scene)!);
  return {
    format: TOURS_FORMAT,
    version: 1,
    run: runOf(run),
    scenes: byPlace(scenes).map(touredScene),
    missing: byPlace(missing).map((m) => ({ scene: m.scene, why: m.why })),
    ...(failed.length ? { failed: byPlace(failed).map((f) => ({ scene: f.scene, why: f.why })) } : {}),
  };
}

/** A shard's `shard.json`. */
export function tourShardDocument(
  shard: Shard,
  run: TourRun,
  order: readonly string[],
  scenes: readonly TouredScene[],
  missing: readonly UntouredScene[],
  failed: readonly FailedScene[],
): TourShardDoc {
  const whole = toursDocument(run, order, scenes, missing, failed);
  return {
    format: TOUR_SHARD_FORMAT,
    version: 1,
    shard,
    run: whole.run,
    order: [...order],
    scenes: whole.scenes,
    missing: whole.missing,
    failed: whole.failed ?? [],
  };
}

/**
 * The run's `tours.json` from all its shards (checked by the caller to be one run's, each once):
 * every scene of the release accounted for by the shard it was dealt to, none failed; or what is wrong.
 */
export function mergeTourShards(shards: readonly (TourShardDoc & { file: string })[]): ToursDoc | string {
  const sorted = [...shards].sort((a, b) => a.shard.index - b.shard.index);
  const first = sorted[0]!;
  const order = first.order;
  const other = sorted.find((s) => JSON.stringify(s.order) !== JSON.stringify(order));
  if (other) return `${other.file} and ${first.file} list the release's scenes differently`;
  const failed = sorted.find((s) => s.failed.length);
  if (failed)
    return `${failed.file}: shard ${shardName(failed.shard)} failed to tour ${failed.failed.map((f) => f.scene).join(', ')} (${failed.failed[0]!.why}): run that shard again`;
  const place = new Map(order.map((s, i) => [s, i]));
  for (const s of sorted) {
    for (const { scene } of [...s.scenes, ...s.missing]) {
      const at = place.get(scene);
      if (at === undefined) return `${s.file} lists scene ${scene}, which is not in the release it toured`;
      if (!inShard(at, s.shard)) return `${s.file} lists scene ${scene}, which is not shard ${shardName(s.shard)}'s`;
    }
    const listed = new Set([...s.scenes, ...s.missing].map((x) => x.scene));
    if (listed.size !== s.scenes.length + s.missing.length) return `${s.file} lists a scene twice`;
    const lost = order.filter((scene, i) => inShard(i, s.shard) && !listed.has(scene));
    if (lost.length)
      return `${s.file} does not account for scene${lost.length === 1 ? '' : 's'} ${lost.slice(0, 5).join(', ')}${lost.length > 5 ? ', …' : ''} of its shard`;
  }
  return toursDocument(
    first.run,
    order,
    sorted.flatMap((s) => s.scenes),
    sorted.flatMap((s) => s.missing),
  );
}
