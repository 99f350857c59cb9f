import { augment, augmentOptionsOf, BALANCE_KINDS, tasksJsonlPieces, type AugmentSummary, type BalanceKind } from '../core/research/augment.ts';
import type { Project } from '../core/project.ts';
import { CliError, openOutput } from './files.ts';

export interface AugmentArgs {
  out: string | undefined;
  agents: string[];
  budget: string | undefined;
  seed: string | undefined;
  balance: string[];
  json: boolean;
}

/**
 * `traversa augment <release-dir> --out tasks.jsonl`: every ordered pair of connected nodes per
 * agent as a task with the labels' answer, a shortest feasible route and the blocking reasons
 * (core/research/augment.ts), one JSON line each; the summary on stdout.
 */
export function augmentCommand(project: Project, a: AugmentArgs): string {
  if (!a.out) throw new CliError('augment needs --out <tasks.jsonl>');
  const budget = a.budget === undefined ? undefined : Number(a.budget);
  if (budget !== undefined && !(Number.isInteger(budget) && budget > 0)) throw new CliError(`--budget must be a whole number above 0, not ${a.budget}`);
  const seed = a.seed === undefined ? 1 : Number(a.seed);
  if (!Number.isInteger(seed)) throw new CliError(`--seed must be a whole number, not ${a.seed}`);
  const unknownBalance = a.balance.filter((b) => !BALANCE_KINDS.includes(b as BalanceKind));
  if (unknownBalance.length) throw new CliError(`--balance takes answers and/or obstacles, not ${unknownBalance.join(', ')}`);
  const missing = a.agents.filter((x) => !project.profiles.some((p) => p.name === x));
  if (missing.length) throw new CliError(`no agent profile named ${missing.join(', ')} (the release has ${project.profiles.map((p) => p.name).join(', ')})`);
  const options = augmentOptionsOf({ agents: a.agents, budget, seed, balance: a.balance as BalanceKind[] });
  const { tasks, summary } = augment(project, options);
  const out = openOutput(a.out);
  try {
    // In pieces (tasksJsonlPieces, the lines the studio's download holds too).
    for (const piece of tasksJsonlPieces(tasks)) out.write(Buffer.from(piece));
  } finally {
    out.close();
  }
  return a.json ? JSON.stringify(summary, null, 2) : summaryText(summary, a.out);
}

function summaryText(s: AugmentSummary, path: string): string {
  const rows = Object.entries(s.byAgent).map(
    ([agent, r]) => `  ${agent.padEnd(12)} ${String(r.tasks).padStart(7)} ${String(r.feasible).padStart(9)} ${String(r.infeasible).padStart(11)}`,
  );
  const obstacles = Object.entries(s.byObstacle)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    `${s.tasks} tasks from ${s.scenes} scene${s.scenes === 1 ? '' : 's'} written to ${path}`,
    `  agent          tasks  feasible  infeasible`,
    ...rows,
    `blocked by: ${obstacles || 'nothing'} ("unlabelled": a segment on the way has no label for the agent)`,
    ...(s.unconnectedPairs ? [`${s.unconnectedPairs} agent × pair cases left out: the graph does not connect the two nodes at all`] : []),
  ].join('\n');
}
