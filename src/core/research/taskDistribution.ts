import { obstaclesOf, type AugmentedTask } from './augment.ts';

/**
 * How a run's tasks are spread (the studio's Training view): per agent its answers and what blocks
 * its "no" tasks, and per scene its count. Obstacles are counted as augment's summary counts them: a
 * task once per category that blocks it, "unlabelled" when none does (a segment on the way has no
 * label), so the agents' obstacle counts add up to the summary's `byObstacle`.
 */
export interface TaskDistribution {
  /** One row per agent asked for, in that order (an agent left with no task has a row of zeros). */
  agents: { agent: string; tasks: number; yes: number; no: number; obstacles: Record<string, number> }[];
  /** The obstacle categories found, the most frequent first (ties by name): the columns of the agents' table. */
  obstacles: string[];
  /** One row per scene that has tasks, in the tasks' order. */
  scenes: { scene: string; tasks: number; yes: number; no: number }[];
}

export function taskDistribution(tasks: readonly AugmentedTask[], agents: readonly string[]): TaskDistribution {
  const byAgent = new Map(agents.map((agent) => [agent, { agent, tasks: 0, yes: 0, no: 0, obstacles: {} as Record<string, number> }]));
  const byScene = new Map<string, TaskDistribution['scenes'][number]>();
  const totals = new Map<string, number>();
  for (const t of tasks) {
    let a = byAgent.get(t.agent);
    if (!a) byAgent.set(t.agent, (a = { agent: t.agent, tasks: 0, yes: 0, no: 0, obstacles: {} }));
    let s = byScene.get(t.scene);
    if (!s) byScene.set(t.scene, (s = { scene: t.scene, tasks: 0, yes: 0, no: 0 }));
    a.tasks++;
    s.tasks++;
    if (t.feasible) {
      a.yes++;
      s.yes++;
      continue;
    }
    a.no++;
    s.no++;
    for (const c of obstaclesOf(t)) {
      a.obstacles[c] = (a.obstacles[c] ?? 0) + 1;
      totals.set(c, (totals.get(c) ?? 0) + 1);
    }
  }
  const obstacles = [...totals].sort(([a, n], [b, m]) => m - n || (a < b ? -1 : a > b ? 1 : 0)).map(([c]) => c);
  return { agents: [...byAgent.values()], obstacles, scenes: [...byScene.values()] };
}

/**
 * A few tasks to look at: agent by agent (in the tasks' order), a "yes" and then a "no" — a "no" a
 * labelled obstacle blocks rather than a missing label when there is one — until `n` are chosen.
 */
export function exampleTasks(tasks: readonly AugmentedTask[], n = 6): AugmentedTask[] {
  const byAgent = new Map<string, { yes?: AugmentedTask; no?: AugmentedTask; unlabelled?: AugmentedTask }>();
  for (const t of tasks) {
    let e = byAgent.get(t.agent);
    if (!e) byAgent.set(t.agent, (e = {}));
    if (t.feasible) e.yes ??= t;
    else if (t.blocking?.categories.length) e.no ??= t;
    else e.unlabelled ??= t;
  }
  const out: AugmentedTask[] = [];
  for (const e of byAgent.values())
    for (const t of [e.yes, e.no ?? e.unlabelled]) {
      if (t && out.length < n) out.push(t);
    }
  return out;
}
