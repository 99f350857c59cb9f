import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { AugmentedTask } from '../core/research/augment.ts';
import { leaks, planSplits, SPLITS, splitOutput, type SplitManifest } from '../core/research/split.ts';
import { CliError, InputError, readInputText, readTree, writeOutput } from './files.ts';

export type { SplitManifest } from '../core/research/split.ts';

/**
 * `traversa split <tasks.jsonl> --out <dir> [--ratios 0.8,0.1,0.1] [--seed N]`: the tasks of
 * `augment` in train/val/test by scene (core/research/split.ts), with manifest.json.
 */
export function splitCommand(tasksPath: string | undefined, a: { out: string | undefined; ratios: string | undefined; seed: string | undefined }): string {
  if (!tasksPath) throw new CliError('split needs the tasks file (from augment): split <tasks.jsonl> --out <dir>');
  if (!a.out) throw new CliError('split needs --out <dir>');
  const r = (a.ratios ?? '0.8,0.1,0.1').split(',').map(Number);
  if (r.length !== 3 || r.some((x) => !Number.isFinite(x) || x < 0) || r.every((x) => x === 0))
    throw new CliError(`--ratios takes three non-negative numbers train,val,test (e.g. 0.8,0.1,0.1), not ${a.ratios}`);
  const seed = a.seed === undefined ? 1 : Number(a.seed);
  if (!Number.isInteger(seed)) throw new CliError(`--seed must be a whole number, not ${a.seed}`);
  const { tasks } = readTasks(tasksPath);
  const plan = planSplits(tasks, { train: r[0]!, val: r[1]!, test: r[2]! }, seed);
  // The files as the studio's split download holds them (core/research/split.ts splitOutput).
  for (const f of splitOutput(tasks, plan, tasksPath).files) writeOutput(join(a.out, f.path), f.text);
  return SPLITS.map((k) => `${k}: ${plan.splits[k].scenes.length} scenes, ${plan.splits[k].tasks} tasks`).join('\n');
}

/** A tasks file of `augment`, each line checked for the fields the research commands read; a bad line stops the command with its number. */
export function readTasks(path: string): { text: string; tasks: AugmentedTask[] } {
  const text = readInputText(path, 'tasks');
  const tasks: AugmentedTask[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let t: AugmentedTask;
    try {
      t = JSON.parse(line) as AugmentedTask;
    } catch {
      throw new InputError(`${path} line ${i + 1}: not valid JSON`);
    }
    if (
      typeof t?.scene !== 'string' ||
      typeof t.agent !== 'string' ||
      typeof t.feasible !== 'boolean' ||
      typeof t.start?.id !== 'string' ||
      typeof t.end?.id !== 'string'
    )
      throw new InputError(`${path} line ${i + 1}: not a task of augment (it needs scene, agent, start, end and feasible)`);
    tasks.push(t);
  });
  return { text, tasks };
}

/** The scenes a split manifest holds out from training (validation and test). */
export const heldOutScenes = (m: SplitManifest): string[] => [...(m.splits?.val?.scenes ?? []), ...(m.splits?.test?.scenes ?? [])];

/**
 * `traversa leakage <manifest.json> <file-or-dir>…`: refuse training data that names a scene held
 * out for validation or testing (a record's scene, a frame's or video's path). Exit 1 with every place.
 */
export function leakageCommand(manifestPath: string | undefined, targets: readonly string[]): { text: string; code: number } {
  if (!manifestPath || !targets.length) throw new CliError('leakage needs the split manifest and what to check: leakage <manifest.json> <file-or-dir>…');
  const manifest = JSON.parse(readInputText(manifestPath, 'split manifest')) as SplitManifest;
  const heldOut = heldOutScenes(manifest);
  const found: string[] = [];
  for (const target of targets) {
    const files = statSync(target).isDirectory()
      ? readTree(target, ['.jsonl', '.json', '.txt'], 'training data').map((f) => ({ where: join(target, f.path), text: f.text }))
      : [{ where: target, text: readInputText(target, 'training data') }];
    for (const f of files) for (const l of leaks(f.text, heldOut, f.where)) found.push(l);
  }
  if (found.length)
    return { text: [...found, `${found.length} place${found.length === 1 ? '' : 's'} name held-out scenes: not for training`].join('\n'), code: 1 };
  return { text: `no held-out scene (${heldOut.length}) is named in ${targets.join(', ')}`, code: 0 };
}
