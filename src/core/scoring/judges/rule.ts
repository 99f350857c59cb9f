import { REASON_LABEL } from '../../rules.ts';
import { categoriesOf, categoriesOfAll } from './categories.ts';
import type { Judge, JudgeInfo, JudgeRequest } from './types.ts';

export const RULE_JUDGE_INFO: JudgeInfo = {
  id: 'rule',
  kind: 'rule',
  label: 'offline rule judge (obstacle-category overlap), not an LLM',
  promptVersion: 'rule-categories-1',
};

/**
 * The offline RV judge: the model's reason is correct when it names at least one obstacle
 * category that the ground truth names for the blocked hops of its route (stairs, step/sill,
 * narrow passage, turning space, door, lift, other). Deterministic and free, but only as good as
 * the keyword map in categories.ts: it cannot tell "there are no stairs" from "stairs".
 */
export function ruleJudge(): Judge {
  return { info: RULE_JUDGE_INFO, judge: judgeByCategories };
}

export function judgeByCategories(req: JudgeRequest): { correct: boolean; explanation: string } {
  const said = categoriesOf(req.reason);
  const truth = req.categories && req.categories.length ? req.categories : categoriesOfAll(req.notes);
  const shared = said.filter((c) => truth.includes(c));
  const names = (cs: readonly string[]) =>
    cs.length ? cs.map((c) => REASON_LABEL[c as keyof typeof REASON_LABEL].toLowerCase()).join(', ') : 'no known obstacle';
  if (shared.length) return { correct: true, explanation: `the reason names ${names(shared)}, as the ground truth does` };
  return { correct: false, explanation: `the reason names ${names(said)}; the ground truth names ${names(truth)}` };
}
