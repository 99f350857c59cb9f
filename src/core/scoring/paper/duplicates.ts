import type { ScoredRecord } from './types.ts';

/**
 * Tasks — (scene, question, agent) of one model — predicted more than once. Every prediction is
 * scored, as the released scorer scores every item it reads, so such a task counts once per
 * prediction in every metric. `sources` says which files the repeats came from: two files that
 * both hold the model's predictions (a results folder and a baseline of the same name) show up as
 * one group naming both.
 */
export interface DuplicateSummary {
  /** Tasks with more than one scored prediction. */
  tasks: number;
  /** Predictions beyond the first of each such task (what the metrics count extra). */
  extra: number;
  /** Per set of files the repeated predictions came from (sorted), how many tasks. Most tasks first. */
  sources: { files: string[]; tasks: number }[];
}

export const NO_DUPLICATES: DuplicateSummary = { tasks: 0, extra: 0, sources: [] };

export function duplicateSummary(records: readonly ScoredRecord[]): DuplicateSummary {
  const byTask = new Map<string, ScoredRecord[]>();
  for (const r of records) {
    if (r.status !== 'scored') continue;
    const key = `${r.scene}\u0000${r.questionIndex}\u0000${r.agent}`;
    const list = byTask.get(key);
    if (list) list.push(r); else byTask.set(key, [r]);
  }
  let tasks = 0, extra = 0;
  const groups = new Map<string, { files: string[]; tasks: number }>();
  for (const list of byTask.values()) {
    if (list.length < 2) continue;
    tasks++;
    extra += list.length - 1;
    const files = [...new Set(list.map((r) => r.file))].sort();
    const key = files.join('\u0000');
    const g = groups.get(key);
    if (g) g.tasks++; else groups.set(key, { files, tasks: 1 });
  }
  return tasks ? { tasks, extra, sources: [...groups.values()].sort((a, b) => b.tasks - a.tasks || a.files.join().localeCompare(b.files.join())) } : NO_DUPLICATES;
}
