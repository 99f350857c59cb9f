import type { JudgeInfo } from '../judges/types.ts';
import type { VqaItem } from './embodied4c.ts';

/**
 * Free-form VQA answers are scored 0–100 by a judge (Embodied4C eq. 1). Scores come from an
 * imported file or a verdict cache keyed like the RV cache: (judge id, prompt version, question,
 * reference answer, reply), so re-scoring is reproducible and free.
 */
export function freeFormKey(judge: JudgeInfo, question: string, reference: string, reply: string): string {
  return JSON.stringify([judge.id, judge.promptVersion, question, reference, reply]);
}

/** Give free-form items their judge scores by item id; items without one stay unscored (`judgeScore: null`). */
export function attachJudgeScores(items: readonly VqaItem[], scores: ReadonlyMap<string, number>): VqaItem[] {
  return items.map((it) => (it.kind === 'free' ? { ...it, judgeScore: scores.get(it.id) ?? it.judgeScore } : it));
}
