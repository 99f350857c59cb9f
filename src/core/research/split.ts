import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { seededRandom } from '../scoring/bootstrap.ts';
import { tasksJsonlPieces, type AugmentedTask } from './augment.ts';

/**
 * Train/validation/test splits without leakage (issue 27 §2): by scene — a scene's tasks, and so
 * its frames and questions, are in one split only — chosen so that each split's mix of agents,
 * answers and obstacle types is as close as the scenes allow to the whole's.
 */
export const SPLITS = ['train', 'val', 'test'] as const;
export type SplitName = (typeof SPLITS)[number];

export interface SplitPlan {
  seed: number;
  ratios: Record<SplitName, number>;
  /** Scene → its split. */
  sceneSplit: Record<string, SplitName>;
  /** Per split: its scenes, how many tasks, and the tasks by stratum (`AGENT/yes` or `AGENT/no:<obstacle>`). */
  splits: Record<SplitName, { scenes: string[]; tasks: number; strata: Record<string, number> }>;
}

/** The stratum a task counts in: its agent, its answer and, when infeasible, what blocks it first. */
export const stratumOf = (t: AugmentedTask): string => `${t.agent}/${t.feasible ? 'yes' : `no:${t.blocking?.categories[0] ?? 'unlabelled'}`}`;

/**
 * Assign scenes to splits: scenes in a seeded order, larger size classes first, each to the split whose strata
 * it brings closest to the split's share of the whole (the L1 gap, weighted by the split's ratio).
 * Deterministic for a seed; every split with a share above 0 gets a scene when there are enough.
 */
export function planSplits(tasks: readonly AugmentedTask[], ratios: Record<SplitName, number>, seed = 1): SplitPlan {
  const total = SPLITS.reduce((s, k) => s + ratios[k], 0);
  if (!(total > 0) || SPLITS.some((k) => !(ratios[k] >= 0))) throw new Error('split ratios must be non-negative and not all 0');
  const share = Object.fromEntries(SPLITS.map((k) => [k, ratios[k] / total])) as Record<SplitName, number>;
  const byScene = new Map<string, Map<string, number>>();
  const whole = new Map<string, number>();
  for (const t of tasks) {
    const s = stratumOf(t);
    let m = byScene.get(t.scene);
    if (!m) byScene.set(t.scene, (m = new Map()));
    m.set(s, (m.get(s) ?? 0) + 1);
    whole.set(s, (whole.get(s) ?? 0) + 1);
  }
  const random = seededRandom(seed);
  const size = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  // A seeded order (another seed, another valid split); within it, the larger scenes first by size class, so the last
  // choices, which balance the strata, are made with small scenes.
  const sizeClass = (id: string) => Math.floor(Math.log2(size(byScene.get(id)!)));
  const order = [...byScene.keys()]
    .map((id) => ({ id, key: random(), cls: sizeClass(id) }))
    .sort((a, b) => b.cls - a.cls || a.key - b.key)
    .map((x) => x.id);
  const held = Object.fromEntries(SPLITS.map((k) => [k, new Map<string, number>()])) as Record<SplitName, Map<string, number>>;
  const scenes = Object.fromEntries(SPLITS.map((k) => [k, [] as string[]])) as Record<SplitName, string[]>;
  const open = SPLITS.filter((k) => share[k] > 0);
  const gap = (k: SplitName, add?: Map<string, number>) => {
    let g = 0;
    for (const [s, n] of whole) g += Math.abs((held[k].get(s) ?? 0) + (add?.get(s) ?? 0) - n * share[k]);
    return g;
  };
  order.forEach((id, i) => {
    const m = byScene.get(id)!;
    // The first scenes go one to each split with a share, so none is left empty by a few large scenes.
    const empty = open.filter((k) => scenes[k].length === 0);
    const candidates = empty.length && order.length - i <= empty.length ? empty : open;
    let best = candidates[0]!;
    let bestGain = -Infinity;
    for (const k of candidates) {
      const gain = gap(k) - gap(k, m);
      if (gain > bestGain) [best, bestGain] = [k, gain];
    }
    for (const [s, n] of m) held[best].set(s, (held[best].get(s) ?? 0) + n);
    scenes[best].push(id);
  });
  const sceneSplit: Record<string, SplitName> = {};
  for (const k of SPLITS) for (const id of scenes[k]) sceneSplit[id] = k;
  const splits = Object.fromEntries(
    SPLITS.map((k) => [
      k,
      { scenes: [...scenes[k]].sort(), tasks: size(held[k]), strata: Object.fromEntries([...held[k]].sort(([a], [b]) => (a < b ? -1 : 1))) },
    ]),
  ) as SplitPlan['splits'];
  return { seed, ratios, sceneSplit, splits };
}

