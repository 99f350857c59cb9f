import type { AgentProfile } from '../../../core/agents.ts';
import type { Scene } from '../../../core/project.ts';
import { augmentOptionsOf, type AugmentedTask, type AugmentOptions, type AugmentSummary, type BalanceKind } from '../../../core/research/augment.ts';
import { SPLITS, type SplitName } from '../../../core/research/split.ts';
import { patchState } from '../../../state/patch.ts';
import { registerSlice, type StudioStore } from '../../../state/store.ts';

/**
 * The Training view (issue 27 §1 in the studio): the settings of a run of task augmentation on the
 * graph (core/research/augment.ts, the same as `cli augment`), its progress, and its tasks. Session
 * state: this user's, in this tab; the run itself is features/training/app/trainingTasks.ts.
 */
export interface TrainingSession {
  /** The agents chosen, in the project's agent order; null: every agent (augment's default). */
  agents: string[] | null;
  /** At most this many tasks per scene and agent ('' : every pair). */
  budget: string;
  seed: string;
  balance: BalanceKind[];
  /** The train/val/test shares and the split's seed, as typed. */
  split: Record<SplitName, string> & { seed: string };
  status:
    | { state: 'idle'; message?: string }
    | { state: 'running'; done: number; total: number; tasks: number; scene: string; startedAt: number }
    | { state: 'error'; message: string };
  result: TrainingResult | null;
  /** A download being put together (a large project's takes a moment; the page paints meanwhile). */
  preparing: 'tasks' | 'split' | null;
}

/** A finished run: its tasks and what they were made from. */
export interface TrainingResult {
  projectId: string | null;
  /** The project's scenes and profiles it read: when they are no longer the project's, the tasks are of an older state of it. */
  scenes: readonly Scene[];
  profiles: readonly AgentProfile[];
  options: AugmentOptions;
  /** The agents the tasks are for (the rows of the distribution). */
  agents: string[];
  tasks: readonly AugmentedTask[];
  summary: AugmentSummary;
  ms: number;
}

export function initialTraining(): TrainingSession {
  return {
    agents: null,
    budget: '',
    seed: '1',
    balance: [],
    split: { train: '0.8', val: '0.1', test: '0.1', seed: '1' },
    status: { state: 'idle' },
    result: null,
    preparing: null,
  };
}

declare module '../../../state/store.ts' {
  interface FeatureSlices {
    training: TrainingSession;
  }
}
registerSlice('training', 'session', initialTraining);

export function setTraining(store: StudioStore, patch: Partial<TrainingSession>): void {
  patchState(store, 'training', patch);
}

/** A whole number as the command line reads one (`Number`), else NaN. */
const whole = (s: string) => (Number.isInteger(Number(s)) ? Number(s) : NaN);

/**
 * The augment options of the view's settings, checked as `cli augment` checks its flags; `agents`
 * the agents the run is for. All agents chosen is no `--agents` (augment's default), as the command line.
 */
export function trainingOptions(
  t: Pick<TrainingSession, 'agents' | 'budget' | 'seed' | 'balance'>,
  allAgents: readonly string[],
): { options: AugmentOptions; agents: string[] } | { error: string } {
  const chosen = t.agents === null ? [...allAgents] : allAgents.filter((a) => t.agents!.includes(a));
  if (!chosen.length) return { error: 'Choose at least one agent.' };
  let budget: number | undefined;
  if (t.budget.trim()) {
    budget = whole(t.budget);
    if (!(budget > 0)) return { error: `The budget must be a whole number above 0 (or empty for every pair), not “${t.budget}”.` };
  }
  const seed = t.seed.trim() ? whole(t.seed) : 1;
  if (!Number.isInteger(seed)) return { error: `The seed must be a whole number, not “${t.seed}”.` };
  const every = chosen.length === allAgents.length;
  return { options: augmentOptionsOf({ agents: every ? [] : chosen, budget, seed, balance: t.balance }), agents: chosen };
}

/** The split's shares and seed as typed, checked as `cli split` checks `--ratios` and `--seed`. */
export function splitSettings(s: TrainingSession['split']): { ratios: Record<SplitName, number>; seed: number } | { error: string } {
  const r = SPLITS.map((k) => (s[k].trim() === '' ? NaN : Number(s[k])));
  if (r.some((x) => !Number.isFinite(x) || x < 0) || r.every((x) => x === 0))
    return { error: 'The shares of train, val and test must be numbers of 0 or more, not all 0 (e.g. 0.8, 0.1, 0.1).' };
  const seed = s.seed.trim() ? whole(s.seed) : 1;
  if (!Number.isInteger(seed)) return { error: `The split’s seed must be a whole number, not “${s.seed}”.` };
  return { ratios: { train: r[0]!, val: r[1]!, test: r[2]! }, seed };
}

/** The command line that writes the same tasks.jsonl (`--seed` always said, so the line stands on its own). */
export function augmentCommandLine(o: AugmentOptions, release = '<release-dir>'): string {
  const balance = o.balance ? (['answers', 'obstacles'] as const).filter((k) => o.balance![k]) : [];
  return [
    `npm run -s cli -- augment ${release} --out tasks.jsonl`,
    ...(o.agents?.length ? [`--agents ${o.agents.join(',')}`] : []),
    ...(o.budget !== undefined ? [`--budget ${o.budget}`] : []),
    `--seed ${o.seed ?? 1}`,
    ...(balance.length ? [`--balance ${balance.join(',')}`] : []),
  ].join(' ');
}

/** The command line that writes the same split from that tasks.jsonl. */
export const splitCommandLine = (ratios: Record<SplitName, number>, seed: number): string =>
  `npm run -s cli -- split tasks.jsonl --out split --ratios ${SPLITS.map((k) => ratios[k]).join(',')} --seed ${seed}`;

/** Whether the result was made from the project as it is (its scenes and agent profiles unchanged since). */
export const isCurrent = (r: TrainingResult, project: { scenes: readonly Scene[]; profiles: readonly AgentProfile[] } | null): boolean =>
  !!project && r.scenes === project.scenes && r.profiles === project.profiles;
