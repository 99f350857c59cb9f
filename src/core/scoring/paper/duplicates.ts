import type { DuplicateSummary, ScoredRecord } from './types.ts';

export const NO_DUPLICATES: DuplicateSummary = { tasks: 0, extra: 0, sources: [] };

export function duplicateSummary(records: readonly ScoredRecord[]): DuplicateSummary {
  const byTask = new Map<string, ScoredRecord[]>();
  for (const r of records) {
    if (r.status !== 'scored') continue;
    const key = `${r.scene}\u0000${r.questionIndex}\u0000${r.agent}`;
    const list = byTask.get(key);
    if (list) list.push(r);
    else byTask.set(key, [r]);
  }
  let tasks = 0,
    extra = 0;
  const groups = new Map<string, { files: string[]; tasks: number }>();
  for (const list of byTask.values()) {
    if (list.length < 2) continue;
    tasks++;
    extra += list.length - 1;
    const files = [...new Set(list.map((r) => r.file))].sort();
    const key = files.join('\u0000');
    const g = groups.get(key);
    if (g) g.tasks++;
    else groups.set(key, { files, tasks: 1 });
  }
  return tasks
    ? { tasks, extra, sources: [...groups.values()].sort((a, b) => b.tasks - a.tasks || a.files.join().localeCompare(b.files.join())) }
    : NO_DUPLICATES;
}