/** What `split` writes beside the splits: the plan, and each file's size and SHA-256 to check a copy by. */
export interface SplitManifest extends SplitPlan {
  source: string;
  files: Record<SplitName, { path: string; bytes: number; sha256: string }>;
}

/** A piece of a split's file: its next lines (or the manifest), as text and as the UTF-8 bytes written. */
export interface SplitPiece {
  path: string;
  text: string;
  bytes: Uint8Array;
}

/**
 * The files of a split a piece at a time, as `cli split` writes them into its folder and the studio
 * into its zip: `train.jsonl`, `val.jsonl`, `test.jsonl` (each task's line as in tasks.jsonl, in the
 * tasks' order, `lines` lines a piece; an empty split gives no piece) and then `manifest.json` (the
 * plan, `source` the tasks file, and each file's bytes and SHA-256), which it also returns. In
 * pieces so that the studio paints between them.
 */
export function* splitPieces(tasks: readonly AugmentedTask[], plan: SplitPlan, source: string, lines = 2000): Generator<SplitPiece, SplitManifest, void> {
  const files = {} as SplitManifest['files'];
  for (const k of SPLITS) {
    const path = `${k}.jsonl`;
    const hash = sha256.create();
    let size = 0;
    for (const text of tasksJsonlPieces(
      tasks.filter((t) => plan.sceneSplit[t.scene] === k),
      lines,
    )) {
      const bytes = utf8ToBytes(text);
      hash.update(bytes);
      size += bytes.length;
      yield { path, text, bytes };
    }
    files[k] = { path, bytes: size, sha256: bytesToHex(hash.digest()) };
  }
  const manifest: SplitManifest = { source, ...plan, files };
  const text = JSON.stringify(manifest, null, 2) + '\n';
  yield { path: 'manifest.json', text, bytes: utf8ToBytes(text) };
  return manifest;
}

/** The paths of a split's files, in the order splitPieces gives them. */
export const SPLIT_FILES = [...SPLITS.map((k) => `${k}.jsonl`), 'manifest.json'];

/** The files of a split whole (splitPieces joined): what `cli split` writes. */
export function splitOutput(
  tasks: readonly AugmentedTask[],
  plan: SplitPlan,
  source: string,
): { files: { path: string; text: string }[]; manifest: SplitManifest } {
  const texts = new Map(SPLIT_FILES.map((path) => [path, [] as string[]]));
  const pieces = splitPieces(tasks, plan, source);
  let next = pieces.next();
  for (; !next.done; next = pieces.next()) texts.get(next.value.path)!.push(next.value.text);
  return { files: [...texts].map(([path, t]) => ({ path, text: t.join('') })), manifest: next.value };
}

/**
 * Leakage: anything in a training file that belongs to a held-out scene — a record naming it as
 * its scene, or a path (a frame, a video) with the scene's id as a folder or file-name part.
 */
export function leaks(text: string, heldOut: readonly string[], where: string): string[] {
  const out: string[] = [];
  if (!heldOut.length) return out;
  const pattern = new RegExp(`(^|[/"\\\\_.-])(${heldOut.map(escape).join('|')})(?=[/"\\\\_.-]|$)`);
  text.split('\n').forEach((line, i) => {
    const m = pattern.exec(line);
    if (m) out.push(`${where} line ${i + 1}: names ${m[2]}, a scene held out from training`);
  });
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
