import type { JudgeChoice } from '../judges/choose.ts';
import { judgeByCategories } from '../judges/rule.ts';
import { groundTruthFromRelease } from './groundTruth.ts';
import { ReferenceScorer } from './score.ts';
import type { CompatInputFile, CompatJudge, CompatSettings } from './types.ts';

/** The released scorer drops every reason, so only judges that can answer an empty reason apply. */
export type CompatJudgeChoice = Extract<JudgeChoice, { kind: 'rule' | 'none' }>;

/** What the records and summary name as the RV judge (`rv_llm_model`). */
export const COMPAT_JUDGE_NAMES: Record<CompatJudgeChoice['kind'], string> = { rule: 'rule judge (offline)', none: 'none' };

/** The judge of a compat run from the studio's choice: the rule judge or none; null for a judge that needs a reason (HTTP, imported verdicts). */
export function referenceJudge(judge: string): CompatJudgeChoice | null {
  return judge === 'rule' ? { kind: 'rule' } : judge === 'none' ? { kind: 'none' } : null;
}

/** The rule judge on the reference scorer's terms (reason and notes in, 1 or 0 out), or no judge (always 0). */
function compatJudge(choice: CompatJudgeChoice): CompatJudge {
  if (choice.kind === 'none') return () => 0;
  return (reason, notes) => (judgeByCategories({ reason, notes: [...notes], agent: '' }).correct ? 1 : 0);
}

export interface ReferenceRun {
  /** The ground truth's release files (only `<SCENE>-graph.json` and `-traverse.json` are read). */
  release: readonly CompatInputFile[];
  judge: CompatJudgeChoice;
  /** The results root as the user named it: the default `result_root`. */
  root: string;
  /** The paths the released scorer writes into its output. */
  settings?: CompatSettings;
}

/**
 * The released scorer of a compat run, file by file: ground truth from the release, the judge and
 * its name, and the paths it writes into its output. The command line feeds it files as it reads
 * them; the scoring pipeline (and so the browser) feeds it all at once. Imports nothing of paper
 * mode, so the command line starts without it.
 */
export function referenceScorer(run: ReferenceRun): { scorer: ReferenceScorer; truthProblems: { path: string; message: string }[] } {
  const gt = groundTruthFromRelease(run.release);
  const scorer = new ReferenceScorer(gt.groundTruth, {
    resultRoot: run.root,
    ...run.settings,
    rvModel: COMPAT_JUDGE_NAMES[run.judge.kind],
    judge: compatJudge(run.judge),
  });
  return { scorer, truthProblems: gt.problems };
}
